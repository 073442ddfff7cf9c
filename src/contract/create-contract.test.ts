import { contractErrorOf as failure } from '../../test/contract-error-of.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContractError } from './contract-error.ts';
import { createContract } from './create-contract.ts';
import { loadContract, type Contract } from './load-contract.ts';

let loaded: Contract;
beforeAll(async () => (loaded = await loadContract({ validate: false })));

const minimal = (extra: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: { '/things': { get: { operationId: 'getThings', responses: { '200': { $ref: '#/components/responses/Things' } } } } },
  components: { responses: { Things: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } }, schemas: { Thing: { type: 'object', properties: { child: { $ref: '#/components/schemas/Leaf' }, sibling: { $ref: '#/components/schemas/Leaf' } } }, Leaf: { type: 'object', properties: { n: { type: 'integer' } } } } },
  ...extra,
});


describe('createContract from a document value', () => {
  it('dereferences the spec as swagger-parser does, and knows the same operations', () => {
    const contract = createContract(structuredClone(loaded.rawDocument), { specFile: 'spec.json' });
    expect(contract.document).toEqual(loaded.document);
    expect(contract.operations.map((o) => [o.operationId, o.method, o.path, [...o.responses.keys()], o.authHeaders])).toEqual(
      loaded.operations.map((o) => [o.operationId, o.method, o.path, [...o.responses.keys()], o.authHeaders]),
    );
    expect([...contract.secretProperties]).toEqual([...loaded.secretProperties]);
    const route = contract.matchRoute('DELETE', '/api/admin/service-account/1/token/2');
    expect(route.kind === 'operation' && route.operation.operationId).toBe('deleteServiceAccountToken');
  });

  it('validates bodies against the schemas and points into the authored document', () => {
    const contract = createContract(structuredClone(loaded.rawDocument));
    const [violation] = contract.operation('getOidcSettings').responses.get('200')!.validate({ defaultRootRole: 'Owner' });
    expect(violation?.schemaPointer).toBe('/components/schemas/OidcSettings/properties/defaultRootRole/enum');
  });

  it('makes one object of each referenced part, as swagger-parser does', () => {
    const contract = createContract(minimal());
    const schema = contract.operation('getThings').responses.get('200')!.schema as { properties: { child: unknown; sibling: unknown } };
    expect(schema.properties.child).toBe(schema.properties.sibling);
    expect(contract.operation('getThings').responses.get('200')!.validate({ child: { n: 'x' } })[0]?.schemaPointer).toBe('/components/schemas/Leaf/properties/n/type');
  });

  it('collects named examples by name, and the first one stands as the example', () => {
    const document = minimal();
    (document.components.responses.Things.content['application/json'] as Record<string, unknown>).examples = { empty: { value: {} }, nested: { summary: 's', value: { child: { n: 1 } } } };
    const response = createContract(document).operation('getThings').responses.get('200')!;
    expect([...response.examples]).toEqual([['empty', {}], ['nested', { child: { n: 1 } }]]);
    expect(response.example).toEqual({});
  });

  it('refuses a reference into another file, naming where it is', () => {
    const document = minimal();
    document.components.schemas.Thing.properties.child = { $ref: 'other.yaml#/Thing' };
    const error = failure(() => createContract(document, { specFile: 'bundle.json' }));
    expect(error.message).toBe('bundle.json#/components/schemas/Thing/properties/child/$ref: expected a local reference (#/...): a document given as a value is not read from files; bundle it first, got "other.yaml#/Thing"');
  });

  it('refuses a reference to nothing, and a document that is not OpenAPI 3.1', () => {
    const dangling = minimal();
    dangling.components.schemas.Thing.properties.child = { $ref: '#/components/schemas/Nope' };
    expect(failure(() => createContract(dangling)).pointer).toBe('/components/schemas/Thing/properties/child/$ref');
    expect(failure(() => createContract(minimal({ openapi: '3.0.3' }))).message).toBe('(OpenAPI document)#/openapi: expected an OpenAPI 3.1.x document, got "3.0.3"');
  });
});
