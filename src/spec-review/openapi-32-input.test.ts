// OpenAPI 3.2 documents through every verb of `flag-admin spec`, on the targets in
// __fixtures__/openapi-32 (written before the code; its README says what each is). Held against
// Redocly CLI 2.77 finding by finding in test/real-specs/lint-openapi-32.test.ts.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits, cliInProcess as cli, FIXTURES, readYaml, writeSpecs } from './__fixtures__/spec-cli.ts';

const DIR = join(FIXTURES, 'openapi-32');
const EVERY_ADDITION = join(DIR, 'valid', 'every-addition.yaml');
const BREAKING = join(DIR, 'diff', 'every-addition-breaking.yaml');
const PETS_31 = join(FIXTURES, 'openapi-30', 'pets-3.1.yaml');
const PETS_32 = join(DIR, 'upgrade', 'pets-3.2.yaml');
const filesIn = (folder: string) => readdirSync(join(DIR, folder)).filter((f) => f.endsWith('.yaml')).map((f) => join(DIR, folder, f));

interface Message {
  ruleId: string;
  severity: string;
  pointer: string;
  line: number;
  message: string;
}

async function lint(file: string) {
  const { code, stdout, stderr } = await cli(['spec', 'lint', file, '--format', 'json']);
  expect(stderr).toBe('');
  return { code, messages: (JSON.parse(stdout) as { messages: Message[] }).messages };
}

async function diffJson(...args: string[]) {
  const { code, stdout, stderr } = await cli(['spec', 'diff', ...args, '--format', 'json']);
  expect(stderr).toBe('');
  return { code, report: JSON.parse(stdout) as { breaking: { client: number; server: number }; changes: { ruleId: string; client: string; operations: string[]; old: { pointer: string }; new: { pointer: string } }[] } };
}

/** Each invalid target: the one error it holds, by rule and JSON pointer (checked by hand against OAS 3.2.0 and Redocly CLI 2.77). */
const INVALID: Record<string, { ruleId: string; pointer: string }> = {
  'invalid/device-flow-without-url.yaml': { ruleId: 'spec-structure', pointer: '/components/securitySchemes/oauth/flows/deviceAuthorization' },
  'invalid/encoding-beside-item-encoding.yaml': { ruleId: 'spec-no-invalid-encoding-combinations', pointer: '/paths/~1items/post/requestBody/content/multipart~1mixed/encoding' },
  'invalid/example-value-and-data-value.yaml': { ruleId: 'spec-example-values', pointer: '/paths/~1items/get/responses/200/content/application~1json/examples/two/value' },
  'invalid/tag-kind-not-string.yaml': { ruleId: 'spec-structure', pointer: '/tags/0/kind' },
  'invalid/xml-node-type.yaml': { ruleId: 'spec-structure', pointer: '/paths/~1items/get/responses/200/content/application~1xml/schema/properties/name/xml/nodeType' },
  // What OAS 3.2.0 forbids and Redocly CLI 2.77 lets through: the OAI's 3.2 schema refuses each.
  'invalid-redocly-accepts/additional-operation-standard-method.yaml': { ruleId: 'spec-structure', pointer: '/paths/~1items/additionalOperations' },
  'invalid-redocly-accepts/querystring-with-schema.yaml': { ruleId: 'spec-structure', pointer: '/paths/~1items/get/parameters/0' },
  'invalid-redocly-accepts/self-with-fragment.yaml': { ruleId: 'spec-structure', pointer: '/$self' },
  'invalid-redocly-accepts/xml-node-type-beside-attribute.yaml': { ruleId: 'spec-structure', pointer: '/paths/~1items/get/responses/200/content/application~1xml/schema/properties/id/xml/attribute' },
};

