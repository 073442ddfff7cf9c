import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyEdits, cli, readYaml, writeSpecs } from '../__fixtures__/spec-cli.ts';
import { providerDocument } from '../__fixtures__/provider-document.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const OURS = 'spec/openapi.yaml';

interface Side {
  file: string;
  pointer: string;
  line: number;
  column: number;
}
interface Finding {
  client: 'ours' | 'theirs';
  ruleId: string;
  severity: string;
  operations: string[];
  ours: Side;
  theirs: Side;
}
interface Report {
  pairs: { ours: string; theirs: string; by: string }[];
  unmatched: string[];
  findings: Finding[];
  breaking: { ours: number; theirs: number };
  tolerated?: (Side & { message: string })[];
}

async function compareJson(theirs: string, ...flags: string[]) {
  const { code, stdout, stderr } = await cli(['spec', 'compare', OURS, theirs, '--format', 'json', ...flags], { cwd: ROOT });
  expect(stderr).toBe('');
  return { code, report: JSON.parse(stdout) as Report };
}

const lineAt = (side: Side) => readFileSync(resolve(ROOT, side.file), 'utf8').split('\n')[side.line - 1]!;
/** The line a position is on and the one before: a block value starts on the line after its key. */
const aroundLine = (side: Side) => readFileSync(resolve(ROOT, side.file), 'utf8').split('\n').slice(Math.max(0, side.line - 2), side.line).join('\n');

// The provider's document: 3.0.3, our three operations among 80 others.
const PROVIDER = providerDocument(80);
const MOVED = '/api/admin/projects/{projectId}/environments';

