// Runtime-neutral: builds the Contract from an OpenAPI document that is already a value (no file
// system, no swagger-parser), so the mock core can run in a browser or a service worker.
import { authoredPointer } from './authored-pointer.ts';
import { ContractError } from './contract-error.ts';
import { dereferenceLocal } from './dereference-local.ts';
import { pointerOf } from './json-pointer.ts';
import { HTTP_METHODS, type Operation, type ResponseContract } from './operation.ts';
import { createRouteMatcher, type RouteMatch } from './route-matcher.ts';
import { closeSchema, compileValidator, createAjv, violationsOf, type AjvValidate, type JsonSchema, type Validate } from './schema-validator.ts';

/** The spec, loaded once: operations, route lookup and compiled response validators. */
export interface Contract {
  /** Where the document came from, as errors name it: a file path, or a label for a value. */
  specFile: string;
  /** The document as authored (refs intact). */
  rawDocument: JsonSchema;
  /** The document with every `$ref` replaced by its target. */
  document: JsonSchema;
  operations: readonly Operation[];
  /** The operation with this operationId; throws for one the spec does not have. */
  operation(operationId: string): Operation;
  matchRoute(method: string, pathname: string): RouteMatch;
  /** Property names whose schema has `format: password`: their values are secrets. */
  secretProperties: ReadonlySet<string>;
}

export interface CreateContractOptions {
  /**
   * How errors name the document. @default '(OpenAPI document)'
   * @example createContract(spec, { specFile: 'spec/openapi.yaml' })
   */
  specFile?: string;
  /**
   * The document with its `$ref`s already replaced (e.g. by swagger-parser). Without it, the
   * local refs (`#/...`) of `document` are resolved here; a ref to another file is refused.
   */
  dereferenced?: JsonSchema;
  /**
   * Compile each response validator on its first use instead of now (still once). The mock
   * sets it: it validates its responses only under self-check, and starts ~100 ms sooner.
   * @default false
   */
  lazyValidators?: boolean;
  /**
   * Check each schema against the JSON Schema 2020-12 meta-schema when it is compiled. Off only
   * for a document already checked (loadContract's `validate: false`: the kit's own spec).
   * @default true
   */
  validateSchemas?: boolean;
  /**
   * Validators compiled ahead of time, by key: the schema's pointer in the dereferenced
   * document, with ` closed` added for its closed form (validateStrict). A key it has no
   * function for is compiled with Ajv as usual. For the kit's own spec, loadContract passes
   * spec/openapi.validators.cjs (./precompiled-validators.ts), made from exactly that text.
   */
  precompiled?: (key: string, schema: JsonSchema) => AjvValidate | undefined;
}

/**
 * The Contract of an OpenAPI 3.1 document given as a value, e.g. `spec/openapi.yaml` bundled as
 * JSON for a browser. The document is not validated against the OpenAPI schema here (that needs
 * swagger-parser: loadContract does it); what the kit relies on is checked, with pointers.
 * @example const contract = createContract(await (await fetch('/openapi.json')).json());
 */
export function createContract(rawDocument: JsonSchema, options: CreateContractOptions = {}): Contract {
  const specFile = options.specFile ?? '(OpenAPI document)';
  if (typeof rawDocument.openapi !== 'string' || !rawDocument.openapi.startsWith('3.1.')) {
    throw new ContractError('SPEC_VERSION', { file: specFile, pointer: '/openapi', expected: 'an OpenAPI 3.1.x document', got: JSON.stringify(rawDocument.openapi) });
  }
  const document = options.dereferenced ?? dereferenceLocal(rawDocument, specFile);
  // Made on the first compile: with lazy validators (the mock) a start needs no Ajv instance at all.
  let ajv: ReturnType<typeof createAjv> | undefined;
  const operations = collectOperations(specFile, rawDocument, document, (schema, pointer, closed) => {
    const compileNow = (): Validate => {
      const ahead = options.precompiled?.(closed ? `${pointer} closed` : pointer, schema);
      if (ahead) return violationsOf(ahead, (schemaPath) => authoredPointer(rawDocument, pointer + schemaPath));
      try {
        return compileValidator((ajv ??= createAjv({ validateSchemas: options.validateSchemas ?? true })), schema, (schemaPath) => authoredPointer(rawDocument, pointer + schemaPath));
      } catch (error) {
        throw new ContractError('SPEC_SCHEMA', { file: specFile, pointer: authoredPointer(rawDocument, pointer), expected: 'a JSON Schema 2020-12 that Ajv compiles in strict mode', got: firstLine(error) });
      }
    };
    if (!options.lazyValidators) return compileNow();
    let compiled: Validate | undefined;
    return (instance) => (compiled ??= compileNow())(instance);
  });
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));

  return {
    specFile,
    rawDocument,
    document,
    operations,
    operation(operationId) {
      const operation = byId.get(operationId);
      if (!operation) throw new Error(`The spec has no operation "${operationId}"; it has ${[...byId.keys()].join(', ')}`);
      return operation;
    },
    matchRoute: createRouteMatcher(operations),
    secretProperties: findSecretProperties(document),
  };
}

