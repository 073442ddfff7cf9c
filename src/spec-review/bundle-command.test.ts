import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyEdits, cli, readYaml, writeSpecs } from './__fixtures__/spec-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPEC = readYaml(join(ROOT, 'spec', 'openapi.yaml'));

describe('flag-admin spec bundle', () => {
  it('writes one self-contained YAML document that diffs equal to the spec', async () => {
    const bundled = await cli(['spec', 'bundle'], { cwd: ROOT });
    expect(bundled.code).toBe(0);
    expect(bundled.stdout).toMatch(/^openapi: 3\.1\.0\n/);
    const diff = await cli(['spec', 'diff', 'spec/openapi.yaml', '-'], { cwd: ROOT, stdin: bundled.stdout });
    expect(diff.stdout).toContain('no changes');
  });

  it('dereferences into JSON with no $ref left, each shared schema written out where it is used', async () => {
    const { code, stdout } = await cli(['spec', 'bundle', '--format', 'json', '--dereference'], { cwd: ROOT });
    expect(code).toBe(0);
    expect(stdout).not.toContain('"$ref"');
    const document = JSON.parse(stdout);
    const notFound = document.paths['/api/admin/service-account/{id}/token/{tokenId}'].delete.responses['404'];
    expect(notFound.content['application/json'].schema.allOf[1].properties.name.const).toBe('NotFoundError');
  });

  it('pulls a schema from another file into the bundle', async () => {
    const files = writeSpecs({ 'pet.yaml': { type: 'object', properties: { name: { type: 'string' } } } });
    const withExternal = applyEdits(SPEC, { set: { '/components/schemas/EnvironmentsProject/properties/pet': { $ref: files['pet.yaml'] } } });
    const { spec } = writeSpecs({ spec: withExternal });
    const { code, stdout } = await cli(['spec', 'bundle', spec!, '--format', 'json']);
    expect(code).toBe(0);
    expect(stdout).not.toContain('pet.yaml');
    expect(JSON.stringify(JSON.parse(stdout))).toContain('"name":{"type":"string"}');
  });

  it('names the $ref it cannot resolve, exit 2', async () => {
    const { spec } = writeSpecs({ spec: applyEdits(SPEC, { set: { '/components/schemas/EnvironmentsProject/properties/pet': { $ref: '#/components/schemas/Nowhere' } } }) });
    const { code, stderr } = await cli(['spec', 'bundle', spec!, '--dereference']);
    expect(code).toBe(2);
    expect(stderr).toContain('#/components/schemas/Nowhere');
  });
});
