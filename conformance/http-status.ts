import { responseFor, type Operation } from '../src/contract/index.ts';

/**
 * The statuses the scenarios expect by HTTP semantics rather than by the spec: what a request
 * without credentials, with a key lacking permission, or for a resource that does not exist
 * should get (RFC 9110 §15.5; API §5 and §7 give the same mapping). Which statuses an operation
 * documents, and the error kind of each, always come from the contract.
 */
export const UNAUTHORIZED = 401;
export const FORBIDDEN = 403;
export const NOT_FOUND = 404;
export const METHOD_NOT_ALLOWED = 405;
/** What a server answers a method it does not implement (RFC 9110 §9.1, §15.6.2): spec decision unlisted-methods allows it for a method the spec does not list on the path. */
export const NOT_IMPLEMENTED = 501;
/**
 * A request a server may refuse as malformed before any lookup (RFC 9110 §15.5.1): an id holding
 * a control character, such as a percent-encoded line feed, is one.
 */
export const BAD_REQUEST = 400;
/**
 * What a server may answer content an operation does not take (decision malformed-input-refusals;
 * RFC 9110 §9.3.5): 413 (content too large, §15.5.14) and 415 (a media type the target does not
 * take, §15.5.16; Prism 5.16 answers a DELETE with `{}` so).
 */
export const CONTENT_REFUSALS: ReadonlySet<number> = new Set([413, 415]);

/**
 * Whether a 400 refuses a method spelled with lower-case letters (`delete`, `Get`): no registered method
 * has any (the IANA registry's are upper case, and names are case-sensitive, RFC 9110 §9.1), and parsers
 * that know methods by a table (Node's llhttp) refuse such a request line with 400 (RFC 9112 §3;
 * decision unlisted-methods).
 */
export function isCaseRefusal(method: string, status: number): boolean {
  return status === BAD_REQUEST && method !== method.toUpperCase();
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

export function isClientError(status: number): boolean {
  return status >= 400 && status < 500;
}

/**
 * A clean refusal of a hostile request: 404, 405, or a 4xx that one of the operations on the
 * path documents (e.g. 401). What odd ids and unlisted methods should get.
 */
export function isCleanRefusal(status: number, operationsOnPath: readonly Operation[]): boolean {
  if (status === NOT_FOUND || status === METHOD_NOT_ALLOWED) return true;
  return isClientError(status) && operationsOnPath.some((operation) => responseFor(operation, status) !== undefined);
}