function collectOperations(
  specFile: string,
  rawDocument: JsonSchema,
  document: JsonSchema,
  compile: (schema: JsonSchema, pointer: string, closed: boolean) => Validate,
): Operation[] {
  const operations: Operation[] = [];
  const paths = (document.paths ?? {}) as Record<string, Record<string, JsonSchema>>;
  const schemes = ((document.components as JsonSchema | undefined)?.securitySchemes ?? {}) as Record<string, JsonSchema>;
  for (const [path, pathItem] of Object.entries(paths)) {
    for (const method of HTTP_METHODS) {
      const op = pathItem[method];
      if (!op) continue;
      const pointer = pointerOf(['paths', path, method]);
      if (typeof op.operationId !== 'string') {
        throw new ContractError('SPEC_OPERATION_ID', { file: specFile, pointer: `${pointer}/operationId`, expected: 'an operationId on every operation' });
      }
      const responses = new Map<string, ResponseContract>();
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, JsonSchema>)) {
        const content = (response.content ?? {}) as Record<string, JsonSchema>;
        const mediaType = Object.keys(content)[0];
        const media = mediaType === undefined ? undefined : content[mediaType];
        const schema = media?.schema as JsonSchema | undefined;
        // OAS 3.1 §4.8.14: a media type has `example` or named `examples` (Example Objects with a `value`).
        const examples = new Map(Object.entries((media?.examples ?? {}) as Record<string, JsonSchema>).map(([name, example]) => [name, example.value]));
        const schemaAt = pointerOf(['paths', path, method, 'responses', status, 'content', mediaType ?? '', 'schema']);
        const validate = schema ? compile(schema, schemaAt, false) : () => [];
        let strict: Validate | undefined;
        responses.set(status, {
          status,
          description: String(response.description ?? ''),
          mediaType,
          schema,
          schemaPointer: schema ? authoredPointer(rawDocument, schemaAt) : undefined,
          errorKind: schema ? constOfProperty(schema, 'name') : undefined,
          example: media?.example ?? examples.values().next().value,
          examples,
          validate,
          validateStrict: (body) => (strict ??= schema ? compile(closeSchema(schema), schemaAt, true) : () => [])(body),
        });
      }
      const security = (op.security ?? document.security ?? []) as Record<string, unknown>[];
      const authHeaders = security.flatMap((requirement) =>
        Object.keys(requirement).flatMap((name) => {
          const scheme = schemes[name];
          return scheme?.type === 'apiKey' && scheme.in === 'header' ? [String(scheme.name)] : [];
        }),
      );
      const parameters = [...((pathItem.parameters ?? []) as JsonSchema[]), ...((op.parameters ?? []) as JsonSchema[])];
      const declared = parameters.filter((p) => p.in === 'path').map((p) => String(p.name));
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      // OAS 3.1 §4.8.12.1: each template expression must be declared as a path parameter, and vice versa.
      if ([...declared].sort().join() !== [...templated].sort().join()) {
        throw new ContractError('SPEC_PATH_PARAMS', { file: specFile, pointer: `${pointer}/parameters`, expected: `path parameters ${JSON.stringify(templated)} as in the path template`, got: JSON.stringify(declared) });
      }
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        pointer,
        summary: String(op.summary ?? ''),
        pathParams: templated,
        responses,
        authHeaders,
      });
    }
  }
  return operations;
}

/** The `const` a schema (or a branch of its `allOf`) fixes for a property, e.g. an error's `name`. */
function constOfProperty(schema: JsonSchema, property: string): string | undefined {
  const own = (schema.properties as Record<string, JsonSchema> | undefined)?.[property]?.const;
  if (typeof own === 'string') return own;
  for (const branch of (schema.allOf ?? []) as JsonSchema[]) {
    const found = constOfProperty(branch, property);
    if (found !== undefined) return found;
  }
  return undefined;
}

function findSecretProperties(document: JsonSchema): Set<string> {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const properties = (node as JsonSchema).properties;
    if (properties && typeof properties === 'object') {
      for (const [name, schema] of Object.entries(properties as Record<string, JsonSchema>)) {
        if (schema && schema.format === 'password') names.add(name);
      }
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(document);
  return names;
}

export function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0]!;
}
