import type { MockHandle, MockRequest, MockResponse } from '../core/types.ts';

/** The Fetch API form of the mock: what MSW, a service worker or a test without a server calls. */
export type FetchHandler = (request: Request, context?: FetchContext) => Promise<Response>;

export interface FetchContext {
  /**
   * The caller's address where the host knows one (e.g. a server built on this handler); the
   * control API admits only loopback callers unless a control token is set. Absent: an
   * in-process caller (a test, MSW, a service worker), which is local.
   */
  remoteAddress?: string;
}

/**
 * Wraps a mock handle as `(request: Request) => Promise<Response>`. Runtime-neutral: Fetch
 * `Request`/`Response` only, as in Node 18+, browsers and service workers.
 */
export function toFetchHandler(handle: MockHandle): FetchHandler {
  return async (request, context = {}) => {
    const url = new URL(request.url);
    const mockRequest: MockRequest = {
      method: request.method.toUpperCase(),
      // Still percent-encoded: the core matches and decodes ids itself.
      url: url.pathname + url.search,
      headers: headersOf(request.headers),
      body: () => request.text(),
      signal: request.signal,
      remoteAddress: context.remoteAddress,
    };
    return toResponse(mockRequest.method, await handle(mockRequest));
  };
}

/** Headers as the core reads them: lower-case names (the Fetch Headers iterator yields them so). */
function headersOf(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[name] = value));
  return record;
}

function toResponse(method: string, response: MockResponse): Response {
  // Fetch forbids a body on HEAD answers and on 204/304 (Fetch standard, "null body status").
  const body = method === 'HEAD' || response.status === 204 || response.status === 304 ? null : (response.body ?? null);
  return new Response(body, { status: response.status, headers: response.headers });
}
