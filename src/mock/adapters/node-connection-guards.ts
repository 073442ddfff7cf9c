import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { MOCK_ERROR_KINDS, randomIds, type NewId } from '../core/errors.ts';

/**
 * node:http as its CommonJS exports: an ESM import of node:http makes Node build the module's
 * ESM facade, which reads every export, and its WebSocket/MessageEvent getters load the bundled
 * undici (~25 ms of a ~150 ms start under --cpu-prof; bench/RESULTS.md, start-up).
 */
export const nodeHttp = process.getBuiltinModule('node:http');
const { STATUS_CODES } = nodeHttp;

/**
 * How much of the machine one client may hold, set on purpose rather than left at Node's
 * defaults (no connection cap, 60 s for headers, 300 s for a request): a flood of idle or slow
 * connections must not starve normal clients, and a body that never ends must not be read.
 * Each is a flag of `flag-admin mock` (src/cli/mock-args.ts).
 */
export interface ConnectionLimits {
  /** Open connections at most; past it the oldest idle ones are closed, and with none idle the newcomer gets 503. @default 1000 */
  maxConnections?: number;
  /** A request's headers must have arrived this long after it began (408 otherwise; slowloris). @default 10000 */
  headersTimeoutMs?: number;
  /** A whole request must have arrived within this (408 otherwise). @default 30000 */
  requestTimeoutMs?: number;
  /** A kept-alive connection with no request is closed after this. @default 5000 */
  keepAliveTimeoutMs?: number;
  /** Bytes of a request body at most: a larger declared body is refused with 413, an endless one is cut off. @default 1 MiB */
  maxBodyBytes?: number;
}

export const DEFAULT_LIMITS: Required<ConnectionLimits> = {
  maxConnections: 1000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxBodyBytes: 1024 * 1024,
};

/**
 * Names of the adapter's own refusals, said before any request reaches the mock. The body is the
 * spec's `{id, name, message}` like every other answer (API §7).
 */
export const CONNECTION_ERROR_KINDS = {
  400: 'BadRequestError',
  405: MOCK_ERROR_KINDS[405],
  408: 'RequestTimeoutError',
  413: 'PayloadTooLargeError',
  417: 'ExpectationFailedError',
  431: 'RequestHeaderFieldsTooLargeError',
  503: 'ServiceUnavailableError',
} as const;
type RefusalStatus = keyof typeof CONNECTION_ERROR_KINDS;

/** A socket left to close by the client after our answer is cut this long after. */
const LINGER_MS = 1000;

/** Node's parser rejections (llhttp `HPE_*` codes, and Node's own timeouts) as statuses. */
function statusOfParserError(code: string | undefined): RefusalStatus {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT') return 408;
  return 400;
}

/** Writes a whole JSON error answer on a raw socket and closes it: for where node:http gives us no response object. */
export function refuseOnSocket(socket: Duplex, status: RefusalStatus, message: string, newId: NewId = randomIds, headers: Record<string, string> = {}): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ id: newId(), name: CONNECTION_ERROR_KINDS[status], message });
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * Sets the limits on a node:http server and answers what Node itself would refuse without a body
 * or drop without a word: parser rejections (a `clientError` handler), `CONNECT` (a `connect`
 * handler; this is no proxy), and connections past the cap.
 */
