import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { MockRequest, MockResponse, RunningServer } from '../../src/mock/index.ts';

/** A request as it came off the socket: the header names as the client spelled them, too. */
export interface SocketRequest extends MockRequest {
  /** [name, value] in the order and case sent (RFC 9110 §5.1: names are case-insensitive; a defect may not treat them so). */
  rawHeaders: [string, string][];
  /** The socket it came on, for targets that keep state per connection. */
  socket: Socket;
}

/** What a socket target writes for one request: a response to frame normally, or raw bytes written as they are. */
export type SocketAnswer = MockResponse | { raw: string };

/**
 * A server written on node:net, for defects node:http will not let a handler make: a HEAD
 * answer with a body that spills into the next answer on the connection, a decision that reads
 * the header name's case, state kept per connection. It reads requests without bodies (the
 * suite sends none), keeps the connection alive unless the client asks otherwise, and frames
 * each MockResponse with Content-Length.
 */
export async function serveSocket(handler: (request: SocketRequest) => SocketAnswer | Promise<SocketAnswer>): Promise<RunningServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = '';
    let queue = Promise.resolve();
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end);
        buffered = buffered.slice(end + 4);
        const [requestLine, ...lines] = head.split('\r\n');
        const [method = 'GET', url = '/'] = requestLine!.split(' ');
        // Only spaces and tabs around a value are not part of it (RFC 9110 §5.5); String.trim() would drop U+00A0 too.
        const rawHeaders = lines.map((line): [string, string] => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).replace(/^[ \t]+|[ \t]+$/g, '')]);
        const headers: Record<string, string> = {};
        for (const [name, value] of rawHeaders) headers[name.toLowerCase()] = value;
        const request: SocketRequest = { method, url, headers, rawHeaders, socket };
        queue = queue.then(async () => {
          const answer = await handler(request);
          if (socket.destroyed) return;
          if ('raw' in answer) socket.write(answer.raw, 'latin1');
          else socket.write(frame(answer, method === 'HEAD'));
          if (headers.connection?.toLowerCase() === 'close') socket.end();
        });
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
