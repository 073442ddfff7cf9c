import type { Duplex } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyTooLargeError, MOCK_ERROR_KINDS, errorResponse, randomIds } from '../core/errors.ts';
import { LARGE_BODY_CHARS, renderedBytes } from '../core/render-json.ts';
import type { MockHandle, MockRequest, MockResponse } from '../core/types.ts';
import { CONNECTION_ERROR_KINDS, DEFAULT_LIMITS, declaredBodyTooLarge, discardBody, guardServer, hostProblem, nodeHttp, type ConnectionLimits } from './node-connection-guards.ts';

const { createServer } = nodeHttp;

/** The interface served when none is named: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';

export interface ServeOptions extends ConnectionLimits {
  /** Port to listen on; 0 picks a free one. @default 4010 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /**
   * Called once per answered request, e.g. for an access log. The request is there to derive
   * facts from (createRequestFacts: operationId, session, whether a key came); a log must never
   * print its headers or body.
   */
  onResponse?: (line: { method: string; url: string; status: number; ms: number }, request: MockRequest) => void;
  /** Called when the handle throws: a bug of the mock, answered with 500. @default writes to stderr */
  onError?: (error: unknown) => void;
  /**
   * Takes the requests the handle answers with a ForwardAnswer (flag-admin proxy): the socket
   * request is handed over unread, with the headers the layers added (CORS) to send along.
   */
  forward?: (req: IncomingMessage, res: ServerResponse, headers: Record<string, string>) => void;
  /**
   * Takes a CONNECT (flag-admin proxy: to its one backend, as sent; RFC 9110 §9.3.6). Without it, a CONNECT is refused with 405:
   * the mock is not a proxy.
   */
  tunnel?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /**
   * The requests `forward` takes (flag-admin proxy: all but its own routes), known from the head.
   * Their `Expect` is not this server's to answer (RFC 9110 §10.1.1): node:http's own `100 Continue`
   * and the 417 to other expectations are left out, and the request is handled at once, so that the
   * field goes on and the backend's 100 or final answer reaches the client. Their body is
   * `forward`'s to limit (it streams it on and keeps none): `maxBodyBytes` is not applied here.
   * Other requests keep node:http's answers and the limit.
   */
  forwards?: (req: IncomingMessage) => boolean;
  /** The largest request header section read (node:http's maxHeaderSize); a larger one gets a 431 that says so. @default node:http's, 16 KiB */
  maxHeaderBytes?: number;
}

/** An answer that says "not mine": the adapter's `forward` streams the request to elsewhere. */
export interface ForwardAnswer extends MockResponse {
  forward: true;
}

export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The node:http view of a request. `signal` and `body` are made on first use only: the plain
 * path (a GET with no body, answered at once) allocates neither.
 */
class NodeMockRequest implements MockRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #maxBodyBytes: number;
  #controller: AbortController | undefined;
  #body: Promise<string> | undefined;

  constructor(req: IncomingMessage, res: ServerResponse, maxBodyBytes: number) {
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.headers = withRepeatedAuthorization(req);
    this.#req = req;
    this.#res = res;
    this.#maxBodyBytes = maxBodyBytes;
  }

  /** Read on demand: the socket asks the kernel (getpeername) each time, and the plain path never needs it. */
  get remoteAddress(): string | undefined {
    return this.#req.socket.remoteAddress;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = (this.#controller = new AbortController());
      // 'close' before the response finished: the client went away.
      if (this.#res.destroyed) controller.abort();
      else this.#res.once('close', () => this.#res.writableFinished || controller.abort());
    }
    return this.#controller.signal;
  }

  /** A method, not a closure made for every request (the plain path never reads a body). */
  body(): Promise<string> {
    return (this.#body ??= readBody(this.#req, this.#maxBodyBytes));
  }

  /** Whether the handle asked for the body; if not, it is drained so the connection stays usable. */
  get bodyRequested(): boolean {
    return this.#body !== undefined;
  }
}

/**
 * The node:http adapter: bytes in, a MockRequest to the handle, its MockResponse out as bytes.
 * A handle that answers synchronously is sent at once, without a promise.
 */
