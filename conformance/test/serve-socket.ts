import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { MockRequest, MockResponse, RunningServer } from '../../src/mock/index.ts';

/** A request as it came off the socket: the header names as the client spelled them, too. */
export interface SocketRequest extends MockRequest {
  /** [name, value] in the order and case sent (RFC 9110 §5.1: names are case-insensitive; a defect may not treat them so). */
  rawHeaders: [string, string][];
  /** The socket it came on, for targets that keep state per connection. */
  socket: Socket;
  /** The request line's HTTP version, e.g. `HTTP/1.1`. */
  version: string;
}

/** What a socket target writes for one request: a response to frame normally, or raw bytes written as they are. */
export type SocketAnswer = MockResponse | { raw: string };

/**
 * A server written on node:net, for defects node:http will not let a handler make: a HEAD
 * answer with a body that spills into the next answer on the connection, a decision that reads
 * the header name's case, state kept per connection. It reads a request's content by its
 * Content-Length (options: not at all, one request per read), keeps the connection alive unless
 * the client asks otherwise, and frames each MockResponse with Content-Length. Chunked request content is decoded (chunkSize).
 */
export interface SocketOptions {
  /**
   * Reads no content of the requests it picks: the bytes a Content-Length announces stay on the connection as the
   * start of the next request (RFC 9112 §6.3 makes them part of the message). A defect, for the
   * targets that show it; by default a request's content is read whole and handed over as `body`.
   */
  ignoreContent?: (request: SocketRequest) => boolean;
  /**
   * Answers the first request of each read of the socket only, then closes the connection when
   * the read held more (a server that takes one read for one request): pipelined requests after
   * the first get no answer. `announce` adds `Connection: close` to that answer (RFC 9112 §9.6).
   */
  firstRequestPerRead?: { announce: boolean };
  /**
   * How long after an answer to a request with `Connection: close` the server closes (ms), or `'never'` (a writer that ignores it,
   * RFC 9112 §9.6); at once by default.
   */
  closeAfter?: (request: SocketRequest) => number | 'never';
  /**
   * Answers a request without Host or with two Host lines like any other (RFC 9112 §3.2 asks for a 400, which this server gives, as
   * node:http does, unless told otherwise): a defect, for the targets that show it.
   */
  acceptAnyHost?: true;
  /**
   * Reads a chunk-size line (RFC 9112 §7.1: hex digits, then chunk extensions after `;`, which a recipient MUST ignore when it does
   * not know them, §7.1.1) as a number of bytes; NaN is a malformed chunk (400 and close). By default the hex digits before any `;`.
   * A target that reads the line otherwise shows a chunked decoder's defect.
   */
  chunkSize?: (line: string) => number;
}

/** The chunk-size line's size: its hex digits, extensions ignored (RFC 9112 §7.1, §7.1.1). */
const hexChunkSize = (line: string) => (/^[0-9a-f]+[ \t]*(;|$)/i.test(line) ? parseInt(line, 16) : NaN);

/**
 * Where a chunked content that starts at `start` ends, and its decoded bytes (RFC 9112 §7.1: chunks, the last chunk, a trailer
 * section read and dropped, the empty line); 'incomplete' while bytes are missing, 'invalid' for a size line `size` cannot read.
 */
function chunkedEnd(buffered: string, start: number, size: (line: string) => number): { end: number; body: string } | 'incomplete' | 'invalid' {
  let at = start;
  let body = '';
  for (;;) {
    const eol = buffered.indexOf('\r\n', at);
    if (eol < 0) return 'incomplete';
    const length = size(buffered.slice(at, eol));
    if (!Number.isInteger(length) || length < 0) return 'invalid';
    if (length === 0) {
      // The trailer section: field lines up to an empty line (RFC 9112 §7.1.2).
      let line = eol + 2;
      for (;;) {
        const next = buffered.indexOf('\r\n', line);
        if (next < 0) return 'incomplete';
        if (next === line) return { end: next + 2, body };
        line = next + 2;
      }
    }
    if (buffered.length < eol + 2 + length + 2) return 'incomplete';
    body += buffered.slice(eol + 2, eol + 2 + length);
    at = eol + 2 + length + 2;
  }
}

