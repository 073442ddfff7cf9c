// The client of the run's ordinary requests: Node's own node:http with a keep-alive Agent, so the
// answers are parsed by Node's llhttp (the parser undici compiles to WebAssembly; same strictness,
// same reasons), without undici's per-request cost or its start-up. Measured on this machine
// against the mock, 250 sequential kept-alive requests in a fresh process: undici ~0.53 ms of CPU
// per request and ~30 ms to load (it pulls in node:http2, tls and crypto); node:http ~0.25 ms and
// ~3 ms (bench/RESULTS.md, "flag-admin check CPU"). node:http also reads past an unasked
// 100 Continue as RFC 9110 §15.2 asks, where undici refused the answer outright.
import { isUtf8 } from 'node:buffer';
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** What one request got: an answer read whole, or why not (with what had arrived of it). */
export type Fetched =
  | { error: unknown; deadline: boolean; received?: { status: number; headers: Record<string, string>; body: string } }
  | { status: number; headers: Record<string, string>; body: string; overflow: boolean; notUtf8?: true };

export interface HttpClient {
  /** One request under a single deadline (connect to last byte) and a body cap. Never throws. */
  request(url: string, init: { method: string; headers: readonly (readonly [string, string])[] }, limits: { timeoutMs: number; maxBodyBytes: number }, text: (bytes: Buffer) => string): Promise<Fetched>;
  /** Bytes read so far by every connection the client opened, open and closed ones alike. */
  bytesRead(): number;
  close(): Promise<void>;
}

/**
 * Methods after whose request undici, the suite's client before, sent `content-length: 0`
 * (its expectsPayload, lib/dispatcher/client-h1.js); kept so that targets see the bytes they saw.
 */
const EXPECTS_PAYLOAD = new Set(['PUT', 'POST', 'PATCH']);
/** The methods Node's client sends without any framing of content when there is none (its useChunkedEncodingByDefault is false for them). */
const UNFRAMED_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** A HEAD answer's connection is not reused (a server may send a body anyway), as undici did: the request says `connection: close`. */
export function closesAfter(method: string): boolean {
  return method === 'HEAD';
}

/**
 * A request's header lines as both clients write them (name, value, name, value, ...): undici's, in its order: host, connection,
 * the request's own, content-length. `method` is upper case.
 */
export function headerLines(target: URL, method: string, own: readonly (readonly [string, string])[]): string[] {
  // A Host among the request's own (a variant naming this server otherwise) takes the URL's place.
  const named = own.find(([name]) => name.toLowerCase() === 'host');
  const headers: string[] = ['host', named?.[1] ?? target.host, 'connection', closesAfter(method) ? 'close' : 'keep-alive'];
  for (const [name, value] of own) if (name.toLowerCase() !== 'host') headers.push(name, value);
  // Node frames a request of any other method than these (SEARCH, PROPFIND, ...) as chunked, a last chunk and all, unless a
  // Content-Length says there is no content (RFC 9112 §6.3): then it sends that, as undici did for PUT, POST and PATCH.
  if (EXPECTS_PAYLOAD.has(method) || !UNFRAMED_METHODS.has(method)) headers.push('content-length', '0');
  return headers;
}

/** A pooled connection idle this long may have met the server's keep-alive timeout as it was reused (see attempt's retry). */
export const STALE_AFTER_IDLE_MS = 20;