export async function serveHandler(handle: MockHandle, options: ServeOptions = {}): Promise<RunningServer> {
  const { host = DEFAULT_HOST, onResponse, onError = (error) => console.error(error) } = options;
  const limits = { ...DEFAULT_LIMITS, ...definedOnly(options) };
  const { maxBodyBytes } = limits;
  const fail = (error: unknown): MockResponse => {
    onError(error);
    return errorResponse(500, MOCK_ERROR_KINDS[500], error instanceof Error ? error.message : String(error), randomIds);
  };
  // Node checks the header and request timeouts this often (default every 30 s, which would let a slow client hold on three times longer).
  // requireHostHeader off: Node's own refusal of a missing Host is a bare 400; hostProblem() answers it in JSON.
  const server = createServer({ connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs), requireHostHeader: false, maxHeaderSize: options.maxHeaderBytes }, (req, res) => {
    const started = onResponse ? performance.now() : 0;
    const request = new NodeMockRequest(req, res, maxBodyBytes);
    const badHost = hostProblem(req);
    if (badHost) {
      res.shouldKeepAlive = false;
      finish(request, req, res, errorResponse(400, CONNECTION_ERROR_KINDS[400], badHost, randomIds), started);
      return;
    }
    if (declaredBodyTooLarge(req, maxBodyBytes) && !options.forwards?.(req)) {
      res.shouldKeepAlive = false;
      finish(request, req, res, errorResponse(413, CONNECTION_ERROR_KINDS[413], `The request body is larger than ${maxBodyBytes} bytes.`, randomIds), started);
      return;
    }
    let answer: MockResponse | Promise<MockResponse>;
    try {
      answer = handle(request);
    } catch (error) {
      answer = fail(error);
    }
    // Closures only for an answer that comes later; the plain path makes none.
    if (answer instanceof Promise) answer.then((response) => finish(request, req, res, response, started), (error: unknown) => finish(request, req, res, fail(error), started));
    else finish(request, req, res, answer, started);
  });
  const finish = (request: NodeMockRequest, req: IncomingMessage, res: ServerResponse, response: MockResponse, started: number) => {
    // The layers spread answers ({ ...response, headers }), so the mark survives CORS.
    if (options.forward && (response as ForwardAnswer).forward === true) return options.forward(req, res, response.headers);
    if (!request.bodyRequested) {
      // No operation takes a body: one that comes is read up to the cap and dropped.
      if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) req.resume();
      else discardBody(req, maxBodyBytes);
    }
    send(req, res, response);
    onResponse?.({ method: request.method, url: request.url, status: response.status, ms: performance.now() - started }, request);
  };
  const { forwards } = options;
  if (forwards) {
    // Without a listener node:http writes `100 Continue` itself before the request event; here only for requests that stay here.
    server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
      if (!forwards(req)) res.writeContinue();
      server.emit('request', req, res);
    });
  }
  guardServer(server, limits, undefined, options.tunnel, forwards, options.maxHeaderBytes);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function send(req: IncomingMessage, res: ServerResponse, response: MockResponse): void {
  // The client left while a delayed answer waited: nothing to write to.
  if (res.destroyed) return;
  const { body } = response;
  // A body rendered once per state change comes with its bytes encoded once (render-json.ts).
  const bytes = body !== undefined && body.length >= LARGE_BODY_CHARS ? renderedBytes(body) : undefined;
  const length = bytes ? bytes.length : body === undefined ? 0 : Buffer.byteLength(body);
  // RFC 9110 §8.6: no Content-Length in a 204 (a CORS preflight's answer) and none in a 304 but the 200's length; RFC 9112 §6.3: they end at their head.
  const bodiless = response.status === 204 || response.status === 304;
  res.writeHead(response.status, bodiless ? response.headers : { ...response.headers, 'content-length': String(length) });
  // Other bodies (errors, with their fresh ids) go out as strings, in one write with the head.
  res.end(bodiless || req.method === 'HEAD' ? undefined : (bytes ?? body));
}

function readBody(req: IncomingMessage, maxBodyBytes: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLargeError(`The request body is larger than ${maxBodyBytes} bytes.`));
      } else chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

/** The limits given, without keys set to undefined (which would hide a default). */
function definedOnly(options: ConnectionLimits): ConnectionLimits {
  const limits: Record<string, number> = {};
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof ConnectionLimits)[]) if (options[key] !== undefined) limits[key] = options[key];
  return limits;
}

/**
 * node:http keeps only the first of repeated Authorization lines; RFC 9110 §5.3 makes repeated
 * lines one list of values, and a list is no key (spec decisions malformed-requests,
 * key-in-header-only): the lines are joined as the list they are, so neither line is taken alone.
 */
function withRepeatedAuthorization(req: IncomingMessage): IncomingMessage['headers'] {
  const raw = req.rawHeaders;
  let lines: string[] | undefined;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') {
      count++;
      (lines ??= []).push(raw[i + 1]!);
    }
  }
  return count > 1 ? { ...req.headers, authorization: lines!.join(', ') } : req.headers;
}
