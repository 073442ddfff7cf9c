import type { JsonSchema, Validate } from './schema-validator.ts';

/** The operation fields of an OpenAPI 3.1 path item (OAS 3.1 §4.8.9), in the spec's order. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** What the spec says about one status of one operation. */
export interface ResponseContract {
  /** The status as the spec writes it: '200', '404', or a range such as '4XX'. */
  status: string;
  description: string;
  /** The media type of the body; undefined when the spec describes no body. */
  mediaType: string | undefined;
  /** The dereferenced body schema; undefined when the spec describes no body. */
  schema: JsonSchema | undefined;
  /** Where the body schema was authored, e.g. `/components/schemas/NotFoundErrorBody`. */
  schemaPointer: string | undefined;
  /** For error bodies: the `name` the spec fixes for this status (API §7), e.g. `NotFoundError`. */
  errorKind: string | undefined;
  /** The spec's example of the body, if any (the first named one when only `examples` are given). */
  example: unknown;
  /** The spec's named examples of the body (`examples`), by name; empty when it has none. */
  examples: ReadonlyMap<string, unknown>;
  /** All violations of the body schema; [] when it conforms or no body is described. */
  validate: Validate;
  /** As `validate`, and also flags properties the spec does not list. Compiled on first use. */
  validateStrict: Validate;
}

export interface Operation {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** The path template, e.g. `/api/admin/service-account/{id}/token/{tokenId}`. */
  path: string;
  /** JSON pointer of the operation in the spec. */
  pointer: string;
  summary: string;
  /** Names of the path parameters, in path order. */
  pathParams: string[];
  /** Documented responses by status. */
  responses: ReadonlyMap<string, ResponseContract>;
  /** Header names of the apiKey schemes the operation requires; [] when it needs no auth. */
  authHeaders: string[];
}

/** The documented response for an HTTP status: exact match first, then the `4XX` range. */
export function responseFor(operation: Operation, status: number): ResponseContract | undefined {
  return operation.responses.get(String(status)) ?? operation.responses.get(`${String(status)[0]}XX`) ?? operation.responses.get('default');
}
