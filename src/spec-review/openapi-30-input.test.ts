import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyEdits, cli, FIXTURES, readYaml, writeSpecs } from './__fixtures__/spec-cli.ts';

const PETS_30 = join(FIXTURES, 'openapi-30', 'pets-3.0.yaml');
const PETS_31 = join(FIXTURES, 'openapi-30', 'pets-3.1.yaml');

interface Side {
  file: string;
  pointer: string;
  line: number;
}

const lineOf = (side: Side) => readFileSync(side.file, 'utf8').split('\n')[side.line - 1];

async function diffJson(oldFile: string, newFile: string) {
  const { code, stdout, stderr } = await cli(['spec', 'diff', oldFile, newFile, '--format', 'json']);
  expect(stderr).toBe('');
  return { code, report: JSON.parse(stdout) as { openapi: { old: string; new: string }; changes: { ruleId: string; old: Side; new: Side }[] } };
}

async function lintJson(file: string, ...flags: string[]) {
  const { code, stdout, stderr } = await cli(['spec', 'lint', file, '--format', 'json', ...flags]);
  expect(stderr).toBe('');
  return { code, result: JSON.parse(stdout) as { profile: string; messages: { ruleId: string; severity: string; file: string; line: number; message: string }[] } };
}

describe('OpenAPI 3.0 documents in spec review', () => {
  it('lints a 3.0 document in its own terms: nullable and boolean exclusive bounds are structure, not errors', async () => {
    const { code, result } = await lintJson(PETS_30);
    expect(result.messages.filter((m) => m.severity === 'error')).toEqual([]);
    expect(code).toBe(0);
  });

  it('reports 3.1 keywords in a 3.0 document as structure errors at their line', async () => {
    const document = applyEdits(readYaml(PETS_30), { set: { '/components/schemas/NewPet/properties/tag/type': ['string', 'null'] } });
    const { spec } = writeSpecs({ spec: document });
    const { code, result } = await lintJson(spec!);
    const structure = result.messages.filter((m) => m.ruleId === 'spec-structure');
    expect(structure).toHaveLength(1);
    expect(structure[0]!.message).toMatch(/^expected "type" of the Schema Object to be one of "array", "boolean", "integer", "number", "object", "string", got an array of 2$/);
    expect(readFileSync(spec!, 'utf8').split('\n')[structure[0]!.line - 1]).toContain('type:');
    expect(code).toBe(1);
  });

  it('reads a 3.0 schema with extensions and unknown formats as valid, and a pattern that is no regular expression as a structure error', async () => {
    const base = applyEdits(readYaml(PETS_30), { set: { '/components/schemas/Pet/allOf/1/properties/id/x-go-type': 'int64', '/components/schemas/Pet/allOf/1/properties/id/format': 'snowflake' } });
    const broken = applyEdits(base, { set: { '/components/schemas/Pet/allOf/1/properties/owner/properties/name/pattern': '([a-z' } });
    const { spec, bad } = writeSpecs({ spec: base, bad: broken });
    expect((await lintJson(spec!)).code).toBe(0);
    const { result } = await lintJson(bad!);
    const structure = result.messages.filter((m) => m.ruleId === 'spec-structure');
    expect(structure.map((m) => m.message)).toEqual([expect.stringMatching(/^expected a regular expression \(ECMA-262\) in "pattern" of the Schema Object, got the string "\(\[a-z": /)]);
  });

  it('accepts what OAS 3.1 allows and its bundled schema refuses: scheme Bearer (RFC 9110 §11.1), a license with a name only', async () => {
    const { spec } = writeSpecs({ spec: applyEdits(readYaml(PETS_31), { set: { '/info/license': { name: 'Proprietary' } } }) });
    const { result } = await lintJson(spec!, '--profile', 'kit');
    expect(readYaml(PETS_31)).toMatchObject({ components: { securitySchemes: { bearer: { scheme: 'Bearer' } } } });
    expect(result.messages.filter((m) => m.ruleId === 'spec-structure')).toEqual([]);
    const both = writeSpecs({ spec: applyEdits(readYaml(PETS_31), { set: { '/info/license': { name: 'MIT', identifier: 'MIT', url: 'https://opensource.org/licenses/MIT' } } }) });
    expect((await lintJson(both.spec!)).result.messages.filter((m) => m.ruleId === 'spec-structure')).toHaveLength(1);
    const lower = writeSpecs({ spec: applyEdits(readYaml(PETS_31), { set: { '/components/securitySchemes/bearer/scheme': 'bearer' } }) });
    expect((await diffJson(PETS_31, lower.spec!)).report.changes).toEqual([]);
  });

  it('bundles a 3.0 document as 3.0 and lists its decisions', async () => {
    const withDecision = applyEdits(readYaml(PETS_30), { set: { '/info/x-decisions': [{ id: 'tag-nullable', apiSection: '§1', openPoint: 'Whether a tag may be null: not shown.', decision: 'It may.' }] } });
    const { spec } = writeSpecs({ spec: withDecision });
    const bundled = await cli(['spec', 'bundle', spec!]);
    expect(bundled.code).toBe(0);
    expect(parse(bundled.stdout)).toMatchObject({ openapi: '3.0.3', components: { schemas: { NewPet: { properties: { tag: { nullable: true } } } } } });
    const decisions = await cli(['spec', 'decisions', spec!]);
    expect(decisions).toMatchObject({ code: 0, stdout: expect.stringContaining('| §1 | Whether a tag may be null: not shown. | It may. | `info` |') });
  });

  it('diffs a 3.0 and a 3.1 edition of one API as equal, and says it read both as 3.1', async () => {
    const { code, report } = await diffJson(PETS_30, PETS_31);
    expect(report.changes).toEqual([]);
    expect(report.openapi).toEqual({ old: '3.0.3', new: '3.1.0' });
    expect(code).toBe(0);
    // A schema example written the 3.1 way (examples: [v]) is the same example.
    const { 'examples.yaml': examples } = writeSpecs({ 'examples.yaml': applyEdits(readYaml(PETS_31), { remove: ['/components/schemas/NewPet/properties/name/example'], set: { '/components/schemas/NewPet/properties/name/examples': ['Rex'] } }) });
    expect((await diffJson(PETS_30, examples!)).report.changes).toEqual([]);
    const text = await cli(['spec', 'diff', PETS_31, PETS_30]);
    expect(text.stdout).toBe(`Verdict: no changes — ${PETS_31} → ${PETS_30} (OpenAPI 3.1.0 → 3.0.3, both read as 3.1)\n`);
  });

  it('reports only the real changes between a 3.0 and a 3.1 edition, each at its place in the file written', async () => {
    const planted = applyEdits(readYaml(PETS_31), {
      set: {
        // The owner may no longer be null; the pet id must now be at least 2.
        '/components/schemas/Pet/allOf/1/properties/owner/type': 'object',
        '/paths/~1pets~1{petId}/get/parameters/0/schema/exclusiveMinimum': 1,
      },
    });
    const { 'new.yaml': now } = writeSpecs({ 'new.yaml': planted });
    const { report } = await diffJson(PETS_30, now!);
    expect(report.changes.map((c) => `${c.ruleId} ${c.old.pointer} → ${c.new.pointer}`).sort()).toEqual([
      'request-constraint-narrowed /paths/~1pets~1{petId}/get/parameters/0/schema/exclusiveMinimum → /paths/~1pets~1{petId}/get/parameters/0/schema/exclusiveMinimum',
      'response-type-narrowed /components/schemas/Pet/allOf/1/properties/owner/type → /components/schemas/Pet/allOf/1/properties/owner/type',
    ]);
    for (const change of report.changes) {
      // The 3.0 side is read upgraded, and still points into the 3.0 file as written.
      expect(lineOf(change.old)).toMatch(change.ruleId.startsWith('request') ? /exclusiveMinimum: true/ : /type: object/);
      expect(lineOf(change.new)).toMatch(change.ruleId.startsWith('request') ? /exclusiveMinimum: 1/ : /type: object/);
    }
  });

  it('diffs two 3.0 documents in 3.0 terms: a nullable response field that becomes non-null narrows its type', async () => {
    const { 'new.yaml': now } = writeSpecs({ 'new.yaml': applyEdits(readYaml(PETS_30), { remove: ['/components/schemas/Pet/allOf/1/properties/owner/nullable'] }) });
    const { code, report } = await diffJson(PETS_30, now!);
    expect(report.changes.map((c) => c.ruleId)).toEqual(['response-type-narrowed']);
    expect(lineOf(report.changes[0]!.old)).toContain('type: object');
    expect(code).toBe(1);
  });

  it.each([
    ['Swagger 2.0', 'swagger: "2.0"\ninfo: {title: t, version: "1"}\npaths: {}\n', '1:10 #/swagger: expected an OpenAPI 3.0.x, 3.1.x or 3.2.x document, got Swagger "2.0" (convert it to OpenAPI 3 first, e.g. with swagger2openapi)'],
    ['OpenAPI 3.3', 'openapi: 3.3.0\ninfo: {title: t, version: "1"}\npaths: {}\n', '1:10 #/openapi: expected an OpenAPI 3.0.x, 3.1.x or 3.2.x document, got "3.3.0"'],
    ['no version', 'info: {title: t, version: "1"}\npaths: {}\n', '1:1 #: expected an OpenAPI 3.0.x, 3.1.x or 3.2.x document, got no "openapi" field'],
  ])('refuses %s with exit 2 and one line, in every verb', async (_, text, error) => {
    const { spec } = writeSpecs({ spec: {} });
    writeFileSync(spec!, text);
    for (const args of [['lint', spec!], ['bundle', spec!], ['decisions', spec!], ['diff', spec!, PETS_31], ['diff', PETS_31, spec!]]) {
      const { code, stdout, stderr } = await cli(['spec', ...args]);
      expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `flag-admin spec ${args[0]}: ${spec}:${error}\n` });
    }
  });
});

