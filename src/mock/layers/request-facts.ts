import type { Contract } from '../../contract/neutral.ts';
import { requestPath } from '../core/request-path.ts';
import type { MockRequest } from '../core/types.ts';
import { headerValue } from './layer.ts';
import { DEFAULT_SESSION, SESSION_HEADER } from './sessions.ts';

/** What the journal and the access log say about a request: never a header value but the session's name. */
export interface RequestFacts {
  /** The spec's operation the request routes to; null outside the spec's operations. */
  operationId: string | null;
  session: string;
  /** Whether it carried a non-empty API key header (the key itself is never kept). */
  keyPresent: boolean;
}

/** Facts of a request, with the auth header names read from the spec once. */
export function createRequestFacts(contract: Contract): (request: MockRequest) => RequestFacts {
  const authHeaders = authHeaderNames(contract);
  return (request) => {
    const route = contract.matchRoute(request.method, requestPath(request.url));
    return {
      operationId: route.kind === 'operation' ? route.operation.operationId : null,
      session: headerValue(request, SESSION_HEADER) || DEFAULT_SESSION,
      keyPresent: keyPresent(request, authHeaders),
    };
  };
}

export function keyPresent(request: MockRequest, authHeaders: readonly string[]): boolean {
  // A plain loop: the journal asks for every request, and a callback would be a closure each time.
  for (const name of authHeaders) {
    const value = request.headers[name];
    if (Array.isArray(value) ? value.some((v) => v.trim() !== '') : value !== undefined && value.trim() !== '') return true;
  }
  return false;
}

/** The header names of the spec's apiKey schemes, lower case, each once. */
export function authHeaderNames(contract: Contract): string[] {
  return [...new Set(contract.operations.flatMap((o) => o.authHeaders.map((h) => h.toLowerCase())))];
}
