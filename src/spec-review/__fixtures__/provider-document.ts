// Test helper: a provider's published document as tests of `spec compare` and of large documents
// need one, written here rather than copied: OpenAPI 3.0.3, the kit's three operations (taken from
// spec/openapi.yaml and written in 3.0 terms) among generated others.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { JsonSchema } from '../../contract/index.ts';

const KIT_SPEC = fileURLToPath(new URL('../../../spec/openapi.yaml', import.meta.url));

/**
 * `others` generated operations (in groups of four: list, create, read, delete) with the kit's
 * three placed among them, every schema in 3.0 terms (`nullable`, boolean exclusive bounds,
 * one-value `enum` for `const`) and shared through `$ref`s, as a real service's document is.
 */
export function providerDocument(others: number): JsonSchema {
  // Read here, not through spec-cli.ts (which registers a vitest hook): bench/ uses this too.
  const kit = parse(readFileSync(KIT_SPEC, 'utf8')) as JsonSchema;
  const kitComponents = kit.components as JsonSchema;
  const groups = Math.ceil(others / 4);
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = { ...(kitComponents.schemas as object), ...sharedSchemas() };
  for (let i = 0; i < groups; i++) {
    if (i === Math.floor(groups / 2)) Object.assign(paths, kit.paths);
    Object.assign(paths, featureGroup(i));
    schemas[`Feature${i}`] = featureSchema(i);
  }
  if (groups === 0) Object.assign(paths, kit.paths);
  const document: JsonSchema = {
    openapi: '3.0.3',
    info: { title: 'Feature flag service', version: '5.3.0', license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' } },
    servers: [{ url: 'https://flags.test' }],
    security: kit.security,
    tags: [...(kit.tags as object[]), { name: 'Features', description: 'Feature toggles.' }],
    paths,
    components: { ...kitComponents, schemas },
  };
  return downgrade(structuredClone(document)) as JsonSchema;
}

function featureGroup(i: number): Record<string, unknown> {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  const auth = { '401': { $ref: '#/components/responses/AuthenticationRequired' }, '403': { $ref: '#/components/responses/NoAccess' } };
  const name = { name: 'featureName', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9-]+$' } };
  return {
    [`/api/admin/features-${i}`]: {
      get: {
        operationId: `listFeatures${i}`,
        summary: `List features of group ${i}`,
        tags: ['Features'],
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 1000 } }],
        responses: { '200': { description: 'The features.', content: json({ type: 'object', required: ['features'], properties: { version: { type: 'integer' }, features: { type: 'array', items: ref(`Feature${i}`) } } }) }, ...auth },
      },
      post: {
        operationId: `createFeature${i}`,
        summary: `Create a feature in group ${i}`,
        tags: ['Features'],
        requestBody: { required: true, content: json(ref(`Feature${i}`)) },
        responses: { '201': { description: 'Created.', content: json(ref(`Feature${i}`)) }, '400': { $ref: '#/components/responses/ValidationError' }, ...auth },
      },
    },
    [`/api/admin/features-${i}/{featureName}`]: {
      parameters: [name],
      get: { operationId: `getFeature${i}`, summary: `Get a feature of group ${i}`, tags: ['Features'], responses: { '200': { description: 'The feature.', content: json(ref(`Feature${i}`)) }, ...auth } },
      delete: { operationId: `deleteFeature${i}`, summary: `Archive a feature of group ${i}`, tags: ['Features'], responses: { '200': { description: 'Archived.' }, ...auth } },
    },
  };
}

function featureSchema(i: number): JsonSchema {
  return {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', example: `feature-${i}` },
      description: { type: ['string', 'null'] },
      type: { type: 'string', enum: ['release', 'experiment', 'operational', 'kill-switch', 'permission'] },
      enabled: { type: 'boolean' },
      stale: { type: 'boolean' },
      impressionData: { type: ['boolean', 'null'] },
      createdAt: { type: ['string', 'null'], format: 'date-time' },
      strategies: { type: 'array', items: { $ref: '#/components/schemas/FeatureStrategy' } },
      variants: { type: 'array', items: { $ref: '#/components/schemas/FeatureVariant' } },
    },
  };
}

function sharedSchemas(): Record<string, unknown> {
  return {
    FeatureStrategy: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        parameters: { type: 'object', additionalProperties: { type: 'string' } },
        constraints: { type: 'array', items: { $ref: '#/components/schemas/FeatureConstraint' } },
        sortOrder: { type: 'number', exclusiveMinimum: -10000 },
      },
    },
    FeatureConstraint: {
      type: 'object',
      required: ['contextName', 'operator'],
      properties: {
        contextName: { type: 'string' },
        operator: { type: 'string', enum: ['IN', 'NOT_IN', 'STR_CONTAINS', 'NUM_GT', 'DATE_AFTER'] },
        values: { type: 'array', items: { type: 'string' } },
        inverted: { type: ['boolean', 'null'] },
      },
    },
    FeatureVariant: {
      type: 'object',
      required: ['name', 'weight'],
      properties: { name: { type: 'string' }, weight: { type: 'integer', minimum: 0, maximum: 1000 }, stickiness: { type: ['string', 'null'] } },
    },
  };
}

/** The 3.1 schema keywords written as 3.0 writes them; extensions of the kit (x-decisions) dropped, as a provider has none. */
function downgrade(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(downgrade);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'x-decisions' || key === 'example' || key === 'examples' || key === 'value') out[key] = value;
    else out[key] = downgrade(value);
  }
  delete out['x-decisions'];
  if (Array.isArray(out.type) && out.type.includes('null')) {
    const rest = out.type.filter((t) => t !== 'null');
    out.type = rest[0];
    out.nullable = true;
  }
  if (out.const !== undefined && out.enum === undefined) {
    out.enum = [out.const];
    delete out.const;
  }
  for (const [exclusive, inclusive] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[exclusive] === 'number') {
      out[inclusive] = out[exclusive];
      out[exclusive] = true;
    }
  }
  if (out.license && typeof out.license === 'object') delete (out.license as JsonSchema).identifier;
  return out;
}