describe('lint profiles', () => {
  it('holds another document to structure and Redocly\'s recommended rules only: no kit rule, no decision about spec/API.md', async () => {
    const { result } = await lintJson(PETS_30);
    expect(result.profile).toBe('recommended');
    const ours = result.messages.filter((m) => !['spec-structure'].includes(m.ruleId) && /^(operation-(auth-responses|security|operation-id|summary)|error-|response-example|decision-)/.test(m.ruleId));
    expect(ours).toEqual([]);
    expect(result.messages.some((m) => m.file.endsWith('API.md'))).toBe(false);
  });

  it('runs the kit\'s rules with --profile kit, and the decisions only with an API description at hand', async () => {
    const { code, result } = await lintJson(PETS_30, '--profile', 'kit');
    expect(result.profile).toBe('kit');
    expect(code).toBe(1);
    const rules = new Set(result.messages.map((m) => m.ruleId));
    expect([...rules]).toEqual(expect.arrayContaining(['operation-auth-responses', 'error-response-body', 'response-example-missing']));
    expect(rules.has('decision-recorded')).toBe(false);
    const { spec: description } = writeSpecs({ spec: {} });
    writeFileSync(description!, '# Pets\n\n- Whether a tag may be null: not shown.\n');
    const withDescription = await lintJson(PETS_30, '--api-description', description!);
    expect(withDescription.result.messages.filter((m) => m.ruleId === 'decision-recorded')).toEqual([expect.objectContaining({ file: expect.stringMatching(/spec$/), line: 3, message: expect.stringContaining('"Whether a tag may be null: not shown." has no decision') })]);
    expect((await cli(['spec', 'lint', PETS_30, '--profile', 'kti'])).stderr).toContain('--profile expects one of recommended, kit, got "kti" (did you mean kit?)');
  });

  it('judges a 3.0 document\'s examples by its schemas in 3.0 terms under --profile kit', async () => {
    const example = { id: 7, name: 'Rex', tag: null, weight: 0.5, owner: null };
    const at = '/paths/~1pets~1{petId}/get/responses/200/content/application~1json/example';
    const { good, bad } = writeSpecs({ good: applyEdits(readYaml(PETS_30), { set: { [at]: example } }), bad: applyEdits(readYaml(PETS_30), { set: { [at]: { ...example, name: null, weight: 0 } } }) });
    const valid = (await lintJson(good!, '--profile', 'kit')).result.messages.filter((m) => m.ruleId === 'response-example-valid');
    expect(valid).toEqual([]);
    const invalid = (await lintJson(bad!, '--profile', 'kit')).result.messages.filter((m) => m.ruleId === 'response-example-valid');
    // name is not nullable; weight 0 breaks the exclusive minimum 0 (a boolean exclusiveMinimum in 3.0).
    expect(invalid.map((m) => readFileSync(bad!, 'utf8').split('\n')[m.line - 1]!.trim()).sort()).toEqual(['name: null', 'weight: 0']);
  });

  it('holds webhook and callback operations to the operation rules, at their own lines', async () => {
    const document = applyEdits(readYaml(PETS_31), {
      set: { '/webhooks/petBorn/post': { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, responses: { '200': { description: 'Received.' } } } },
      remove: ['/paths/~1pets/post/callbacks/adopted/{$request.body#~1callbackUrl}/post/summary'],
    });
    const { spec } = writeSpecs({ spec: document });
    const { result } = await lintJson(spec!, '--profile', 'kit');
    const lines = readFileSync(spec!, 'utf8').split('\n');
    const found = result.messages.filter((m) => m.ruleId === 'operation-summary' || m.ruleId === 'operation-operation-id').map((m) => `${m.ruleId} ${m.message.split(':')[0]} ${lines[m.line - 1]!.trim()}`);
    expect(found.sort()).toEqual([
      'operation-operation-id POST webhook petBorn post:',
      'operation-summary POST callback adopted {$request.body#/callbackUrl} post:',
      'operation-summary POST webhook petBorn post:',
    ]);
    // API §5 concerns the calls the API serves: a webhook is a call it makes.
    expect(result.messages.filter((m) => m.ruleId === 'operation-auth-responses').map((m) => m.message)).not.toContainEqual(expect.stringContaining('webhook'));
  });
});