describe('flag-admin spec compare', () => {
  it('finds nothing that breaks a client either way when the provider holds our operations as we wrote them, in 3.0 terms', async () => {
    const { theirs } = writeSpecs({ theirs: PROVIDER });
    const { code, report } = await compareJson(theirs!);
    expect(report.pairs.map((p) => `${p.ours} by ${p.by}`)).toEqual([
      'GET /api/admin/environments/project/{projectId} by path',
      'GET /api/admin/auth/oidc/settings by path',
      'DELETE /api/admin/service-account/{id}/token/{tokenId} by path',
    ]);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
  });

  it('reports each planted difference once, in the direction it breaks, with the position in both files', async () => {
    const planted = applyEdits(PROVIDER, {
      // Theirs serves the environments under another path (paired by operationId) and requires a query parameter there.
      move: { '/paths/~1api~1admin~1environments~1project~1{projectId}': `/paths/${MOVED.replaceAll('/', '~1')}` },
      set: {
        [`/paths/${MOVED.replaceAll('/', '~1')}/get/parameters/1`]: { name: 'includeArchived', in: 'query', required: true, schema: { type: 'boolean' } },
        // Theirs answers a property ours does not have: a client of theirs reading it breaks against ours.
        '/components/schemas/OidcSettings/properties/secretRotatedAt': { type: 'string', format: 'date-time', nullable: true },
      },
      // Theirs never answers acrValues: a client of ours reading it breaks against theirs.
      remove: ['/components/schemas/OidcSettings/properties/acrValues'],
    });
    const { theirs } = writeSpecs({ theirs: planted });
    const { code, report } = await compareJson(theirs!);
    expect(report.pairs).toContainEqual({ ours: 'GET /api/admin/environments/project/{projectId}', theirs: `GET ${MOVED}`, by: 'operationId' });
    const summary = report.findings.map((f) => `${f.client} ${f.severity} ${f.ruleId} ${f.operations.join(',')}`);
    expect(summary.sort()).toEqual([
      'ours breaking parameter-added-required GET /api/admin/environments/project/{projectId}',
      // acrValues and secretRotatedAt are optional (OidcSettings requires nothing): a client already
      // handles their absence, so each side lacking one is possibly breaking, a warning.
      'ours warning response-optional-property-removed GET /api/admin/auth/oidc/settings',
      // A client of theirs still sending the parameter to ours may be refused.
      'theirs warning parameter-removed GET /api/admin/environments/project/{projectId}',
      'theirs warning response-optional-property-removed GET /api/admin/auth/oidc/settings',
    ]);
    const at = (rule: string, client: string) => report.findings.find((f) => f.ruleId === rule && f.client === client)!;
    // Both positions, each in its own file as written; theirs' moved operation at its own path.
    expect(at('response-optional-property-removed', 'ours').ours.pointer).toBe('/components/schemas/OidcSettings/properties/acrValues');
    expect(aroundLine(at('response-optional-property-removed', 'ours').ours)).toMatch(/^\s+acrValues:/m);
    expect(at('response-optional-property-removed', 'ours').theirs).toMatchObject({ file: theirs, pointer: '/components/schemas/OidcSettings/properties' });
    expect(aroundLine(at('response-optional-property-removed', 'theirs').theirs)).toMatch(/^\s+secretRotatedAt:/m);
    expect(at('parameter-added-required', 'ours').theirs.pointer).toBe(`/paths/${MOVED.replaceAll('/', '~1')}/get/parameters/1`);
    expect(lineAt(at('parameter-added-required', 'ours').theirs)).toContain('name: includeArchived');
    expect(lineAt(at('parameter-added-required', 'ours').ours)).toContain('operationId: getProjectEnvironments');
    expect(report.breaking).toEqual({ ours: 1, theirs: 0 });
    expect(code).toBe(1);

    const text = await cli(['spec', 'compare', OURS, theirs!], { cwd: ROOT });
    expect(text.stdout).toContain(`What breaks a client written against ${OURS}, calling ${theirs}:`);
    expect(text.stdout).toContain(`  GET /api/admin/environments/project/{projectId} = GET ${MOVED} (same operationId)`);
    expect(text.stdout.split('\n')[0]).toMatch(/^Verdict: breaking 1 for clients of ours, 0 for clients of theirs — .*: 3 operation\(s\) in common \(1 paired by operationId\)$/);
    const markdown = await cli(['spec', 'compare', OURS, theirs!, '--format', 'markdown'], { cwd: ROOT });
    expect(markdown.stdout).toContain('| client of | severity | rule | difference | operations | ours | theirs |');
    expect(markdown.stdout).toContain('| ours | breaking | `parameter-added-required` |');
  });

  it('reads a field of theirs written empty (`security:` with nothing) as not written, and says so after the verdict', async () => {
    const pointer = '/paths/~1api~1admin~1auth~1oidc~1settings/get/security';
    const { theirs } = writeSpecs({ theirs: applyEdits(PROVIDER, { set: { [pointer]: null } }) });
    const { code, report } = await compareJson(theirs!);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
    const [place] = report.tolerated!;
    expect(report.tolerated).toHaveLength(1);
    expect(place).toMatchObject({ file: theirs, pointer, message: 'expected an array, got null: read as not written (`security: []` would declare it open)' });
    expect(lineAt(place!)).toMatch(/^\s+security:/);
    const text = await cli(['spec', 'compare', OURS, theirs!], { cwd: ROOT });
    expect(text.stdout.split('\n\n')[1]).toBe(`Read leniently (1 place):\n  ${theirs}:${place!.line}:${place!.column} #${pointer}: ${place!.message}`);
  });

  it('holds every operation of ours with --operations ours, and only those named with a list', async () => {
    const { theirs } = writeSpecs({ theirs: applyEdits(PROVIDER, { remove: ['/paths/~1api~1admin~1service-account~1{id}~1token~1{tokenId}'] }) });
    const common = await compareJson(theirs!);
    expect(common.report.unmatched).toEqual(['DELETE /api/admin/service-account/{id}/token/{tokenId}']);
    expect(common.report.findings).toEqual([]);
    const all = await compareJson(theirs!, '--operations', 'ours');
    expect(all.report.findings.map((f) => `${f.client} ${f.ruleId}`)).toEqual(['ours operation-removed']);
    expect(all.report.findings[0]!.ours.pointer).toBe('/paths/~1api~1admin~1service-account~1{id}~1token~1{tokenId}/delete');
    expect(lineAt(all.report.findings[0]!.ours)).toContain('operationId: deleteServiceAccountToken');
    expect(all.code).toBe(1);
    const one = await compareJson(theirs!, '--operations', 'getOidcSettings');
    expect(one.report.pairs.map((p) => p.ours)).toEqual(['GET /api/admin/auth/oidc/settings']);
    const unknown = await cli(['spec', 'compare', OURS, theirs!, '--operations', 'getOidcSetings'], { cwd: ROOT });
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('expected operationIds of OURS, got "getOidcSetings"') });
  });

  it('pairs operations by their URL: a path is read under its document\'s server base path', async () => {
    const ourPaths = Object.keys(PROVIDER.paths as object).filter((path) => !path.includes('features-'));
    const moves = Object.fromEntries(ourPaths.map((path) => [`/paths/${path.replaceAll('/', '~1')}`, `/paths/${path.slice('/api'.length).replaceAll('/', '~1')}`]));
    const { theirs } = writeSpecs({ theirs: applyEdits(PROVIDER, { move: moves, set: { '/servers': [{ url: 'https://flags.test/{base}', variables: { base: { default: 'api' } } }] } }) });
    const { code, report } = await compareJson(theirs!);
    expect(report.pairs).toContainEqual({ ours: 'GET /api/admin/auth/oidc/settings', theirs: 'GET /admin/auth/oidc/settings', by: 'path' });
    expect(report.pairs.every((p) => p.by === 'path')).toBe(true);
    expect(report.pairs).toHaveLength(3);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
  });

  it('pairs only the operations a client calls: a callback is compared inside its operation, not paired as one', async () => {
    const OIDC = '/paths/~1api~1admin~1auth~1oidc~1settings/get';
    const callback = (type: string) => ({ onChange: { '{$request.query.hook}': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { at: { type } } } } } }, responses: { 204: { description: 'Taken.' } } } } } });
    const { ours, theirs } = writeSpecs({
      ours: applyEdits(readYaml(resolve(ROOT, OURS)), { set: { [`${OIDC}/callbacks`]: callback('string') } }),
      theirs: applyEdits(PROVIDER, { set: { [`${OIDC}/callbacks`]: callback('integer') } }),
    });
    const { code, stdout } = await cli(['spec', 'compare', ours!, theirs!, '--format', 'json']);
    const report = JSON.parse(stdout) as Report;
    expect(report.pairs.map((p) => p.ours)).toEqual(['GET /api/admin/environments/project/{projectId}', 'GET /api/admin/auth/oidc/settings', 'DELETE /api/admin/service-account/{id}/token/{tokenId}']);
    expect(report.findings.map((f) => `${f.client} ${f.ruleId} ${f.operations.join()}`)).toEqual([
      'ours request-type-changed POST /api/admin/auth/oidc/settings callback onChange {$request.query.hook}',
      'theirs request-type-changed POST /api/admin/auth/oidc/settings callback onChange {$request.query.hook}',
    ]);
    expect(code).toBe(1);
  });

  it('refuses bad usage and unreadable documents with exit 2', async () => {
    expect((await cli(['spec', 'compare', OURS], { cwd: ROOT })).stderr).toContain('expected OURS and THEIRS (a file, or - for stdin), got 1 argument(s)');
    expect((await cli(['spec', 'compare', '-', '-'], { cwd: ROOT })).code).toBe(2);
    expect(await cli(['spec', 'compare', OURS, 'nowhere.json'], { cwd: ROOT })).toMatchObject({ code: 2, stderr: 'flag-admin spec compare: nowhere.json: cannot read it (ENOENT)\n' });
    const swagger = await cli(['spec', 'compare', OURS, '-'], { cwd: ROOT, stdin: '{"swagger": "2.0", "paths": {}}' });
    expect(swagger).toMatchObject({ code: 2, stderr: expect.stringMatching(/^flag-admin spec compare: <stdin>:1:13 #\/swagger: expected an OpenAPI 3\.0\.x or 3\.1\.x document, got Swagger "2\.0"/) });
  });
});
