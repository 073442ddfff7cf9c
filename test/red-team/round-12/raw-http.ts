// The smallest hand-written HTTP/1.1 server round twelve needs, for the targets whose point is the
// bytes on the wire (a method table, a chunk framing) that node:http would not let through. It runs
// the faithful app's flow (app.ts `handle`) on requests it parses itself: request line, header
// fields, a Content-Length body (read whole, RFC 9112 §6.3), keep-alive and pipelining in order.
import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import type { Answer, ApiRequest, RunningTarget } from '../app.ts';

export interface RawOptions {
  /** What the server makes of the request line's method (the faithful reading keeps it as sent). */
  method?: (sent: string) => string;
  /** How a body is framed: Content-Length (faithful), or chunked with the given size writer. */
  chunkSize?: (bytes: number) => string;
}

function parseHead(head: string): { method: string; target: string; version: string; headers: IncomingHttpHeaders; rawHeaders: string[] } | undefined {
  const lines = head.split('\r\n');
  const line = /^(\S+) (\S+) HTTP\/(1\.[01])$/.exec(lines[0] ?? '');
  if (!line) return undefined;
  const headers: Record<string, string> = {};
  const rawHeaders: string[] = [];
  for (const field of lines.slice(1)) {
    const colon = field.indexOf(':');
    if (colon <= 0) return undefined;
    const name = field.slice(0, colon);
    const value = field.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    rawHeaders.push(name, value);
    const lower = name.toLowerCase();
    // RFC 9110 §5.3: repeated field lines are one comma-separated list (so two Authorization lines are no key).
    headers[lower] = lower in headers ? `${headers[lower]}, ${value}` : value;
  }
  return { method: line[1]!, target: line[2]!, version: line[3]!, headers, rawHeaders };
}

function write(socket: Socket, answer: Answer, head: boolean, version: string, close: boolean, options: RawOptions): void {
  const body = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body);
  const chunked = options.chunkSize !== undefined && version === '1.1';
  const fields: string[] = [`Date: ${new Date().toUTCString()}`];
  for (const [name, value] of Object.entries(answer.headers)) fields.push(`${name}: ${value}`);
  if (chunked) fields.push('Transfer-Encoding: chunked');
  else fields.push(`Content-Length: ${body.length}`);
  if (close) fields.push('Connection: close');
  const start = Buffer.from(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Unknown'}\r\n${fields.join('\r\n')}\r\n\r\n`);
  let content = head ? Buffer.alloc(0) : body;
  if (chunked && !head) {
    const parts: Buffer[] = [];
    for (let at = 0; at < body.length; at += 64) {
      const piece = body.subarray(at, at + 64);
      parts.push(Buffer.from(`${options.chunkSize!(piece.length)}\r\n`), piece, Buffer.from('\r\n'));
    }
    parts.push(Buffer.from('0\r\n\r\n'));
    content = Buffer.concat(parts);
  }
  socket.write(Buffer.concat([start, content]));
  if (close) socket.end();
}

/** Serves `onRequest` (the app's flow) over raw sockets on 127.0.0.1, port 0. */
export async function serveRaw(onRequest: (request: ApiRequest) => Answer, options: RawOptions = {}): Promise<RunningTarget> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (data) => {
      buffered = Buffer.concat([buffered, data]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) {
          if (buffered.length > 65536) socket.destroy();
          return;
        }
        const parsed = parseHead(buffered.subarray(0, end).toString('latin1'));
        const refuse = (status: number) => {
          write(socket, { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: STATUS_CODES[status] }, false, '1.1', true, {});
          buffered = Buffer.alloc(0);
        };
        // RFC 9112 §3.2: an HTTP/1.1 request without Host gets 400; a body framing this server does not read closes the connection.
        if (!parsed || (parsed.version === '1.1' && parsed.headers.host === undefined) || parsed.headers['transfer-encoding'] !== undefined) return refuse(400);
        const length = Number(parsed.headers['content-length'] ?? '0');
        if (!Number.isSafeInteger(length) || length < 0) return refuse(400);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.subarray(end + 4 + length);
        const method = options.method ? options.method(parsed.method) : parsed.method;
        const connection = String(parsed.headers.connection ?? '').toLowerCase();
        const close = parsed.version === '1.0' ? !connection.includes('keep-alive') : connection.includes('close');
        let answer: Answer;
        try {
          answer = onRequest({ method, url: parsed.target, headers: parsed.headers, rawHeaders: parsed.rawHeaders, socket });
        } catch {
          answer = { status: 500, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"error":"Internal Server Error"}' };
        }
        write(socket, answer, method === 'HEAD', parsed.version, close, options);
        if (close) return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