export function guardServer(
  server: Server,
  limits: Required<ConnectionLimits>,
  newId: NewId = randomIds,
  tunnel?: (request: IncomingMessage, socket: Duplex, head: Buffer) => void,
  forwards?: (request: IncomingMessage) => boolean,
  /** The server's maxHeaderSize, said in its 431. @default node:http's */
  maxHeaderBytes: number = nodeHttp.maxHeaderSize,
): void {
  server.headersTimeout = limits.headersTimeoutMs;
  // Node requires requestTimeout >= headersTimeout (or 0).
  server.requestTimeout = Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs);
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Node's own default, kept: answer only when no answer has begun on this socket.
    const current = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || current?.headersSent) {
      socket.destroy();
      return;
    }
    const status = statusOfParserError(error.code);
    // The reason is llhttp's description (e.g. "Invalid method encountered"), never the client's bytes.
    const reason = (error as { reason?: string }).reason;
    const message =
      status === 431
        ? `The request's header section is larger than ${(maxHeaderBytes / 1024).toFixed(0)} KiB, the most this server reads.`
        : status === 408
          ? 'The request did not arrive in time.'
          : `The request is not valid HTTP/1.1${reason ? ` (${reason})` : ''}.`;
    refuseOnSocket(socket, status, message, newId);
  });

  // Node answers an Expect other than 100-continue with a bare 417 unless someone listens (RFC 9110 §10.1.1).
  // One that goes on (a request the proxy forwards) is the backend's to meet or refuse: handled as any request.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    if (forwards?.(request)) return void server.emit('request', request, response);
    request.resume();
    writeRefusal(response, 417, 'The Expect header asks for an expectation the mock does not meet: only 100-continue is one (RFC 9110 §10.1.1).', newId);
  });

  server.on('connect', (request: IncomingMessage, socket: Duplex, head: Buffer) => (tunnel ? tunnel(request, socket, head) : refuseOnSocket(socket, 405, 'CONNECT is not supported: this server is not a proxy.', newId)));

  // Connections by age (a Set keeps insertion order), and the ones with a request in flight.
  const open = new Set<Socket>();
  const busy = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      busy.delete(socket);
    });
    if (open.size <= limits.maxConnections) return;
    // Make room by closing the oldest connections with nothing in flight: idle keep-alives, and
    // connections that never sent a whole request. The newcomer is spared; it has not had a turn.
    for (const old of open) {
      if (open.size <= limits.maxConnections) break;
      if (old !== socket && !busy.has(old)) {
        open.delete(old);
        old.destroy();
      }
    }
    if (open.size > limits.maxConnections) refuseOnSocket(socket, 503, `The mock holds ${limits.maxConnections} connections, each with a request in flight; try again.`, newId, { 'retry-after': '1' });
  });
  // One shared listener, not a closure per request (bench/RESULTS.md, memory); a response closes once.
  function settled(this: ServerResponse) {
    busy.delete(this.req.socket);
  }
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    busy.add(request.socket);
    response.on('close', settled);
  });
}

/**
 * Reads and discards a request body no one asked for, stopping at the cap: past it the
 * connection is closed rather than the body read without end. (The answer was decided without
 * the body, since no operation takes one.)
 */
export function discardBody(request: IncomingMessage, maxBytes: number): void {
  let size = 0;
  request.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) request.socket.destroy();
  });
  request.resume();
}

/**
 * What is wrong with a request's Host, or undefined (RFC 9112 §3.2: "MUST respond with a 400"
 * to an HTTP/1.1 request without one, and to any request with more than one). Node keeps the
 * first of two Host lines, which the control API's rebinding check would judge alone. The server
 * is made with requireHostHeader off so that the answer is the mock's JSON, not Node's bare 400.
 */
export function hostProblem(request: IncomingMessage): string | undefined {
  if (request.headers.host === undefined) return request.httpVersionMajor === 1 && request.httpVersionMinor === 1 ? 'An HTTP/1.1 request needs a Host header (RFC 9112 §3.2).' : undefined;
  const raw = request.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') count++;
  return count > 1 ? `A request takes one Host header, not ${count} (RFC 9112 §3.2).` : undefined;
}

/** A refusal of the adapter's own, in the spec's `{id, name, message}` shape; the connection closes after it. */
export function writeRefusal(response: ServerResponse, status: RefusalStatus, message: string, newId: NewId = randomIds): void {
  const body = JSON.stringify({ id: newId(), name: CONNECTION_ERROR_KINDS[status], message });
  response.shouldKeepAlive = false;
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  response.end(body);
}

/** A declared body over the cap: refused up front with 413, before it is read. */
export function declaredBodyTooLarge(request: IncomingMessage, maxBytes: number): boolean {
  const length = request.headers['content-length'];
  return length !== undefined && Number(length) > maxBytes;
}
