/**
 * Red team of `flag-admin proxy` (issue 19): backends and clients written from the RFCs and API.md,
 * not from the proxy's code. Everything here is loopback only and bounded: every server is closed
 * after its test, every wait has a timeout.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach } from 'vitest';
import { useCliProcesses, type CliChild } from '../cli-process.ts';

/** One request as a raw backend saw it: the head as bytes (latin1), and the body it announced. */
export interface SeenRequest {
  head: string;
  method: string;
  target: string;
  /** Header lines as sent, in order. */
  headers: [string, string][];
  body: Buffer;
}

export type RawHandler = (request: SeenRequest, socket: Socket) => void;

/** A backend on node:net that reads requests (Content-Length or no body, pipelining allowed) and lets `handle` write raw bytes. */
export async function rawBackend(handle: RawHandler): Promise<{ port: number; url: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const [requestLine, ...lines] = head.split('\r\n');
        const headers = lines.map((l): [string, string] => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]);
        const length = Number(headers.find(([n]) => n.toLowerCase() === 'content-length')?.[1] ?? 0);
        if (buffer.length < end + 4 + length) {
          // An `Expect: 100-continue` request waits for our 100 before its body (RFC 9110 §10.1.1).
          if (length > 0 && headers.some(([n, v]) => n.toLowerCase() === 'expect' && /100-continue/i.test(v)) && !socket.readableEnded) {
            if (!(socket as Socket & { sentContinue?: boolean }).sentContinue) {
              (socket as Socket & { sentContinue?: boolean }).sentContinue = true;
              socket.write('HTTP/1.1 100 Continue\r\n\r\n');
            }
          }
          return;
        }
        const body = buffer.subarray(end + 4, end + 4 + length);
        buffer = buffer.subarray(end + 4 + length);
        const [method, target] = requestLine!.split(' ');
        const request = { head, method: method!, target: target!, headers, body };
        seen.push(request);
        handle(request, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  closers.push(close);
  return { port, url: `http://127.0.0.1:${port}`, seen, close };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** Sends `bytes` on a fresh socket and reads until the server closes it (or `timeoutMs`: then rejects). */
export function rawExchange(port: number, bytes: Buffer | string | (Buffer | string)[], timeoutMs = 8000, gapMs = 0): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${timeoutMs} ms; got ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 400))}`));
    }, timeoutMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    const parts = Array.isArray(bytes) ? bytes : [bytes];
    (async () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        socket.write(part);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    })();
  });
}

export interface Message {
  statusLine: string;
  status: number;
  reason: string;
  version: string;
  /** Header lines as received (latin1: obs-text bytes kept one for one), in order. */
  headers: [string, string][];
  body: Buffer;
  trailers: [string, string][];
}

/** RFC 9110 §7.6.1: fields a proxy does not forward; plus those the Connection field names. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization'];

/** The end-to-end header lines, in order and case; `Date` left out when `dropDate` (a proxy adds one where none was sent, RFC 9110 §6.6.1). */
export function endToEnd(message: Message, dropDate = false): string[] {
  const named = message.headers
    .filter(([n]) => n.toLowerCase() === 'connection')
    .flatMap(([, v]) => v.split(',').map((t) => t.trim().toLowerCase()));
  return message.headers
    .filter(([n]) => !HOP_BY_HOP.includes(n.toLowerCase()) && !named.includes(n.toLowerCase()) && !n.toLowerCase().startsWith('proxy-'))
    .filter(([n]) => !(dropDate && n.toLowerCase() === 'date'))
    .map(([n, v]) => `${n}: ${v}`);
}

/**
 * Parses a byte stream of HTTP/1.x responses (RFC 9112 §6.3 framing: none for HEAD/1xx/204/304,
 * chunked with extensions and trailers, Content-Length, or to the close).
 */
export function parseResponses(raw: Buffer, methods: string[]): Message[] {
  const out: Message[] = [];
  let at = 0;
  let m = 0;
  while (at < raw.length) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end < 0) throw new Error(`incomplete head: ${JSON.stringify(raw.subarray(at).toString('latin1').slice(0, 300))}`);
    const [statusLine, ...lines] = raw.subarray(at, end).toString('latin1').split('\r\n');
    const match = /^(HTTP\/\d\.\d) (\d{3}) ?(.*)$/.exec(statusLine!);
    if (!match) throw new Error(`not a status line: ${JSON.stringify(statusLine)}`);
    const status = Number(match[2]);
    const headers = lines.map((l): [string, string] => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).replace(/^[ \t]+/, '').replace(/[ \t]+$/, '')]);
    const get = (name: string) => headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
    at = end + 4;
    const method = methods[m] ?? 'GET';
    let body: Buffer = Buffer.alloc(0);
    const trailers: [string, string][] = [];
    if (status >= 100 && status < 200) {
      out.push({ statusLine: statusLine!, status, reason: match[3]!, version: match[1]!, headers, body, trailers });
      continue;
    }
    m++;
    if (method === 'HEAD' || status === 204 || status === 304) {
      // no body
    } else if (get('transfer-encoding').join(',').toLowerCase().includes('chunked')) {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = raw.indexOf('\r\n', at);
        if (lineEnd < 0) throw new Error('chunk size line cut');
        const size = parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0]!.trim(), 16);
        at = lineEnd + 2;
        if (size === 0) break;
        parts.push(raw.subarray(at, at + size));
        at += size + 2;
      }
      for (;;) {
        const lineEnd = raw.indexOf('\r\n', at);
        if (lineEnd < 0) throw new Error('trailer section cut');
        const line = raw.subarray(at, lineEnd).toString('latin1');
        at = lineEnd + 2;
        if (line === '') break;
        trailers.push([line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]);
      }
      body = Buffer.concat(parts);
    } else if (get('content-length').length) {
      const length = Number(get('content-length')[0]);
      body = raw.subarray(at, at + length);
      at += length;
    } else {
      body = raw.subarray(at);
      at = raw.length;
    }
    out.push({ statusLine: statusLine!, status, reason: match[3]!, version: match[1]!, headers, body, trailers });
  }
  return out;
}

/** Spawns `flag-admin proxy --target TARGET --port 0 ...` and waits for its address. */
export function useProxy(env: NodeJS.ProcessEnv = process.env) {
  const run = useCliProcesses(env);
  return async (target: string, args: string[] = []): Promise<CliChild & { port: number; url: string }> => {
    const child = run(['proxy', '--target', target, '--port', '0', ...args]);
    const [, url] = await child.waitFor(/listening on (http:\/\/127\.0\.0\.1:(\d+)),/);
    return Object.assign(child, { url: url!, port: Number(new URL(url!).port) });
  };
}

/** `fetch`-free GET on loopback with a timeout, for the proxy's own routes. */
export async function getText(url: string, timeoutMs = 8000): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  return res.text();
}

/** Waits for a child's exit, killing it after `timeoutMs`. */
export async function exitOf(child: CliChild, timeoutMs = 15000): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
  const code = await Promise.race([child.exited, timeout]);
  clearTimeout(timer);
  if (code === 'timeout') {
    child.child.kill('SIGKILL');
    throw new Error(`no exit within ${timeoutMs} ms; stderr: ${child.err()}`);
  }
  return code;
}