export async function serveSocket(handler: (request: SocketRequest) => SocketAnswer | Promise<SocketAnswer>, options: SocketOptions = {}): Promise<RunningServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = '';
    let queue = Promise.resolve();
    let closing = false;
    socket.on('data', (chunk) => {
      if (closing) return;
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end);
        const [requestLine, ...lines] = head.split('\r\n');
        const [method = 'GET', url = '/', version = 'HTTP/1.1'] = requestLine!.split(' ');
        // Only spaces and tabs around a value are not part of it (RFC 9110 §5.5); String.trim() would drop U+00A0 too.
        const rawHeaders = lines.map((line): [string, string] => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).replace(/^[ \t]+|[ \t]+$/g, '')]);
        const headers: Record<string, string> = {};
        // RFC 9110 §5.3: repeated Authorization lines are one list (the key is then invalid); other repeats keep the last, as before.
        for (const [name, value] of rawHeaders) headers[name.toLowerCase()] = name.toLowerCase() === 'authorization' && headers.authorization !== undefined ? `${headers.authorization}, ${value}` : value;
        const hosts = rawHeaders.filter(([name]) => name.toLowerCase() === 'host').length;
        // RFC 9112 §6.3: the content is chunked when Transfer-Encoding ends in chunked (§6.1: a recipient MUST be able to parse it;
        // the suite's bodyless-framing variants send it), else Content-Length bytes after the head.
        const ignored = options.ignoreContent?.({ method, url, headers, rawHeaders, socket, version }) ?? false;
        const chunked = !ignored && /(^|,)[ \t]*chunked[ \t]*$/i.test(headers['transfer-encoding'] ?? '');
        const decoded = chunked ? chunkedEnd(buffered, end + 4, options.chunkSize ?? hexChunkSize) : undefined;
        if (decoded === 'incomplete') return;
        if (decoded === 'invalid') {
          // RFC 9112 §6.3: a message whose length cannot be read is answered 400, and the connection closed.
          closing = true;
          queue = queue.then(() => void (socket.destroyed || socket.end(frame({ status: 400, headers: { 'content-type': 'text/plain', connection: 'close' }, body: 'Bad Request\n' }))));
          return;
        }
        const length = ignored || decoded ? 0 : Number(headers['content-length'] ?? 0) || 0;
        if (decoded === undefined && buffered.length < end + 4 + length) return;
        const body = decoded ? decoded.body : buffered.slice(end + 4, end + 4 + length);
        buffered = buffered.slice(decoded ? decoded.end : end + 4 + length);
        const request: SocketRequest = { method, url, headers, rawHeaders, socket, version, ...(body.length > 0 ? { body: () => Promise.resolve(body) } : {}) };
        const dropRest = options.firstRequestPerRead !== undefined && buffered.length > 0;
        queue = queue.then(async () => {
          // RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without Host or with more than one Host line.
          const answer = hosts !== 1 && !options.acceptAnyHost ? { status: 400, headers: { 'content-type': 'text/plain', connection: 'close' }, body: 'Bad Request\n' } : await handler(request);
          if (socket.destroyed) return;
          if ('raw' in answer) socket.write(answer.raw, 'latin1');
          else socket.write(frame(dropRest && options.firstRequestPerRead!.announce ? { ...answer, headers: { ...answer.headers, connection: 'close' } } : answer, method === 'HEAD'));
          const after = headers.connection?.toLowerCase() === 'close' ? (options.closeAfter?.(request) ?? 0) : 'never';
          if (dropRest || after === 0) socket.end();
          else if (after !== 'never') setTimeout(() => socket.end(), after).unref();
        });
        if (dropRest) {
          closing = true;
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const REASONS: Record<number, string> = { 200: 'OK', 204: 'No Content', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable', 409: 'Conflict', 500: 'Internal Server Error' };

/** A response's bytes, HTTP/1.1 framed with Content-Length; a HEAD answer carries the length of the body it does not send (RFC 9110 §9.3.2). */
export function frame(response: MockResponse, head = false): Buffer {
  const body = Buffer.from(response.body ?? '');
  const lines = [`HTTP/1.1 ${response.status} ${REASONS[response.status] ?? 'Status'}`, ...Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`)];
  if (response.status !== 204 && response.status !== 304) lines.push(`content-length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head || response.status === 204 || response.status === 304 ? Buffer.alloc(0) : body]);
}
