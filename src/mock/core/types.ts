/** A request as the mock sees it: no socket, no stream. Adapters (node:http, Fetch) build it. */
export interface MockRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Path and query exactly as received, still percent-encoded, e.g. `/api/admin/environments/project/default`. */
  url: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /**
   * Reads the request body as text; only the control API asks (the API's operations take no
   * body). Absent when the adapter gives none. Adapters bound its size.
   */
  body?: () => Promise<string>;
  /** Aborts when the client goes away: a delayed answer stops waiting. */
  signal?: AbortSignal;
  /** The peer's address, where the adapter knows one (node:http); the control API admits loopback peers. */
  remoteAddress?: string;
}

/** A response as the mock produces it; adapters turn it into bytes. */
export interface MockResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** Serialized body (JSON text), or undefined for none. */
  body: string | undefined;
  /** What the journal says of this answer besides its status (a Prefer refused, an answer forced); never sent. */
  note?: string;
}

/** The contract core: one synchronous call from request to response, over one Store. */
export type Handle = (request: MockRequest) => MockResponse;

/**
 * The mock with its layers (CORS, control API, sessions, forced answers, journal): a plain
 * request is still answered synchronously; a delayed one, or one that reads its body, later.
 */
export type MockHandle = (request: MockRequest) => MockResponse | Promise<MockResponse>;