describe('OpenAPI 3.2 documents in spec review', () => {
  it.each([...filesIn('valid'), PETS_32, BREAKING])('lints valid 3.2 %s with no error (each 3.2 addition is OpenAPI, not a structure fault)', async (file) => {
    const { code, messages } = await lint(file);
    expect(messages.filter((m) => m.severity === 'error')).toEqual([]);
    expect(code).toBe(0);
  });

  it('has a target for every invalid document, and each holds its one error where it is written', async () => {
    expect([...filesIn('invalid'), ...filesIn('invalid-redocly-accepts')].map((f) => f.slice(DIR.length + 1)).sort()).toEqual(Object.keys(INVALID).sort());
    for (const [name, expected] of Object.entries(INVALID)) {
      const { code, messages } = await lint(join(DIR, name));
      expect(messages.filter((m) => m.severity === 'error').map((m) => ({ ruleId: m.ruleId, pointer: m.pointer })), name).toEqual([expected]);
      expect(code, name).toBe(1);
    }
  });

  it('names the 3.2 object and field at fault, not Ajv\'s words', async () => {
    const messages = async (name: string) => (await lint(join(DIR, name))).messages.filter((m) => m.ruleId === 'spec-structure').map((m) => m.message);
    expect(await messages('invalid/tag-kind-not-string.yaml')).toEqual(['expected "kind" of the Tag Object to be a string, got an array of 1']);
    expect(await messages('invalid-redocly-accepts/querystring-with-schema.yaml')).toEqual(['expected the Parameter Object to have its required field "content", got none']);
    expect((await messages('invalid/xml-node-type.yaml'))[0]).toMatch(/^expected "nodeType" of the XML Object to be one of "element", "attribute", "text", "cdata", "none", got the string "comment"$/);
    expect(await messages('invalid-redocly-accepts/xml-node-type-beside-attribute.yaml')).toEqual(['expected no "attribute" of the XML Object beside "nodeType", as the specification says, got the boolean true']);
  });

  it('checks the Schema Objects 3.2 adds as Schema Objects: an itemSchema\'s pattern must be a regular expression, its discriminator only the OAS fields', async () => {
    const document = readYaml(EVERY_ADDITION);
    const broken = applyEdits(document, {
      set: {
        '/paths/~1notes~1events/get/responses/200/content/text~1event-stream/itemSchema/properties/id/pattern': '([a-z',
        '/paths/~1notes/additionalOperations/LINK/parameters/0/schema/discriminator': { propertyName: 'kind', fallback: 'x' },
      },
    });
    const { spec } = writeSpecs({ spec: broken });
    const structure = (await lint(spec!)).messages.filter((m) => m.ruleId === 'spec-structure');
    expect(structure.map((m) => m.pointer).sort()).toEqual([
      '/paths/~1notes/additionalOperations/LINK/parameters/0/schema/discriminator/fallback',
      '/paths/~1notes~1events/get/responses/200/content/text~1event-stream/itemSchema/properties/id/pattern',
    ]);
  });

  it('reports a 3.1 → 3.2 upgrade of the same API as no breaking change, read as 3.2', async () => {
    const { code, report } = await diffJson(PETS_31, PETS_32);
    expect(report.breaking).toEqual({ client: 0, server: 0 });
    expect(report.changes.map((c) => c.ruleId)).toEqual(['documentation-changed', 'documentation-changed', 'documentation-changed', 'documentation-changed']);
    expect(code).toBe(0);
    const text = await cli(['spec', 'diff', PETS_31, PETS_32]);
    expect(text.stdout.split('\n')[0]).toBe(`Verdict: not breaking for clients, not for servers — ${PETS_31} → ${PETS_32} (OpenAPI 3.1.0 → 3.2.0, both read as 3.2): 4 changes`);
  });

  it('diffs operations under query and additionalOperations by method and path, and itemSchema bodies as schema ones', async () => {
    const { code, report } = await diffJson(EVERY_ADDITION, BREAKING);
    const breaking = report.changes.filter((c) => c.client === 'breaking').map((c) => ({ ruleId: c.ruleId, operations: c.operations, old: c.old.pointer, new: c.new.pointer }));
    expect(breaking).toEqual([
      { ruleId: 'response-type-changed', operations: ['GET /notes/events'], old: '/paths/~1notes~1events/get/responses/200/content/text~1event-stream/itemSchema/properties/event/type', new: '/paths/~1notes~1events/get/responses/200/content/text~1event-stream/itemSchema/properties/event/type' },
      { ruleId: 'operation-removed', operations: ['LINK /notes'], old: '/paths/~1notes/additionalOperations/LINK', new: '/paths' },
      { ruleId: 'request-required-added', operations: ['POST /notes/batch'], old: '/components/schemas/Note/required', new: '/paths/~1notes~1batch/post/requestBody/content/multipart~1mixed/itemSchema/required' },
      { ruleId: 'request-required-added', operations: ['QUERY /notes'], old: '/components/schemas/NoteQuery/required', new: '/components/schemas/NoteQuery/required' },
    ]);
    expect(code).toBe(1);
    // The other way round, the LINK operation is one NEW adds.
    const back = await diffJson(BREAKING, EVERY_ADDITION);
    expect(back.report.changes.filter((c) => c.ruleId === 'operation-added').map((c) => c.new.pointer)).toEqual(['/paths/~1notes/additionalOperations/LINK']);
  });

  it('reports an item schema gained or lost, and an itemEncoding changed, in a streamed body', async () => {
    const document = readYaml(EVERY_ADDITION);
    const changed = applyEdits(document, {
      remove: ['/paths/~1notes/query/responses/200/content/application~1jsonl/itemSchema'],
      set: { '/paths/~1notes~1batch/post/requestBody/content/multipart~1mixed/itemEncoding/contentType': 'application/cbor' },
    });
    const { spec } = writeSpecs({ spec: changed });
    const { report } = await diffJson(EVERY_ADDITION, spec!);
    // The item schema was a $ref: OLD's side is where the schema is written.
    expect(report.changes.map((c) => [c.ruleId, c.old.pointer, c.new.pointer])).toEqual([
      ['response-schema-removed', '/components/schemas/Note', '/paths/~1notes/query/responses/200/content/application~1jsonl'],
      ['request-format-changed', '/paths/~1notes~1batch/post/requestBody/content/multipart~1mixed/itemEncoding', '/paths/~1notes~1batch/post/requestBody/content/multipart~1mixed/itemEncoding'],
    ]);
  });

  it('pairs an operation\'s querystring parameter whatever its name (the name is sent nowhere), and compares its content\'s schema', async () => {
    const renamed = applyEdits(readYaml(EVERY_ADDITION), { set: { '/paths/~1notes~1search/get/parameters/0/name': 'search' } });
    const tightened = applyEdits(renamed, { set: { '/paths/~1notes~1search/get/parameters/0/content/application~1x-www-form-urlencoded/schema/required': ['text'] } });
    const { renamedSpec, tightenedSpec } = writeSpecs({ renamedSpec: renamed, tightenedSpec: tightened });
    const rename = await diffJson(EVERY_ADDITION, renamedSpec!);
    expect(rename.report.breaking).toEqual({ client: 0, server: 0 });
    expect(rename.report.changes.map((c) => [c.ruleId, c.client])).toEqual([['parameter-renamed', 'info']]);
    const tighten = await diffJson(EVERY_ADDITION, tightenedSpec!);
    expect(tighten.report.changes.filter((c) => c.client === 'breaking').map((c) => [c.ruleId, c.new.pointer])).toEqual([
      ['request-required-added', '/paths/~1notes~1search/get/parameters/0/content/application~1x-www-form-urlencoded/schema/required'],
    ]);
  });

  it('compares 3.2 documents, pairing QUERY and LINK operations by method and path', async () => {
    const { code, stdout, stderr } = await cli(['spec', 'compare', EVERY_ADDITION, BREAKING, '--operations', 'ours', '--format', 'json']);
    expect(stderr).toBe('');
    const result = JSON.parse(stdout) as { pairs: { ours: string; theirs: string; by: string }[]; unmatched: string[]; findings: { ruleId: string; client: string; operations: string[] }[] };
    expect(result.pairs).toContainEqual({ ours: 'QUERY /notes', theirs: 'QUERY /notes', by: 'path' });
    expect(result.unmatched).toEqual(['LINK /notes']);
    expect(result.findings).toContainEqual(expect.objectContaining({ ruleId: 'request-required-added', client: 'ours', operations: ['QUERY /notes'] }));
    expect(code).toBe(1);
    // With itself, LINK pairs with LINK (under additionalOperations on both sides) and nothing breaks.
    const self = JSON.parse((await cli(['spec', 'compare', EVERY_ADDITION, EVERY_ADDITION, '--format', 'json'])).stdout) as { pairs: { ours: string }[]; findings: unknown[] };
    expect(self.pairs.map((p) => p.ours)).toContain('LINK /notes');
    expect(self.findings).toEqual([]);
  });

  it('bundles a 3.2 document split over files, its 3.2 fields kept, and diffs the bundle as no change', async () => {
    const files = writeSpecs({ 'note.yaml': (readYaml(EVERY_ADDITION) as { components: { schemas: Record<string, unknown> } }).components.schemas.Note });
    const split = applyEdits(readYaml(EVERY_ADDITION), { set: { '/components/schemas/Note': { $ref: files['note.yaml'] } } });
    const { spec } = writeSpecs({ spec: split });
    for (const flags of [[], ['--dereference']]) {
      const { code, stdout, stderr } = await cli(['spec', 'bundle', spec!, '--format', 'json', ...flags]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const bundled = JSON.parse(stdout);
      expect(bundled.openapi).toBe('3.2.0');
      expect(bundled.paths['/notes'].additionalOperations.LINK.operationId).toBe('linkNotes');
      expect(stdout).not.toContain('note.yaml');
      const { spec: out } = writeSpecs({ spec: bundled });
      expect((await diffJson(EVERY_ADDITION, out!)).report.changes).toEqual([]);
    }
  });

  it('lists the decisions recorded in a 3.2 document, under a QUERY operation too', async () => {
    const decision = { id: 'search-in-body', apiSection: '§1', openPoint: 'how a search is sent', decision: 'QUERY, the query in the request body' };
    const withDecision = applyEdits(readYaml(EVERY_ADDITION), { set: { '/paths/~1notes/query/x-decisions': [decision] } });
    const { spec } = writeSpecs({ spec: withDecision });
    const { code, stdout, stderr } = await cli(['spec', 'decisions', spec!, '--format', 'json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.stringify(JSON.parse(stdout))).toContain('"pointer":"/paths/~1notes/query"');
    expect(stdout).toContain('QUERY, the query in the request body');
  });
});
