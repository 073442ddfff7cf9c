import { errorResponse, type NewId } from '../core/errors.ts';
import type { MockHandle } from '../core/types.ts';
import { headerValue, mapAnswer } from './layer.ts';

export interface CorsOptions {
  /**
   * Origins allowed to call the mock from a browser, e.g. `http://localhost:8000`. Empty or
   * absent: any origin, reflected (the mock holds test data only).
   */
  origins?: readonly string[];
  /** Request headers a browser may send: the spec's auth headers and the mock's own. */
  allowHeaders: readonly string[];
  /** Response headers a page may read. */
  exposeHeaders: readonly string[];
  newId: NewId;
}

/** How long a browser may cache a preflight answer (Fetch standard: Access-Control-Max-Age). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS (Fetch standard §3.2): a preflight (OPTIONS with Origin and
 * Access-Control-Request-Method) is answered here, before auth and routing, with 204 and the
 * origin reflected; any other request from an allowed origin gets its answer with
 * Access-Control-Allow-Origin added. A request without Origin (curl, a test, same-origin GET)
 * passes through untouched, so the plain path pays one header lookup.
 */
export function corsLayer(options: CorsOptions): (next: MockHandle) => MockHandle {
  const allowed = options.origins && options.origins.length > 0 ? new Set(options.origins) : undefined;
  const allowHeaders = options.allowHeaders.join(', ');
  const exposeHeaders = options.exposeHeaders.join(', ');
  return (next) => (request) => {
    const origin = headerValue(request, 'origin');
    if (origin === undefined) return next(request);
    const permitted = !allowed || allowed.has(origin);
    const requestedMethod = headerValue(request, 'access-control-request-method');
    if (request.method === 'OPTIONS' && requestedMethod !== undefined) {
      // No Allow-Origin, so the browser blocks the call; the body says why in the network tab.
      if (!permitted) return errorResponse(403, 'MockCorsError', `The origin ${origin} is not one the mock allows (flag-admin mock --cors-origin).`, options.newId, { vary: 'Origin' });
      return {
        status: 204,
        headers: {
          'access-control-allow-origin': origin,
          'access-control-allow-credentials': 'true',
          'access-control-allow-methods': requestedMethod,
          'access-control-allow-headers': allowHeaders,
          'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
          vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        },
        body: undefined,
      };
    }
    if (!permitted) return next(request);
    return mapAnswer(next(request), (response) => ({
      ...response,
      headers: {
        ...response.headers,
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': exposeHeaders,
        vary: 'Origin',
      },
    }));
  };
}
