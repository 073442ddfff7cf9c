import { describe, expect, test } from 'vitest';
import { authoredPointer } from './authored-pointer.ts';
import { loadContract } from './load-contract.ts';

const SCHEMA = '/paths/~1envs~1{id}/get/responses/200/content/application~1json/schema';

const raw = {
  paths: {
    '/envs/{id}': {
      get: {
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Env' } } } },
          '404': { $ref: '#/components/responses/NotFound' },
          '500': { content: { 'application/json': { schema: { type: 'object', properties: { 'a~b': { type: 'string' } } } } } },
        },
      },
    },
  },
  components: {
    responses: { NotFound: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Named' } } } } },
    schemas: {
      Env: { type: 'object', properties: { type: { type: 'string' }, strategy: { $ref: '#/components/schemas/Strategy' } } },
      Strategy: { type: 'object', properties: { name: { type: 'string' } } },
      Named: { allOf: [{ $ref: '#/components/schemas/Base' }, { properties: { name: { const: 'x' } } }] },
      Base: { required: ['id'], properties: { id: { type: 'string' } } },
      LoopA: { $ref: '#/components/schemas/LoopB' },
      LoopB: { $ref: '#/components/schemas/LoopA' },
      External: { $ref: 'other.yaml#/Thing' },
    },
  },
};

describe('authoredPointer', () => {
  test('returns a pointer that passes no $ref unchanged', () => {
    expect(authoredPointer(raw, '/components/schemas/Env/properties/type/type')).toBe('/components/schemas/Env/properties/type/type');
  });

  test('continues at the referenced component where the pointer passes a $ref', () => {
    expect(authoredPointer(raw, `${SCHEMA}/properties/type/type`)).toBe('/components/schemas/Env/properties/type/type');
  });

  test('resolves a pointer that ends on a $ref to the component itself', () => {
    expect(authoredPointer(raw, SCHEMA)).toBe('/components/schemas/Env');
  });

  test('follows refs nested in the component it reached', () => {
    expect(authoredPointer(raw, `${SCHEMA}/properties/strategy/properties/name`)).toBe('/components/schemas/Strategy/properties/name');
  });

  test('follows a response $ref, then a schema $ref, then a $ref inside allOf', () => {
    const pointer = '/paths/~1envs~1{id}/get/responses/404/content/application~1json/schema/allOf/0/required';
    expect(authoredPointer(raw, pointer)).toBe('/components/schemas/Base/required');
  });

  test('keeps escaped tokens (~1, ~0) escaped', () => {
    const pointer = '/paths/~1envs~1{id}/get/responses/500/content/application~1json/schema/properties/a~0b/type';
    expect(authoredPointer(raw, pointer)).toBe(pointer);
  });

  test('keeps the rest of a pointer that leads past what the document holds', () => {
    expect(authoredPointer(raw, `${SCHEMA}/properties/missing/type`)).toBe('/components/schemas/Env/properties/missing/type');
  });

  test('stops at a $ref cycle instead of looping', () => {
    expect(authoredPointer(raw, '/components/schemas/LoopA')).toMatch(/^\/components\/schemas\/Loop[AB]$/);
  });

  test('does not follow a $ref into another file', () => {
    expect(authoredPointer(raw, '/components/schemas/External/type')).toBe('/components/schemas/External/type');
  });
});

describe('violations of the real spec point at the authored schema', async () => {
  const contract = await loadContract({ validate: false });

  test('an enum of a property, through the response $ref', () => {
    const [violation] = contract.operation('getOidcSettings').responses.get('200')!.validate({ defaultRootRole: 'Root' });
    expect(violation?.schemaPointer).toBe('/components/schemas/OidcSettings/properties/defaultRootRole/enum');
  });

  test('the const of an error kind, through the shared response and its allOf', () => {
    const violations = contract.operation('deleteServiceAccountToken').responses.get('404')!.validate({ id: '1', name: 'Oops', message: 'm' });
    expect(violations.map((v) => v.schemaPointer)).toEqual(['/components/schemas/NotFoundErrorBody/allOf/1/properties/name/const']);
  });
});