/** The connection went away before any answer: reset, broken pipe, or closed (Node's "socket hang up"). */
export function isConnectionLoss(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

/** Node's error for a request we ended at the deadline: told apart from the target's own errors. */
export class DeadlineError extends Error {
  constructor() {
    super('deadline');
  }
}

/**
 * A client on kept-alive connections, one pool per scheme. The most recently freed connection is
 * reused first (Node's 'lifo'): requests one after another stay on one connection, as they did on
 * undici's pool (its first free one), rather than rotating through every connection a batch
 * opened; a connection-dependent defect is provoked on purpose by the variants' chains
 * (send-chain.ts), not by the pool's choice. The CommonJS modules: an ESM import
 * of node:http builds a namespace whose lazy getters load Node's bundled undici (send.ts).
 */
export function createHttpClient(options: { maxHeaderBytes: number }): HttpClient {
  /** Per scheme, the module and its pool: taken once (process.getBuiltinModule costs a lookup of its own on every call). */
  const clients = new Map<string, { module: typeof import('node:http'); agent: Agent }>();
  const clientFor = (protocol: string): { module: typeof import('node:http'); agent: Agent } => {
    let client = clients.get(protocol);
    if (!client) {
      // node:https (and with it tls) loads only for an https target.
      const module = protocol === 'https:' ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http');
      const agent = new module.Agent({ keepAlive: true, scheduling: 'lifo' });
      // A connection on which the suite sent `connection: close` is never reused: the server may close it
      // right after its answer (RFC 9112 §9.6), and Node, which reads only the answer's own Connection
      // field, would otherwise pool it (Agent#keepSocketAlive: a falsy result destroys the socket).
      const keep = agent.keepSocketAlive.bind(agent);
      agent.keepSocketAlive = (socket) => !closing.has(socket) && keep(socket);
      agent.on('free', (socket: Socket) => freedAt.set(socket, performance.now()));
      client = { module: module as typeof import('node:http'), agent };
      clients.set(protocol, client);
    }
    return client;
  };
  /** When each pooled connection was last freed: how long it sat idle before a request took it. */
  const freedAt = new WeakMap<object, number>();
  /** Sockets that carried a request with `connection: close`. */
  const closing = new WeakSet<object>();
  const open = new Set<Socket>();
  let closedBytes = 0;
  const track = (socket: Socket) => {
    if (open.has(socket)) return;
    open.add(socket);
    socket.once('close', () => {
      closedBytes += socket.bytesRead;
      open.delete(socket);
    });
  };

  return {
    request(url, init, limits, text) {
      return attempt(url, init, limits, text, false);
    },
    bytesRead: () => closedBytes + [...open].reduce((sum, socket) => sum + socket.bytesRead, 0),
    async close() {
      for (const { agent } of clients.values()) agent.destroy();
    },
  };

  function attempt(url: string, init: Parameters<HttpClient['request']>[1], limits: Parameters<HttpClient['request']>[2], text: Parameters<HttpClient['request']>[3], retried: boolean): Promise<Fetched> {
      return new Promise<Fetched>((resolve) => {
        let head: { status: number; headers: Record<string, string> } | undefined;
        const chunks: Buffer[] = [];
        let size = 0;
        let settled = false;
        let deadline = false;
        let request: ClientRequest | undefined;
        let closes = false;
        const settle = (outcome: Fetched) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(outcome);
        };
        const fail = (error: unknown) => {
          // A kept-alive connection the server closed while it sat idle (its keep-alive timeout), taken from the pool just as
          // the close arrived: no byte of an answer came, so the request goes once more on another connection (RFC 9112
          // §9.3.1; Node's documented retry on reusedSocket). Only after a pause: a connection that dies on a request sent
          // right after the one before is the server dropping it, a finding, not this race.
          const socket = request?.socket;
          const idle = socket ? performance.now() - (freedAt.get(socket) ?? Infinity) : 0;
          if (!retried && !settled && !deadline && head === undefined && request?.reusedSocket && idle >= STALE_AFTER_IDLE_MS && isConnectionLoss(error)) {
            settled = true;
            clearTimeout(timer);
            request.destroy();
            resolve(attempt(url, init, limits, text, true));
            return;
          }
          settle({ error, deadline, ...(head ? { received: { ...head, body: Buffer.concat(chunks).toString('utf8') } } : {}) });
          request?.destroy();
        };
        const timer = setTimeout(() => {
          deadline = true;
          fail(new DeadlineError());
        }, limits.timeoutMs);
        try {
          // The URL as undici took it: parsed by WHATWG URL (dot segments, percent-encoding), then origin and path.
          const target = new URL(url);
          const method = init.method.toUpperCase();
          closes = closesAfter(method);
          const headers = headerLines(target, method, init.headers);
          const { module, agent } = clientFor(target.protocol);
          request = module.request({
            agent,
            protocol: target.protocol,
            hostname: target.hostname.replace(/^\[|\]$/g, ''),
            port: target.port,
            method,
            path: `${target.pathname}${target.search}`,
            headers: headers as unknown as Record<string, string>,
            setHost: false,
            maxHeaderSize: options.maxHeaderBytes,
            // Strict parsing whatever NODE_OPTIONS says (--insecure-http-parser): a framing defect is a finding.
            insecureHTTPParser: false,
          });
          // Every header line the answer has (Node keeps the first 2,000 by default; maxHeaderBytes still bounds them).
          request.maxHeadersCount = 0;
        } catch (error) {
          // An invalid header or URL (Node validates them before anything is sent).
          fail(error);
          return;
        }
        let answer: IncomingMessage | undefined;
        request.on('socket', track);
        if (closes) request.on('socket', (socket: Socket) => closing.add(socket));
        request.on('error', (error) => {
          // Bytes after a complete answer (a HEAD answered with a body, more than Content-Length) are
          // parsed as the next answer and fail; they belong to no answer, and this one stands, as undici
          // had it. Its 'end' still comes: Node destroys only an incomplete answer with the socket.
          if (answer?.complete) return;
          fail(error);
        });
        request.on('response', (response: IncomingMessage) => {
          answer = response;
          head = { status: response.statusCode ?? 0, headers: joinedHeaders(response.rawHeaders) };
          response.on('data', (chunk: Buffer) => {
            if (settled) return;
            if (size + chunk.length > limits.maxBodyBytes) {
              // Over the cap: nothing more is read, the connection is dropped.
              settle({ ...head!, body: '', overflow: true });
              request?.destroy();
              return;
            }
            chunks.push(chunk);
            size += chunk.length;
          });
          response.on('end', () => {
            const bytes = Buffer.concat(chunks);
            settle({ ...head!, body: text(bytes), overflow: false, ...(isUtf8(bytes) ? {} : { notUtf8: true as const }) });
          });
          response.on('error', fail);
          response.on('close', () => {
            if (!response.complete) fail(Object.assign(new Error('the connection closed before a complete response'), { code: 'ECONNRESET' }));
          });
        });
        request.end();
      });
  }
}

/** Header fields by lower-case name, repeated fields joined with ", " (RFC 9110 §5.3), none dropped (Node's `headers` keeps only the first of some). */
export function joinedHeaders(raw: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}
