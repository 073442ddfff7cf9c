import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { pointerOf, resolvePointer } from './json-pointer.ts';
import { loadContract } from './load-contract.ts';
import { createAjv, type JsonSchema } from './schema-validator.ts';

// The API description the spec is authored from, kept in the repo so a fresh clone tests alone.
// api-description-drift.test.ts keeps it equal to the team's copy (`../shared/API.md`) where that exists.
const API_MD = fileURLToPath(new URL('../../spec/API.md', import.meta.url));

const contract = await loadContract({ validate: false });
const apiMd = await readFile(API_MD, 'utf8').catch((error: Error) => {
  throw new Error(`spec.test.ts compares the spec with the API description at ${API_MD}: ${error.message}`);
});

/** The text of `## n. ...` in API.md, up to the next `## `. */
function section(number: string): string {
  const found = apiMd.split(/^## /m).find((s) => s.startsWith(`${number}. `));
  if (!found) throw new Error(`${API_MD} has no section ${number}`);
  return found;
}

/** API §7: status -> error kind, and the §4 endpoint sections the status applies to. */
const errorTable = [...section('7').matchAll(/^\|\s*(\d{3})\s*\|\s*(\w+)\s*\|[^|\n]*\|([^|\n]*)\|\s*$/gm)].map(([, status, kind, appliesTo]) => ({
  status: status!,
  kind: kind!,
  sections: appliesTo!.split(',').map((s) => s.trim()),
}));

/** API §4: each endpoint's section number with its method and path template (`:id` -> `{id}`). */
const endpoints = [...section('4').matchAll(/^### (4\.\d+) [^\n]*\n[\s\S]*?^- Method and path: (\w+) \{base_url\}(\S+)/gm)].map(([, number, method, path]) => ({
  section: number!,
  method: method!,
  path: path!.replace(/:(\w+)/g, '{$1}'),
}));

const responses = contract.operations.flatMap((operation) => [...operation.responses.values()].map((response) => ({ operation, response })));

/**
 * Every `example` of a schema or a parameter in the authored spec, with the pointer of the schema
 * it illustrates. Media-type examples (response bodies) are checked above with the contract's
 * own validators.
 */
const schemaExamples: { pointer: string; schemaPointer: string; example: unknown }[] = [];
(function walk(node: unknown, tokens: string[]): void {
  if (!node || typeof node !== 'object') return;
  const isMediaType = tokens.at(-2) === 'content';
  if ('example' in node && !isMediaType) {
    const pointer = pointerOf(tokens);
    schemaExamples.push({ pointer, schemaPointer: 'schema' in node ? `${pointer}/schema` : pointer, example: node.example });
  }
  for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') walk(value, [...tokens, key]);
})(contract.rawDocument, []);

describe('spec/openapi.yaml', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const validated = await loadContract();
    expect(validated.rawDocument.openapi).toMatch(/^3\.1\./);
  });

  test('has the three operationIds of the API description', () => {
    expect(contract.operations.map((o) => o.operationId).sort()).toEqual(['deleteServiceAccountToken', 'getOidcSettings', 'getProjectEnvironments']);
  });

  test('describes every API.md §4 endpoint, with its method and path, as an operation', () => {
    expect(endpoints.length, `no endpoints parsed from ${API_MD} §4`).toBeGreaterThan(0);
    const described = contract.operations.map((o) => `${o.method} ${o.path}`).sort();
    expect(endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual(described);
  });

  describe.each(contract.operations)('$operationId', (operation) => {
    const endpoint = endpoints.find((e) => e.method === operation.method && e.path === operation.path);

    test('documents exactly the error statuses API.md §7 lists for its endpoint', () => {
      const expected = errorTable.filter((row) => endpoint && row.sections.includes(endpoint.section)).map((row) => row.status);
      const documented = [...operation.responses.keys()].filter((status) => Number(status) >= 400);
      expect(documented.sort()).toEqual(expected.sort());
    });

    test('gives every error status a body whose errorKind is the API.md §7 kind for that status', () => {
      const kinds = Object.fromEntries(errorTable.map((row) => [row.status, row.kind]));
      for (const [status, response] of operation.responses) {
        if (Number(status) < 400) continue;
        expect(response.errorKind, `${operation.operationId} ${status}`).toBe(kinds[status]);
      }
    });

    test('requires the apiKey in the Authorization header', () => {
      expect(operation.authHeaders).toEqual(['Authorization']);
    });
  });

  test.each(responses.map(({ operation, response }) => [operation.operationId, response.status, response] as const))(
    '%s %s: the body, if any, has an example that validates against its schema',
    (_operationId, _status, response) => {
      if (response.mediaType === undefined) {
        expect(response.example).toBeUndefined();
        return;
      }
      expect(response.example, 'the response has no example').toBeDefined();
      expect(response.validate(response.example)).toEqual([]);
      // Named examples are answers too (the mock serves them on `Prefer: example=NAME`).
      for (const [name, example] of response.examples) expect(response.validate(example), `example ${name}`).toEqual([]);
    },
  );

  test('declares the apiKey scheme as the Authorization header', () => {
    expect(resolvePointer(contract.rawDocument, '/components/securitySchemes/apiKey')).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
  });

  test('writes the OIDC secret in its examples as the placeholder <OIDC_SECRET>', () => {
    const example = contract.operation('getOidcSettings').responses.get('200')?.example as { secret?: unknown } | undefined;
    expect(example?.secret).toBe('<OIDC_SECRET>');
    expect(resolvePointer(contract.rawDocument, '/components/schemas/OidcSettings/properties/secret/example')).toBe('<OIDC_SECRET>');
  });

  test('writes every secret (format password) in every example as a <PLACEHOLDER>', () => {
    const secrets: unknown[] = [];
    const collect = (value: unknown): void => {
      if (!value || typeof value !== 'object') return;
      for (const [key, inner] of Object.entries(value)) {
        if (contract.secretProperties.has(key) && typeof inner !== 'object') secrets.push(inner);
        collect(inner);
      }
    };
    for (const { response } of responses) for (const example of [response.example, ...response.examples.values()]) collect(example);
    for (const { schemaPointer, example } of schemaExamples) {
      if ((resolvePointer(contract.document, schemaPointer) as JsonSchema).format === 'password') secrets.push(example);
    }
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(secret).toMatch(/^<[A-Z][A-Z0-9_]*>$/);
  });
});

describe('schema and parameter examples', () => {
  const ajv = createAjv();

  test('include the ones the spec is known to carry', () => {
    expect(schemaExamples.map((e) => e.pointer)).toEqual(
      expect.arrayContaining(['/components/schemas/OidcSettings/properties/discoverUrl', '/paths/~1api~1admin~1environments~1project~1{projectId}/get/parameters/0']),
    );
  });

  const labelled = schemaExamples.map((e) => [e.pointer.replace('/components/schemas/', '').replaceAll('/properties/', '.'), e] as const);
  test.each(labelled)('%s: the example validates against its own schema', (_label, { schemaPointer, example }) => {
    const schema = resolvePointer(contract.document, schemaPointer) as JsonSchema;
    const validate = ajv.compile(schema);
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
  });
});
