import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits, cli, cliInProcess, FIXTURES, readYaml, writeSpecs, type Edits } from '../__fixtures__/spec-cli.ts';
import { DIFF_RULES } from './diff-rules.ts';

interface Case {
  rule: string;
  why?: string;
  client: string;
  server: string;
  old?: Edits;
  new?: Edits;
}

const BASE_FILE = join(FIXTURES, 'diff', 'base.yaml');
const BASE = readYaml(BASE_FILE);
const CASES = readYaml(join(FIXTURES, 'diff', 'changes.yaml')) as Case[];

/**
 * Runs `flag-admin spec diff` on a pair built from base.yaml, in this process through the CLI's
 * `main()` (the child-process tests below cover the binary); returns exit code and the JSON report.
 */
async function diffCase(c: Case) {
  const files = writeSpecs({ 'old.yaml': applyEdits(BASE, c.old), 'new.yaml': applyEdits(BASE, c.new) });
  const { code, stdout, stderr } = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--format', 'json', '--as-of', '2026-01-01']);
  expect(stderr).toBe('');
  return { code, report: JSON.parse(stdout) as { changes: { ruleId: string; client: string; server: string; old: { pointer: string; line: number }; new: { pointer: string; line: number } }[] } };
}

describe('flag-admin spec diff', () => {
  it('has a fixture pair for every rule', () => {
    expect([...new Set(CASES.map((c) => c.rule))].sort()).toEqual(Object.keys(DIFF_RULES).sort());
  });

  it.each(CASES)('classifies $rule for clients ($client) and servers ($server): $why', async (c) => {
    const { code, report } = await diffCase(c);
    expect(report.changes.map((change) => change.ruleId)).toEqual([c.rule]);
    const [change] = report.changes;
    expect({ client: change!.client, server: change!.server }).toEqual({ client: c.client, server: c.server });
    expect(change!.old.line).toBeGreaterThan(0);
    expect(change!.new.line).toBeGreaterThan(0);
    expect(code).toBe(c.client === 'breaking' || c.server === 'breaking' ? 1 : 0);
  });

  it('reports a change in a shared schema once, at its authored pointer, listing every operation it reaches', async () => {
    const base = applyEdits(BASE, { set: { '/paths/~1pets/post/responses/404': { description: 'No owner.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } } });
    const files = writeSpecs({ 'old.yaml': base, 'new.yaml': applyEdits(base, { remove: ['/components/schemas/Error/properties/message'] }) });
    const { stdout } = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--format', 'json']);
    const { changes } = JSON.parse(stdout);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ ruleId: 'response-property-removed', operations: ['GET /pets/{petId}', 'POST /pets'], old: { pointer: '/components/schemas/Error/properties/message' }, new: { pointer: '/components/schemas/Error/properties' } });
  });

  it('compares a recursive schema to its end, reporting a change inside it once', async () => {
    const recursive = applyEdits(BASE, { set: { '/components/schemas/Pet/properties/parent': { $ref: '#/components/schemas/Pet' } } });
    const files = writeSpecs({
      'old.yaml': recursive,
      'new.yaml': applyEdits(recursive, { set: { '/components/schemas/Pet/properties/kind/enum': ['cat', 'dog', 'bird'] }, remove: ['/components/schemas/Pet/properties/born'] }),
    });
    const { code, stdout } = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--format', 'json']);
    expect(JSON.parse(stdout).changes.map((c: { ruleId: string; old: { pointer: string } }) => `${c.ruleId} ${c.old.pointer}`)).toEqual([
      'response-enum-widened /components/schemas/Pet/properties/kind/enum',
      'response-optional-property-removed /components/schemas/Pet/properties/born',
    ]);
    expect(code).toBe(1);
  });

  it('fails only for the audience --fail-on names', async () => {
    const c = CASES.find((k) => k.rule === 'response-enum-widened')!; // breaking for clients, info for servers
    const files = writeSpecs({ 'old.yaml': applyEdits(BASE, c.old), 'new.yaml': applyEdits(BASE, c.new) });
    const exitWith = async (failOn: string) => (await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--fail-on', failOn])).code;
    expect([await exitWith('clients'), await exitWith('servers'), await exitWith('any'), await exitWith('none')]).toEqual([1, 0, 1, 0]);
  });

  it('finds nothing between a spec and itself', async () => {
    const { code, stdout, stderr } = await cli(['spec', 'diff', BASE_FILE, BASE_FILE]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^Verdict: no changes — \S*base\.yaml → \S*base\.yaml\n$/);
  });

  it('finds nothing in the same spec reformatted: JSON, keys reordered, sets reordered, a $ref inlined', async () => {
    const { code, stdout } = await cliInProcess(['spec', 'diff', BASE_FILE, join(FIXTURES, 'diff', 'reformatted.json'), '--format', 'json']);
    expect(JSON.parse(stdout).changes).toEqual([]);
    expect(code).toBe(0);
  });

  it('finds nothing where only order or spelling differs: oneOf and anyOf branches reordered, an HTTP scheme name cased, a default written out, const as a one-value enum, a media type with parameters', async () => {
    const cat = { type: 'object', properties: { kind: { const: 'cat' }, lives: { type: 'integer' } } };
    const dog = { type: 'object', properties: { kind: { const: 'dog' }, good: { type: 'boolean' } } };
    const old = applyEdits(BASE, {
      set: {
        '/components/schemas/Pet/properties/friend': { oneOf: [{ $ref: '#/components/schemas/Error' }, cat, dog] },
        '/components/schemas/NewPet/properties/toy': { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        '/components/schemas/NewPet/properties/mood': { const: 'calm' },
        '/components/securitySchemes/bearer': { type: 'http', scheme: 'bearer' },
        '/paths/~1pets/post/security': [{ bearer: [] }],
      },
    });
    const now = applyEdits(old, {
      set: {
        '/components/schemas/Pet/properties/friend': { oneOf: [dog, cat, { $ref: '#/components/schemas/Error' }] },
        '/components/schemas/NewPet/properties/toy': { anyOf: [{ type: 'integer' }, { type: 'string' }] },
        '/components/schemas/NewPet/properties/mood': { enum: ['calm'] },
        '/components/securitySchemes/bearer/scheme': 'Bearer',
        '/paths/~1pets/post/requestBody/content': { 'Application/JSON; charset=utf-8': { schema: { $ref: '#/components/schemas/NewPet' } } },
        '/components/schemas/Pet/properties/name/minLength': 0,
        '/components/schemas/Pet/additionalProperties': true,
        '/components/schemas/NewPet/properties/color/items': {},
        '/components/schemas/NewPet/properties/kind/enum': ['cat', 'dog'],
        '/components/schemas/Pet/properties/kind': { type: 'string', enum: ['cat', 'dog'], minItems: 0 },
        '/paths/~1pets~1{petId}/get/parameters/1/style': 'form',
        '/paths/~1pets~1{petId}/get/parameters/1/explode': true,
      },
    });
    const files = writeSpecs({ 'old.yaml': old, 'new.yaml': now });
    const { code, stdout } = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--format', 'json']);
    expect(JSON.parse(stdout).changes).toEqual([]);
    expect(code).toBe(0);
  });

  it('finds nothing where a declaration only moves: global security into each operation, a path-level parameter into its operation, parameters reordered, no security written as [{}]', async () => {
    const parameters = (BASE as { paths: Record<string, { get: { parameters: unknown[] } }> }).paths['/pets/{petId}']!.get.parameters;
    const old = applyEdits(BASE, { remove: ['/paths/~1pets~1{petId}/get/parameters/0'], set: { '/paths/~1pets~1{petId}/parameters': [parameters[0]], '/paths/~1owners': { get: { security: [], responses: { '200': { description: 'Owners.' } } } } } });
    const now = applyEdits(BASE, {
      remove: ['/security'],
      set: {
        '/paths/~1pets~1{petId}/get/parameters': [2, 0, 1].map((i) => parameters[i]),
        '/paths/~1pets~1{petId}/get/security': [{ apiKey: [] }],
        '/paths/~1pets/post/security': [{ apiKey: [] }],
        '/paths/~1owners': { get: { security: [{}], responses: { '200': { description: 'Owners.' } } } },
      },
    });
    const files = writeSpecs({ 'old.yaml': old, 'new.yaml': now });
    const { code, stdout } = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--format', 'json']);
    expect(JSON.parse(stdout).changes).toEqual([]);
    expect(code).toBe(0);
  });

  it('finds nothing in a request where only readOnly properties change (never sent), nor in a response where only writeOnly ones do', async () => {
    const old = applyEdits(BASE, {
      set: { '/components/schemas/NewPet/properties/id': { type: 'string', enum: ['a', 'b'], readOnly: true }, '/components/schemas/Pet/properties/secret': { type: 'string', writeOnly: true } },
    });
    const now = applyEdits(old, {
      set: {
        '/components/schemas/NewPet/properties/id/enum': ['a'],
        '/components/schemas/NewPet/required': ['name', 'id'],
        '/components/schemas/Pet/properties/secret/maxLength': 10,
        '/components/schemas/Pet/required': ['id', 'name', 'secret'],
      },
    });
    const files = writeSpecs({ 'old.yaml': old, 'new.yaml': now });
    const { code, stdout } = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--format', 'json']);
    expect(JSON.parse(stdout).changes).toEqual([]);
    expect(code).toBe(0);
  });

  it('pairs a changed oneOf branch by its $ref wherever it moves, and reports the change inside it', async () => {
    const old = applyEdits(BASE, { set: { '/components/schemas/Pet/properties/owner': { oneOf: [{ $ref: '#/components/schemas/Error' }, { type: 'string' }] } } });
    const now = applyEdits(old, {
      set: { '/components/schemas/Pet/properties/owner': { oneOf: [{ type: 'string' }, { $ref: '#/components/schemas/Error' }] }, '/components/schemas/Error/properties/code': { type: 'integer' } },
    });
    const files = writeSpecs({ 'old.yaml': old, 'new.yaml': now });
    const { stdout } = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--format', 'json']);
    expect(JSON.parse(stdout).changes.map((c: { ruleId: string; new: { pointer: string } }) => `${c.ruleId} ${c.new.pointer}`)).toEqual(['response-property-added /components/schemas/Error/properties/code']);
  });

  it('judges a sunset date against --as-of, and refuses a date it cannot read', async () => {
    const c = CASES.find((k) => k.rule === 'operation-removed-after-sunset')!;
    const files = writeSpecs({ 'old.yaml': applyEdits(BASE, c.old), 'new.yaml': applyEdits(BASE, c.new) });
    const ruleAsOf = async (day: string) => JSON.parse((await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--format', 'json', '--as-of', day])).stdout).changes[0].ruleId;
    expect([await ruleAsOf('2020-06-29'), await ruleAsOf('2020-06-30')]).toEqual(['operation-removed', 'operation-removed-after-sunset']);
    const bad = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--as-of', 'tomorrow']);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('--as-of expects a date (YYYY-MM-DD), got "tomorrow"') });
  });

  it('reads OLD from stdin given -, as `git show main:spec/openapi.yaml | flag-admin spec diff - spec/openapi.yaml`', async () => {
    const committed = execFileSync('git', ['show', 'HEAD:spec/openapi.yaml'], { encoding: 'utf8' });
    const { code, stdout } = await cli(['spec', 'diff', '-', 'spec/openapi.yaml'], { stdin: committed, cwd: join(FIXTURES, '..', '..', '..') });
    expect(stdout).toMatch(/^Verdict: .* — <stdin> → spec\/openapi\.yaml/m);
    expect(code).toBeLessThan(2);
  });

  it('renders text and markdown with both sides at file:line:column and the severities', async () => {
    const c = CASES.find((k) => k.rule === 'response-enum-widened')!;
    const files = writeSpecs({ 'old.yaml': applyEdits(BASE, c.old), 'new.yaml': applyEdits(BASE, c.new) });
    const text = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!]);
    expect(text.stdout).toMatch(/^BREAKING {2}response-enum-widened {2}\(clients: breaking, servers: info\)$/m);
    expect(text.stdout).toMatch(/^ {2}old: .*old\.yaml:\d+:\d+ #\/components\/schemas\/Pet\/properties\/kind\/enum$/m);
    expect(text.stdout.split('\n')[0]).toMatch(/^Verdict: breaking for clients \(1 change\), not for servers — /);
    expect(text.stdout).toContain('  instances: NEW accepts "bird", OLD refuses it');
    const markdown = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--format', 'markdown']);
    expect(markdown.stdout).toMatch(/^\| breaking \| `response-enum-widened` \| breaking \| info \| enum values added: "bird" \(NEW accepts "bird", OLD refuses it\) \| GET \/pets\/\{petId\} \|/m);
    expect(markdown.code).toBe(1);
  });

  it('names a changed numeric bound as the bound, with the keyword and value on each side', async () => {
    const at = '/components/schemas/Pet/properties/id';
    const files = writeSpecs({ 'old.yaml': applyEdits(BASE, { set: { [`${at}/maximum`]: 10 } }), 'new.yaml': applyEdits(BASE, { set: { [`${at}/exclusiveMaximum`]: 10 } }) });
    const { stdout } = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!]);
    expect(stdout).toContain('\n  upper bound maximum 10 → exclusiveMaximum 10\n');
  });

  it('refuses bad usage with exit 2: one file, two stdins, an unknown format, an unreadable, unparsable or invalid spec', async () => {
    expect((await cliInProcess(['spec', 'diff', BASE_FILE])).stderr).toContain('expected OLD and NEW');
    expect((await cliInProcess(['spec', 'diff', '-', '-'])).code).toBe(2);
    expect((await cliInProcess(['spec', 'diff', BASE_FILE, BASE_FILE, '--format', 'mardown'])).stderr).toContain('(did you mean markdown?)');
    const missing = await cliInProcess(['spec', 'diff', BASE_FILE, 'nowhere.yaml']);
    expect(missing).toMatchObject({ code: 2, stderr: 'flag-admin spec diff: nowhere.yaml: cannot read it (ENOENT)\n' });
    const invalid = await cli(['spec', 'diff', BASE_FILE, '-'], { stdin: 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {/a: {get: {responses: 7}}}\n' });
    expect(invalid).toMatchObject({ code: 2, stderr: 'flag-admin spec diff: <stdin>:3:31 #/paths/~1a/get/responses: expected an object, got 7\n' });
    const swagger = await cli(['spec', 'diff', BASE_FILE, '-'], { stdin: 'swagger: "2.0"\n' });
    expect(swagger.stderr).toBe('flag-admin spec diff: <stdin>:1:10 #/swagger: expected an OpenAPI 3.0.x or 3.1.x document, got Swagger "2.0" (convert it to OpenAPI 3 first, e.g. with swagger2openapi)\n');
    const broken = await cli(['spec', 'diff', '-', BASE_FILE], { stdin: 'openapi: [3.1\n' });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/<stdin>:\d+:\d+: expected a YAML or JSON document/);
  });
});

describe('flag-admin spec diff across files', () => {
  // A spec split over files: the schemas live in schemas.yaml, the paths $ref them by file.
  const schemas = (tag: object, maxItems: number) => ({
    Pet: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, tag } },
    Pets: { type: 'array', maxItems, items: { $ref: '#/Pet' } },
  });
  const api = {
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1' },
    paths: {
      '/pets': {
        get: { operationId: 'listPets', responses: { 200: { description: 'Pets.', content: { 'application/json': { schema: { $ref: 'schemas.yaml#/Pets' } } } } } },
        post: { operationId: 'addPet', requestBody: { content: { 'application/json': { schema: { $ref: 'schemas.yaml#/Pet' } } } }, responses: { 201: { description: 'Added.' } } },
      },
    },
  };

  it('reports a change inside another file at its place in that file, once for every operation it reaches', async () => {
    const old = writeSpecs({ 'api.yaml': api, 'schemas.yaml': schemas({ type: 'string', nullable: true }, 100) });
    const now = writeSpecs({ 'api.yaml': api, 'schemas.yaml': schemas({ type: 'string' }, 50) });
    const { code, stdout } = await cliInProcess(['spec', 'diff', old['api.yaml']!, now['api.yaml']!, '--format', 'json']);
    const { changes } = JSON.parse(stdout) as { changes: { ruleId: string; operations: string[]; old: { file: string; pointer: string; line: number }; new: { file: string; pointer: string; line: number } }[] };
    const lineOf = (side: { file: string; line: number }) => readFileSync(side.file, 'utf8').split('\n')[side.line - 1]!;
    const maxItems = changes.find((c) => c.ruleId === 'response-constraint-narrowed')!;
    expect(maxItems.old).toMatchObject({ file: old['schemas.yaml'], pointer: '/Pets/maxItems' });
    expect(lineOf(maxItems.old)).toMatch(/^\s+maxItems: 100$/);
    expect(lineOf(maxItems.new)).toMatch(/^\s+maxItems: 50$/);
    const nullable = changes.filter((c) => c.ruleId.endsWith('-type-narrowed'));
    expect(nullable.map((c) => [c.ruleId, c.old.file, c.old.pointer, c.operations])).toEqual([
      ['request-type-narrowed', old['schemas.yaml'], '/Pet/properties/tag/type', ['POST /pets']],
      ['response-type-narrowed', old['schemas.yaml'], '/Pet/properties/tag/type', ['GET /pets']],
    ]);
    expect(lineOf(nullable[0]!.new)).toMatch(/^\s+type: string$/);
    expect(code).toBe(1);
  });

  it('refuses a $ref that does not resolve with exit 2, naming the $ref where it is written, in the spec or in a file it refers to', async () => {
    const good = writeSpecs({ 'api.yaml': api, 'schemas.yaml': schemas({ type: 'string' }, 1) });
    const broken = writeSpecs({
      'local.yaml': applyEdits(api, { set: { '/paths/~1pets/get/responses/200/content/application~1json/schema': { $ref: '#/components/schemas/Pets' } } }),
      'api.yaml': applyEdits(api, { set: { '/paths/~1pets/get/responses/200/content/application~1json/schema': { $ref: 'schemas.yaml#/Petz' } } }),
      'nested.yaml': api,
      'schemas.yaml': { ...schemas({ type: 'string' }, 1), Pets: { type: 'array', items: { $ref: 'gone.yaml#/Pet' } } },
    });
    const refused = async (file: string) => {
      const { code, stderr } = await cliInProcess(['spec', 'diff', good['api.yaml']!, file]);
      expect(code).toBe(2);
      return stderr;
    };
    const lineOf = (file: string, line: number) => readFileSync(file, 'utf8').split('\n')[line - 1]!;
    const cases: [string, string, string, string][] = [
      [broken['local.yaml']!, broken['local.yaml']!, '/paths/~1pets/get/responses/200/content/application~1json/schema/$ref', '"#/components/schemas/Pets"'],
      [broken['api.yaml']!, broken['api.yaml']!, '/paths/~1pets/get/responses/200/content/application~1json/schema/$ref', '"schemas.yaml#/Petz"'],
      [broken['nested.yaml']!, broken['schemas.yaml']!, '/Pets/items/$ref', '"gone.yaml#/Pet"'],
    ];
    for (const [spec, where, pointer, ref] of cases) {
      const stderr = await refused(spec);
      const [, file, line] = /^flag-admin spec diff: (.+):(\d+):\d+ #(\S+): expected \$ref (\S+) to resolve, got .+\n$/.exec(stderr) ?? [];
      expect(stderr).toContain(`#${pointer}: expected $ref ${ref} to resolve`);
      expect(file).toBe(where);
      expect(lineOf(where, Number(line))).toContain(JSON.parse(ref));
    }
  });
});
