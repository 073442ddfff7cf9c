// The red team's hand-written HTTP/1.1 server (node:net), for targets whose point is the bytes on
// the wire: it parses requests in order (keep-alive, pipelining), runs the faithful flow of
// ./app.ts on each, and writes what the target's `write` makes of the answer. Rounds eight to
// eleven each had a copy; this is their union, and where the copies differed each round keeps
// what it was scored with through an option (named below with the round that needs it).
//
// The API, all a round needs:
//   serveNet(write, options?)      the server; `write(answer, request, close)` returns the bytes of
//                                  one answer (or { bytes, close } to decide the close itself)
//   plainBytes(answer, request, o) the ordinary serialization: status line, Date, the answer's
//                                  headers, Content-Length in bytes, no content on HEAD
//   chunkedBytes(answer, request, o) the same with the body chunked (size, chunk length, trailers)
//   statusLine(status)             `HTTP/1.1 200 OK`, with REASONS
//   keepsAlive(request)            RFC 9112 §9.3: whether the client lets the connection stay open
//   closeRequested(request)        `close` among the Connection options (RFC 9112 §9.6)
//   toOriginForm(request)          RFC 9112 §3.2.2: an absolute-form target as its origin form
//   NetRequest, NetWrite, NetOptions
//
// Example (a writer that ends every line with LF alone):
//   serveNet((answer, request, close) => plainBytes(answer, request, { close, eol: '\n' }))
import type { IncomingHttpHeaders } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { type Answer, faithfulParts, handle, type Parts, type RunningTarget, Store } from './app.ts';

/** A request as the server parsed it (the target as sent: origin- or absolute-form). */
export interface NetRequest {
  method: string;
  target: string;
  /** As on the request line, e.g. `HTTP/1.1` ('' when the line has none: only without `strict`). */
  version: string;
  headers: IncomingHttpHeaders;
  /** Names as the client wrote them, and values, alternating. */
  rawHeaders: string[];
}

/** The bytes of one answer: a Buffer, or the bytes and whether to close after them (overriding `close`). */
export type NetWrite = (answer: Answer, request: NetRequest, close: boolean) => Buffer | { bytes: Buffer; close?: boolean };

export interface NetOptions {
  /**
   * Parse as a careful server does (round eleven): a request line that is not `method target
   * HTTP/1.x`, a header line without a name, a head over 16 KiB (431), a Transfer-Encoding other
   * than chunked or beside Content-Length, or a Content-Length that is not digits get a 400 and
   * the close; chunked request bodies are read (RFC 9112 §3, §5, §6.3). Without it (rounds eight
   * to ten) the request line is split on spaces, lines without a name are skipped and the body is
   * `Number(Content-Length) || 0` bytes. Example: `{ strict: true }`.
   */
  strict?: boolean;
  /**
   * HTTP/1.1 requests without Host, and versions other than HTTP/1.0 and HTTP/1.1, get a 400 and
   * the close, as node:http answers them (RFC 9112 §3.2; rounds ten and eleven). Example: `{ requireHost: true }`.
   */
  requireHost?: boolean;
  /**
   * Which line of a repeated field the flow sees: 'last' (rounds eight, nine), 'first' (round ten),
   * or 'node' (round eleven, the default): the first for the fields node:http keeps once, the lines
   * joined with `, ` for the others.
   */
  duplicates?: 'first' | 'last' | 'node';
  /**
   * When the server closes after an answer, unless `write` says: default `!keepsAlive` (RFC 9112
   * §9.3; round ten). Rounds eight and nine close on `closeRequested` only (HTTP/1.0 too stays
   * open); round eleven on HTTP/1.0 or `closeRequested`.
   */
  closeWhen?: (request: NetRequest) => boolean;
  /** Run on each parsed request before the flow (round eleven: `toOriginForm`, a method rewrite). */
  rewrite?: (request: NetRequest) => NetRequest;
  /** The app's parts replaced (round eleven's error messages). */
  parts?: Partial<Parts>;
  /** Round eight's `request-body-not-consumed`: no body is read, its bytes start the next request. */
  ignoreRequestBody?: boolean;
  /** Round eight's `pipelined-rest-dropped-and-closed`: after the first request of a read, close if the read holds more. */
  firstRequestPerRead?: boolean;
  /** End the connection when it stays idle this long after a read (round nine; RFC 9112 §9.5 allows it at any time). */
  idleMs?: number;
  /** Destroy the socket after this long without traffic (round ten: 5000). */
  timeoutMs?: number;
}

export const REASONS: Record<number, string> = {
  200: 'OK',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
};

export const statusLine = (status: number) => `HTTP/1.1 ${status} ${REASONS[status] ?? 'Unknown'}`;

const connectionOptions = (request: NetRequest) =>
  String(request.headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim());

/** `close` among the Connection options (RFC 9112 §9.6). */
export const closeRequested = (request: NetRequest) => connectionOptions(request).includes('close');

