import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES, writeSpecs } from './__fixtures__/spec-cli.ts';

interface Message {
  ruleId: string;
  severity: string;
  message: string;
  file: string;
  line: number;
  column: number;
  pointer: string;
}

/** The structure messages of `flag-admin spec lint FILE`, run as a user runs it. */
async function structureOf(file: string): Promise<Message[]> {
  const { stdout, stderr } = await cli(['spec', 'lint', file, '--format', 'json']);
  expect(stderr).toBe('');
  return (JSON.parse(stdout) as { messages: Message[] }).messages.filter((m) => m.ruleId === 'spec-structure');
}

const lineOf = (m: Message) => readFileSync(m.file, 'utf8').split('\n')[m.line - 1]!;

/** A small valid document whose one operation answers with `schema` (and `components.schemas` beside it). */
function documentWith(openapi: string, schema: unknown, schemas: Record<string, unknown> = {}, responses: Record<string, unknown> = {}) {
  return {
    openapi,
    info: { title: 'Pets', version: '1' },
    paths: {
      '/pets': {
        get: { operationId: 'listPets', responses: { 200: { description: 'Pets.', content: { 'application/json': { schema } } }, ...responses } },
        post: { operationId: 'addPet', responses: { 201: { description: 'Added.', content: { 'application/json': { schema } } } } },
      },
      '/pets/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: 'getPet', responses: { 200: { description: 'A pet.', content: { 'application/json': { schema } } } } },
        put: { operationId: 'putPet', responses: { 200: { description: 'A pet.', content: { 'application/json': { schema } } } } },
      },
    },
    components: { schemas },
  };
}

