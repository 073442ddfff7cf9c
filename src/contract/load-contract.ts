import SwaggerParser from '@apidevtools/swagger-parser';
import { packageFile } from '../package-files.ts';
import { authoredPointer } from './authored-pointer.ts';
import { ContractError } from './contract-error.ts';
import { pointerOf } from './json-pointer.ts';
import { HTTP_METHODS, type Operation, type ResponseContract } from './operation.ts';
import { createRouteMatcher, type RouteMatch } from './route-matcher.ts';
import { closeSchema, compileValidator, createAjv, type JsonSchema, type Validate } from './schema-validator.ts';

export const DEFAULT_SPEC_FILE = packageFile('spec', 'openapi.yaml');

export interface LoadContractOptions {
  /** The OpenAPI 3.1 document. Default: the kit's own `spec/openapi.yaml`. */
  specFile?: string;
  /**
   * Validate the document against the OpenAPI 3.1 schema first (about 100 ms). The mock skips
   * it for its own spec, which the test suite validates.
   * @default true
   */
  validate?: boolean;
  /**
   * Compile each response validator on its first use instead of at load (still once). The mock
   * sets it: it validates its responses only under self-check, and starts ~100 ms sooner.
   * @default false
   */
  lazyValidators?: boolean;
}

/** The spec, loaded once: operations, route lookup and compiled response validators. */
export interface Contract {
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

export async function loadContract(options: LoadContractOptions = {}): Promise<Contract> {
  const specFile = options.specFile ?? DEFAULT_SPEC_FILE;
  let rawDocument: JsonSchema;
  let document: JsonSchema;
  try {
    rawDocument = (await SwaggerParser.parse(specFile)) as unknown as JsonSchema;
  } catch (error) {
    throw new ContractError('SPEC_UNREADABLE', { file: specFile, expected: 'a readable OpenAPI 3.1 document (YAML or JSON)', got: firstLine(error) });
  }
  if (typeof rawDocument.openapi !== 'string' || !rawDocument.openapi.startsWith('3.1.')) {
    throw new ContractError('SPEC_VERSION', { file: specFile, pointer: '/openapi', expected: 'an OpenAPI 3.1.x document', got: JSON.stringify(rawDocument.openapi) });
  }
  try {
    const copy = structuredClone(rawDocument) as never;
    document = (options.validate === false ? await SwaggerParser.dereference(specFile, copy, {}) : await SwaggerParser.validate(specFile, copy, {})) as unknown as JsonSchema;
  } catch (error) {
    // swagger-parser's own message is only "Swagger schema validation failed."; what is wrong is in details.
    const detail = (error as { details?: { instancePath?: string; message?: string }[] }).details?.[0];
    throw new ContractError('SPEC_INVALID', {
      file: specFile,
      pointer: detail?.instancePath,
      expected: detail?.message ? `a valid OpenAPI 3.1 document, where this value ${detail.message}` : 'a valid OpenAPI 3.1 document',
      got: detail?.message ? undefined : firstLine(error),
    });
  }

  const ajv = createAjv();
  const operations = collectOperations(specFile, rawDocument, document, (schema, pointer) => {
    const compileNow = (): Validate => {
      try {
        return compileValidator(ajv, schema, (schemaPath) => authoredPointer(rawDocument, pointer + schemaPath));
      } catch (error) {
        throw new ContractError('SPEC_SCHEMA', { file: specFile, pointer: authoredPointer(rawDocument, pointer), expected: 'a JSON Schema 2020-12 that Ajv compiles in strict mode', got: firstLine(error) });
      }
    };
    if (!options.lazyValidators) return compileNow();
    let compiled: Validate | undefined;
    return (instance) => (compiled ??= compileNow())(instance);
  });
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  const matchRoute = createRouteMatcher(operations);

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
    matchRoute,
    secretProperties: findSecretProperties(document),
  };
}

function collectOperations(
  specFile: string,
  rawDocument: JsonSchema,
  document: JsonSchema,
  compile: (schema: JsonSchema, pointer: string) => Validate,
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
        const schemaAt = pointerOf(['paths', path, method, 'responses', status, 'content', mediaType ?? '', 'schema']);
        const validate = schema ? compile(schema, schemaAt) : () => [];
        let strict: Validate | undefined;
        responses.set(status, {
          status,
          description: String(response.description ?? ''),
          mediaType,
          schema,
          schemaPointer: schema ? authoredPointer(rawDocument, schemaAt) : undefined,
          errorKind: schema ? constOfProperty(schema, 'name') : undefined,
          example: media?.example,
          validate,
          validateStrict: (body) => (strict ??= schema ? compile(closeSchema(schema), schemaAt) : () => [])(body),
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

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0]!;
}
