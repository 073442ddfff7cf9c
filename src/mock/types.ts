/** A request as the mock core sees it: no socket, no stream. Adapters (node:http, fetch) build it. */
export interface MockRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Path and query exactly as received, still percent-encoded, e.g. `/api/admin/environments/project/default`. */
  url: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** A response as the mock core produces it; adapters turn it into bytes. */
export interface MockResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** Serialized body (JSON text), or undefined for none. */
  body: string | undefined;
}

/** The mock core: one call from request to response. Pure but for the state it owns. */
export type Handle = (request: MockRequest) => MockResponse;
