import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyEdits, cli, readYaml, writeSpecs } from './__fixtures__/spec-cli.ts';
import { decisionsSection } from './readme-decisions.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPEC = readYaml(join(ROOT, 'spec', 'openapi.yaml'));

describe('flag-admin spec decisions', () => {
  it('prints the table docs/decisions.md shows (run `npm run gen:decisions` after changing a decision)', async () => {
    const { code, stdout } = await cli(['spec', 'decisions'], { cwd: ROOT });
    expect(code).toBe(0);
    const readme = readFileSync(join(ROOT, 'docs/decisions.md'), 'utf8');
    expect(decisionsSection(readme), 'docs/decisions.md: the decisions table differs from the spec; run `npm run gen:decisions`').toBe(stdout);
  });

  it('lists each decision as JSON with its id, section, open point, decision and where it is recorded', async () => {
    const { code, stdout } = await cli(['spec', 'decisions', '--format', 'json'], { cwd: ROOT });
    expect(code).toBe(0);
    const decisions = JSON.parse(stdout) as { id: string; pointer: string; place: string }[];
    expect(decisions.find((d) => d.id === 'environment-type-values')).toMatchObject({
      apiSection: '§2.1',
      openPoint: 'Allowed values of type: not shown.',
      pointer: '/components/schemas/ProjectEnvironment/properties/type',
      place: 'ProjectEnvironment.type',
    });
    expect(decisions.find((d) => d.id === 'oidc-read-400')).toMatchObject({ pointer: '/paths/~1api~1admin~1auth~1oidc~1settings/get', place: 'getOidcSettings' });
    expect(new Set(decisions.map((d) => d.id)).size).toBe(decisions.length);
  });

  it('refuses a malformed decision with exit 2, naming file:line:column and the pointer', async () => {
    const { spec } = writeSpecs({ spec: applyEdits(SPEC, { remove: ['/info/x-decisions/0/decision'] }) });
    const { code, stderr } = await cli(['spec', 'decisions', spec!]);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^flag-admin spec decisions: ${spec}:\\d+:\\d+ #/info/x-decisions/0: expected a decision with non-empty strings id, apiSection, openPoint, decision; missing or not a string: decision\\n$`));
  });

  it('says in one line that a document records no decision, instead of an empty table', async () => {
    const { spec } = writeSpecs({ spec: { openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: {} } });
    expect(await cli(['spec', 'decisions', spec!])).toEqual({ code: 0, stdout: `${spec}: no decisions recorded (no x-decisions entry anywhere in the document)\n`, stderr: '' });
    expect(await cli(['spec', 'decisions', spec!, '--format', 'json'])).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });
});