/** RFC 9112 §9.3: HTTP/1.0 stays open only with `keep-alive`, HTTP/1.1 unless `close`. */
export const keepsAlive = (request: NetRequest) => (request.version === 'HTTP/1.0' ? connectionOptions(request).includes('keep-alive') : !closeRequested(request));

/** RFC 9112 §3.2.2: an absolute-form target names the same resource as its origin form. */
export const toOriginForm = (request: NetRequest): NetRequest => ({ ...request, target: request.target.replace(/^https?:\/\/[^/?#]*/i, '') || '/' });

export interface PlainOptions {
  /** Instead of `statusLine(answer.status)` (an HTTP/1.0 one, an empty reason). */
  statusLine?: string;
  /** Field lines after Content-Length (`Trailer: …`, `Connection: keep-alive`). */
  extra?: string[];
  /** Adds `Connection: close` last. */
  close?: boolean;
  /** The line end of the head (default CRLF, RFC 9112 §2.1). */
  eol?: string;
  /**
   * Content-Length on 204 and 304 too (round eleven's writer sent it on every answer; RFC 9110
   * §8.6 says never on 204). Default: none on either.
   */
  lengthAlways?: boolean;
}

/** The ordinary bytes of an answer, head and body in one Buffer (one write: a head and body written apart wait on Nagle and delayed ACKs). */
export function plainBytes(answer: Answer, request: { method: string }, options: PlainOptions = {}): Buffer {
  const body = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body, 'utf8');
  const lines = [options.statusLine ?? statusLine(answer.status), `Date: ${new Date().toUTCString()}`];
  for (const [name, value] of Object.entries(answer.headers)) lines.push(`${name}: ${value}`);
  // RFC 9110 §8.6: never a Content-Length on a 204; on HEAD the GET's (§9.3.2).
  if (options.lengthAlways || (answer.status !== 204 && answer.status !== 304)) lines.push(`Content-Length: ${body.length}`);
  lines.push(...(options.extra ?? []));
  if (options.close) lines.push('Connection: close');
  const eol = options.eol ?? '\r\n';
  const head = Buffer.from(lines.join(eol) + eol + eol, 'latin1');
  return request.method === 'HEAD' ? head : Buffer.concat([head, body]);
}

export interface ChunkedOptions {
  /** Bytes per chunk (default: the whole body in one chunk). */
  chunkSize?: number;
  /** The chunk-size line of the chunk at `index` (default lower-case hex, RFC 9112 §7.1). */
  size?: (length: number, index: number) => string;
  /** What follows the data chunks (default `0\r\n\r\n`: last-chunk, no trailers, CRLF). */
  terminator?: string;
  /** Field lines after Transfer-Encoding (`Trailer: …`). */
  extra?: string[];
  /** Adds `Connection: close` last. */
  close?: boolean;
}

/** The answer with its body chunked (RFC 9112 §7.1); 204 and 304 as plainBytes (§6.1: no Transfer-Encoding there), HEAD the head alone. */
export function chunkedBytes(answer: Answer, request: { method: string }, options: ChunkedOptions = {}): Buffer {
  if (answer.status === 204 || answer.status === 304) return plainBytes(answer, request, { close: options.close });
  const body = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body, 'utf8');
  const lines = [statusLine(answer.status), `Date: ${new Date().toUTCString()}`];
  for (const [name, value] of Object.entries(answer.headers)) lines.push(`${name}: ${value}`);
  lines.push('Transfer-Encoding: chunked', ...(options.extra ?? []));
  if (options.close) lines.push('Connection: close');
  const parts = [Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1')];
  if (request.method === 'HEAD') return parts[0]!;
  const step = options.chunkSize ?? Math.max(body.length, 1);
  const size = options.size ?? ((length: number) => length.toString(16));
  for (let at = 0, index = 0; at < body.length; at += step, index++) {
    const chunk = body.subarray(at, at + step);
    parts.push(Buffer.from(`${size(chunk.length, index)}\r\n`, 'latin1'), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(options.terminator ?? '0\r\n\r\n', 'latin1'));
  return Buffer.concat(parts);
}

/** Fields node:http keeps once (the first line wins), as the faithful app sees them. */
const SINGLE = new Set(['authorization', 'host', 'content-length', 'content-type', 'user-agent', 'if-modified-since', 'referer']);

/** The request line and fields of a head, or undefined when `strict` finds it malformed. */
function parseHead(head: string, options: NetOptions): NetRequest | undefined {
  const lines = head.split('\r\n');
  const words = lines[0]!.split(' ');
  const [method = 'GET', target = '/', version = ''] = words;
  if (options.strict && (!words[0] || !words[1] || !words[2] || words.length > 3 || !/^HTTP\/1\.[01]$/.test(version))) return undefined;
  const headers: IncomingHttpHeaders = {};
  const rawHeaders: string[] = [];
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) {
      if (options.strict) return undefined;
      continue;
    }
    const name = line.slice(0, colon);
    // RFC 9110 §5.5: spaces and tabs around a field value are not part of it.
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    rawHeaders.push(name, value);
    const lower = name.toLowerCase();
    const seen = headers[lower];
    const duplicates = options.duplicates ?? 'node';
    if (seen === undefined || duplicates === 'last') headers[lower] = value;
    else if (duplicates === 'node' && !SINGLE.has(lower)) headers[lower] = `${String(seen)}, ${value}`;
  }
  return { method, target, version, headers, rawHeaders };
}

/** Where the request's content ends (RFC 9112 §6.3: chunked, else Content-Length, else none), 'incomplete' or 'invalid'. */
function bodyEnd(buffer: Buffer, start: number, headers: IncomingHttpHeaders): number | 'incomplete' | 'invalid' {
  const te = headers['transfer-encoding'];
  if (te !== undefined) {
    if (!/^chunked$/i.test(String(te).trim()) || headers['content-length'] !== undefined) return 'invalid';
    let at = start;
    for (;;) {
      const lineEnd = buffer.indexOf('\r\n', at);
      if (lineEnd < 0) return 'incomplete';
      const size = Number.parseInt(buffer.subarray(at, lineEnd).toString('latin1').split(';')[0]!.trim(), 16);
      if (Number.isNaN(size)) return 'invalid';
      if (size === 0) {
        const trailerEnd = buffer.indexOf('\r\n\r\n', lineEnd);
        if (buffer.subarray(lineEnd, lineEnd + 4).toString('latin1') === '\r\n\r\n') return lineEnd + 4;
        return trailerEnd < 0 ? 'incomplete' : trailerEnd + 4;
      }
      at = lineEnd + 2 + size + 2;
      if (buffer.length < at) return 'incomplete';
    }
  }
  const length = headers['content-length'] === undefined ? 0 : Number(headers['content-length']);
  if (!Number.isInteger(length) || length < 0 || !/^\d+$/.test(String(headers['content-length'] ?? '0'))) return 'invalid';
  return buffer.length < start + length ? 'incomplete' : start + length;
}

const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';

/** Serves the faithful flow on a fresh store behind `write`, on 127.0.0.1 (port 0); answers go out in request order. */
export function serveNet(write: NetWrite, options: NetOptions = {}): Promise<RunningTarget> {
  const store = new Store();
  const parts = { ...faithfulParts, ...options.parts };
  const closeWhen = options.closeWhen ?? ((request: NetRequest) => !keepsAlive(request));
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => socket.destroy());
    if (options.timeoutMs !== undefined) socket.setTimeout(options.timeoutMs, () => socket.destroy());
    let buffer = Buffer.alloc(0);
    let idle: NodeJS.Timeout | undefined;
    socket.on('close', () => {
      sockets.delete(socket);
      clearTimeout(idle);
    });
    // Once this side has ended the connection, nothing more the client sends is run.
    let closing = false;
    const end = (bytes = '') => {
      closing = true;
      socket.end(bytes);
    };
    socket.on('data', (chunk: Buffer) => {
      if (options.idleMs !== undefined) {
        clearTimeout(idle);
        idle = setTimeout(() => socket.end(), options.idleMs);
      }
      buffer = Buffer.concat([buffer, chunk]);
      while (!closing) {
        const headEnd = buffer.indexOf('\r\n\r\n');
        if (headEnd < 0) {
          // RFC 6585 §5: a head larger than the server reads.
          if (options.strict && buffer.length > 16_384) end('HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
          return;
        }
        const parsed = parseHead(buffer.subarray(0, headEnd).toString('latin1'), options);
        // RFC 9112 §3.2: an HTTP/1.1 request without Host gets 400, as node:http answers it.
        if (!parsed || (options.requireHost && (!/^HTTP\/1\.[01]$/.test(parsed.version) || (parsed.version === 'HTTP/1.1' && parsed.headers.host === undefined)))) return end(BAD_REQUEST);
        let next: number | 'incomplete' | 'invalid';
        if (options.ignoreRequestBody) next = headEnd + 4;
        else if (options.strict) next = bodyEnd(buffer, headEnd + 4, parsed.headers);
        else next = headEnd + 4 + (Number(parsed.headers['content-length'] ?? 0) || 0);
        if (next === 'invalid') return end(BAD_REQUEST);
        if (next === 'incomplete' || buffer.length < next) return;
        buffer = buffer.subarray(next);
        const request = options.rewrite ? options.rewrite(parsed) : parsed;
        const answer = handle(store, parts, { method: request.method, url: request.target, headers: request.headers, rawHeaders: request.rawHeaders, socket });
        const rule = closeWhen(request);
        const written = write(answer, request, rule);
        const { bytes, close = rule } = Buffer.isBuffer(written) ? { bytes: written } : written;
        socket.write(bytes);
        if (close || (options.firstRequestPerRead && buffer.length > 0)) return end();
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    }),
  );
}
