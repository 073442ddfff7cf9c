import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { ajvEngine } from './ajv-engine.ts';

export type JsonSchema = Record<string, unknown>;

/** One way an instance breaks its schema, with pointers into both. */
export interface SchemaViolation {
  /** JSON pointer into the instance (the response body, the fixture), '' for the root. */
  instancePointer: string;
  /** JSON pointer into the authored spec (or fixture schema) of the failing keyword. */
  schemaPointer: string;
  keyword: string;
  /** What the schema expects there, as a noun phrase: `a value of type integer`, `one of ["Viewer","Editor"]`. */
  expected: string;
  /** The expectation with its location, e.g. `/version: must be integer`. */
  message: string;
  params: Record<string, unknown>;
}

export type Validate = (instance: unknown) => SchemaViolation[];

/**
 * OpenAPI 3.1 schema keywords that JSON Schema 2020-12 does not define, and the spec's own
 * annotations (decisions, and the machine-readable ones the conformance model reads:
 * conformance/judge/model/spec-annotations.ts); declared so that Ajv's strict mode still rejects
 * genuine typos in the spec.
 */
const OPENAPI_KEYWORDS = ['example', 'xml', 'externalDocs', 'discriminator', 'x-decisions', 'x-instance-id', 'x-per-instance', 'x-unique-by', 'x-constant'];

/**
 * One Ajv instance per contract: schemas are compiled at load, never per request. Ajv itself loads on the first call (./ajv-engine.ts).
 * `validateSchemas: false` skips checking each schema against the JSON Schema 2020-12 meta-schema
 * (compiling that meta-schema is ~25 ms of a first compile): for a document already checked,
 * the kit's own spec, which its test suite compiles with the check on. Strict mode stays on.
 */
export function createAjv({ validateSchemas = true, source = false }: { validateSchemas?: boolean; source?: boolean } = {}): Ajv2020 {
  const { Ajv2020, addFormats } = ajvEngine();
  // `source` keeps each validator's code for Ajv's standalone output (./precompiled-validators.ts); the validators are the same.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictTuples: false, logger: false, validateSchema: validateSchemas, ...(source ? { code: { source: true } } : {}) });
  ajv.addVocabulary(OPENAPI_KEYWORDS);
  addFormats(ajv);
  // OpenAPI's `password` format marks a secret (OAS 3.1 §4.8.5.1); it constrains nothing.
  ajv.addFormat('password', true);
  return ajv;
}

/**
 * Compiles `schema` into a function returning every violation. `pointerOf` turns Ajv's schema
 * path (relative to `schema`) into the pointer a reader should open.
 */
export function compileValidator(ajv: Ajv2020, schema: JsonSchema, pointerOf: (schemaPath: string) => string): Validate {
  return violationsOf(ajv.compile(schema), pointerOf);
}

/** An Ajv validate function (compiled here, or ahead of time: ./precompiled-validators.ts) as a Validate. */
export function violationsOf(validate: AjvValidate, pointerOf: (schemaPath: string) => string): Validate {
  return (instance) => (validate(instance) ? [] : (validate.errors ?? []).map((e) => toViolation(e, pointerOf)));
}

/** What Ajv's compile and its standalone code both give: a predicate that leaves its errors on itself. */
export type AjvValidate = Pick<ValidateFunction, 'errors'> & ((instance: unknown) => boolean);

function toViolation(error: ErrorObject, pointerOf: (schemaPath: string) => string): SchemaViolation {
  const instancePointer = error.instancePath;
  const missing = error.keyword === 'required' ? `/${String(error.params.missingProperty)}` : '';
  return {
    instancePointer: instancePointer + missing,
    schemaPointer: pointerOf(error.schemaPath.replace(/^#/, '')),
    keyword: error.keyword,
    expected: expectation(error),
    message: `${instancePointer || '(root)'}: ${describe(error)}`,
    params: error.params,
  };
}

function expectation({ keyword, params, message }: ErrorObject): string {
  switch (keyword) {
    case 'required':
      return `property "${String(params.missingProperty)}" present`;
    case 'type':
      return `a value of type ${String(params.type)}`;
    case 'enum':
      return `one of ${JSON.stringify(params.allowedValues)}`;
    case 'const':
      return JSON.stringify(params.allowedValue);
    case 'format':
      return `a string in format ${String(params.format)}`;
    case 'unevaluatedProperties':
    case 'additionalProperties':
      return `no property "${String(params.unevaluatedProperty ?? params.additionalProperty)}" (the schema does not list it)`;
    default:
      return `a value that ${message ?? `satisfies ${keyword}`}`;
  }
}

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return `must have required property "${String(error.params.missingProperty)}"`;
    case 'enum':
      return `must be one of ${JSON.stringify(error.params.allowedValues)}`;
    case 'const':
      return `must be ${JSON.stringify(error.params.allowedValue)}`;
    case 'unevaluatedProperties':
    case 'additionalProperties': {
      const name = error.params.unevaluatedProperty ?? error.params.additionalProperty;
      return `must not have property "${String(name)}", which the schema does not list`;
    }
    default:
      return error.message ?? error.keyword;
  }
}

/**
 * The same schema, closed: every object that lists properties also rejects the ones it does
 * not list. `unevaluatedProperties` is set at the top of an `allOf` group, not inside its
 * branches, so properties evaluated by a sibling branch are still allowed.
 */
export function closeSchema(schema: JsonSchema): JsonSchema {
  const copy = JSON.parse(JSON.stringify(schema)) as JsonSchema;
  close(copy, false);
  return copy;
}

function close(schema: unknown, insideAllOf: boolean): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
  const s = schema as JsonSchema;
  const isObjectSchema = 'properties' in s || 'allOf' in s;
  if (isObjectSchema && !insideAllOf && !('additionalProperties' in s) && !('unevaluatedProperties' in s)) {
    s.unevaluatedProperties = false;
  }
  for (const sub of Object.values((s.properties as Record<string, unknown> | undefined) ?? {})) close(sub, false);
  close(s.items, false);
  close(s.additionalProperties, false);
  for (const sub of (s.allOf as unknown[] | undefined) ?? []) close(sub, true);
  for (const sub of [...((s.anyOf as unknown[] | undefined) ?? []), ...((s.oneOf as unknown[] | undefined) ?? [])]) close(sub, false);
}
