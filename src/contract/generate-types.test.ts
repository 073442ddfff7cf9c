import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { generateTypes, renderTypesFile } from './generate-types.ts';
import { loadContract } from './load-contract.ts';
import type { AuthenticationRequiredErrorBody, PathParams, ResponseBodies } from './types.gen.ts';

const TYPES_FILE = new URL('./types.gen.ts', import.meta.url);

test('types.gen.ts is what the spec generates today', async () => {
  const { rawDocument } = await loadContract({ validate: false });
  const committed = await readFile(TYPES_FILE, 'utf8');
  expect(committed, 'src/contract/types.gen.ts is stale: run `npm run gen:types` and commit the result').toBe(renderTypesFile(rawDocument));
});

// Checked by `npm run typecheck`: the generated error bodies pin `name` to the kind of their status.
const authError: AuthenticationRequiredErrorBody = { id: '1', name: 'AuthenticationRequired', message: 'no key' };
// @ts-expect-error: a 401 body cannot carry another error kind
const wrongKind: AuthenticationRequiredErrorBody = { id: '1', name: 'NotFoundError', message: 'no key' };
const noBody: ResponseBodies['deleteServiceAccountToken'][200] = undefined;
const tokenParams: PathParams['deleteServiceAccountToken'] = { id: '1', tokenId: '2' };
void [authError, wrongKind, noBody, tokenParams];

/** A minimal document around the given schemas and paths. */
function documentWith(schemas: Record<string, unknown>, paths: Record<string, unknown> = {}) {
  return { openapi: '3.1.0', info: { title: 't', version: '1' }, paths, components: { schemas } };
}

describe('generateTypes', () => {
  test('marks a property optional unless the schema requires it', () => {
    const out = generateTypes(documentWith({ Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, age: { type: 'integer' } } } }));
    expect(out).toContain('export interface Pet {\n  name: string;\n  age?: number;\n}');
  });

  test('writes an enum as a union of literals and a const as one literal', () => {
    const out = generateTypes(documentWith({ Role: { type: 'string', enum: ['Viewer', "O'Brien"] }, Fixed: { const: 3 } }));
    expect(out).toContain("export type Role = 'Viewer' | 'O\\'Brien';");
    expect(out).toContain('export type Fixed = 3;');
  });

  test('writes allOf as an intersection and a $ref as the named type', () => {
    const out = generateTypes(
      documentWith({
        Base: { type: 'object', properties: { id: { type: 'string' } } },
        Named: { description: 'A named base.', allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: { name: { const: 'x' } } }] },
      }),
    );
    expect(out).toContain("/** A named base. */\nexport type Named = Base & {\n  name?: 'x';\n};");
  });

  test('parenthesises a union inside an array and types additionalProperties as an index signature', () => {
    const out = generateTypes(
      documentWith({
        Mixed: { type: 'array', items: { enum: ['a', 1] } },
        Labels: { type: 'object', properties: { team: { type: 'string' } }, additionalProperties: { type: 'string' } },
      }),
    );
    expect(out).toContain("export type Mixed = ('a' | 1)[];");
    expect(out).toContain('  [key: string]: string | undefined;');
  });

  test('derives operation ids, per-status bodies through response $refs, and path parameters', () => {
    const doc = {
      ...documentWith({ Pet: { type: 'object', properties: { name: { type: 'string' } } } }),
      paths: {
        '/pets/{petId}': {
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
          get: { operationId: 'getPet', responses: { '200': { $ref: '#/components/responses/PetFound' }, '4XX': { description: 'no' } } },
        },
      },
    };
    doc.components = { ...doc.components, responses: { PetFound: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } } } as never;
    const out = generateTypes(doc);
    expect(out).toContain("export type OperationId =\n  | 'getPet';");
    expect(out).toContain("  getPet: {\n    200: Pet;\n    '4XX': undefined;\n  };");
    expect(out).toContain('  getPet: { petId: string };');
  });

  test('rejects a $ref that does not name a component schema', () => {
    expect(() => generateTypes(documentWith({ Odd: { $ref: 'other.yaml#/Pet' } }))).toThrow(/other\.yaml#\/Pet/);
  });
});