// Every document here is one the OpenAPI and JSON Schema specifications allow, or one they forbid
// for a reason named in the test; Redocly CLI 2.77 agrees on each (checked by hand with `redocly lint`).
describe('spec lint: structure errors are what OpenAPI and JSON Schema forbid', () => {
  it('reads a valid multi-file 3.1 document (path item in its own file, a recursive schema in a third) as its 3.0 twin: no structure error', async () => {
    expect(await structureOf(join(FIXTURES, 'lint', 'multi-file-3.0', 'openapi.yaml'))).toEqual([]);
    expect(await structureOf(join(FIXTURES, 'lint', 'multi-file-3.1', 'openapi.yaml'))).toEqual([]);
  });

  it.each(['3.1.0', '3.0.3'])('accepts (%s) a `required` naming a property the schema does not define: valid JSON Schema (2020-12 Validation §6.5.3)', async (openapi) => {
    const pet = { type: 'object', required: ['name', 'tags'], properties: { name: { type: 'string' } } };
    const { spec } = writeSpecs({ spec: documentWith(openapi, { $ref: '#/components/schemas/Pet' }, { Pet: pet }) });
    expect(await structureOf(spec!)).toEqual([]);
  });

  it('accepts a keyword JSON Schema 2020-12 does not know in a 3.1 schema (§4.3.1: unknown keywords are ignored)', async () => {
    const pet = { type: 'object', properties: { name: { type: 'string', 'minLenght': 1 } } };
    const { spec } = writeSpecs({ spec: documentWith('3.1.0', { $ref: '#/components/schemas/Pet' }, { Pet: pet }) });
    expect(await structureOf(spec!)).toEqual([]);
  });

  it('reports a pattern that is no ECMA-262 regular expression once, at the pattern, however many operations use its schema', async () => {
    const pet = { type: 'object', properties: { name: { type: 'string', pattern: '([a-z' } } };
    for (const openapi of ['3.1.0', '3.0.3']) {
      const { spec } = writeSpecs({ spec: documentWith(openapi, { $ref: '#/components/schemas/Pet' }, { Pet: pet }) });
      const found = await structureOf(spec!);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ pointer: '/components/schemas/Pet/properties/name/pattern' });
      expect(found[0]!.message).toMatch(/^expected a regular expression \(ECMA-262\)/);
      expect(lineOf(found[0]!)).toContain('pattern:');
    }
  });

  it('reports an invalid keyword value in a shared schema once, worded in the specification\'s terms, never with an internal id or Ajv\'s strict mode', async () => {
    const pet = { type: 'object', properties: { name: { type: 'string', minLength: -1 } } };
    const { spec } = writeSpecs({ spec: documentWith('3.1.0', { $ref: '#/components/schemas/Pet' }, { Pet: pet }) });
    const found = await structureOf(spec!);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ pointer: '/components/schemas/Pet/properties/name/minLength' });
    expect(found[0]!.message).toMatch(/Schema Object/);
    expect(found[0]!.message).toMatch(/minLength/);
    expect(found[0]!.message).not.toMatch(/urn:|strict mode|\$defs|Ajv/);
    expect(lineOf(found[0]!)).toContain('minLength: -1');
  });

  it('names the OpenAPI object and the field it lacks: a Response Object without its description', async () => {
    const { spec } = writeSpecs({ spec: documentWith('3.1.0', { type: 'string' }, {}, { 404: { content: { 'application/json': { schema: { type: 'string' } } } } }) });
    const found = await structureOf(spec!);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ pointer: '/paths/~1pets/get/responses/404' });
    expect(found[0]!.message).toMatch(/Response Object/);
    expect(found[0]!.message).toMatch(/description/);
    expect(lineOf(found[0]!)).toMatch(/\b404\b.*:/);
  });

  it('reports a field of the wrong type in a file the spec refers to, in that file, once', async () => {
    const dir = writeSpecs({
      'api.yaml': { openapi: '3.1.0', info: { title: 'Folders', version: '1' }, paths: { '/folders': { $ref: 'folders.yaml' } } },
      'folders.yaml': { get: { operationId: 'listFolders', deprecated: 'yes', responses: { 200: { description: 'Folders.' } } } },
    });
    const found = await structureOf(dir['api.yaml']!);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ file: dir['folders.yaml'], pointer: '/get/deprecated' });
    expect(found[0]!.message).toMatch(/Operation Object/);
    expect(lineOf(found[0]!)).toContain('deprecated: yes');
  });

  it.each(['3.0.3', '3.1.0'])('(%s) reports of the alternatives the schema offers only the one the document took, or the value that picks none', async (openapi) => {
    const { spec } = writeSpecs({
      spec: {
        openapi,
        info: { title: 'Pets', version: '1' },
        paths: {
          '/pets/{id}': {
            get: {
              parameters: [
                { name: 'id', in: 'path', schema: { type: 'string' } },
                { name: 'q', in: 'querystring', schema: { type: 'string' } },
                { name: 'h', in: 'header' },
              ],
              responses: { 200: { description: 'A pet.' } },
            },
          },
        },
        components: {
          securitySchemes: {
            key: { type: 'apiKey', name: 'X-Key', in: 'body' },
            oauth: { type: 'oauth2', flows: { implicit: { scopes: {} } } },
          },
        },
      },
    });
    const found = Object.fromEntries((await structureOf(spec!)).map((m) => [m.pointer, m.message]));
    const parameters = '/paths/~1pets~1{id}/get/parameters';
    expect(found).toEqual({
      // A path parameter must say required: true (OAS 3.0.3 §4.7.12.1).
      [`${parameters}/0`]: 'expected the Parameter Object to have its required field "required", got none',
      // `in` picks the kind of parameter: a value that picks none is the one fault, not the fields each kind needs.
      [`${parameters}/1/in`]: expect.stringMatching(/^expected "in" of the Parameter Object to be one of ("(path|query|header|cookie)"(, |(?=,? got))){4}, got the string "querystring"$/),
      // A parameter has a schema or a content, one of them.
      [`${parameters}/2`]: 'expected the Parameter Object to have one of the fields "schema", "content", got none',
      // An apiKey scheme is in a header, the query or a cookie; not the fields of the other kinds of scheme.
      '/components/securitySchemes/key/in': expect.stringMatching(/^expected "in" of the Security Scheme Object to be one of ("(query|header|cookie)"(, |(?=,? got))){3}, got the string "body"$/),
      '/components/securitySchemes/oauth/flows/implicit': 'expected the OAuth Flow Object to have its required field "authorizationUrl", got none',
    });
  });

  it.each(['3.0.3', '3.1.0'])('(%s) reads a discriminator mapping value that is a schema name as the component it names (OAS §4.8.25): no unresolved $ref; a reference to no component stays one', async (openapi) => {
    const option = (kind: string) => ({ type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: [kind] } } });
    const schema = { oneOf: [{ $ref: '#/components/schemas/OptionOne' }, { $ref: '#/components/schemas/OptionTwo' }], discriminator: { propertyName: 'kind', mapping: { one: 'OptionOne', two: '#/components/schemas/OptionTwo', three: '#/components/schemas/OptionThree' } } };
    const { spec } = writeSpecs({ spec: documentWith(openapi, schema, { OptionOne: option('one'), OptionTwo: option('two') }) });
    const { stdout } = await cli(['spec', 'lint', spec!, '--format', 'json']);
    const unresolved = (JSON.parse(stdout) as { messages: Message[] }).messages.filter((m) => m.ruleId === 'no-unresolved-refs').map((m) => m.pointer);
    // Four operations share the schema: each reference is reported where it is written, once.
    expect(unresolved).not.toContainEqual(expect.stringMatching(/mapping\/(one|two)$/));
    expect(unresolved.filter((p) => p.endsWith('/mapping/three')).length).toBeGreaterThan(0);
  });
});
