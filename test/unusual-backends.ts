import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { freshMock, originForm } from '../conformance/test/serve-target.ts';
import type { Contract } from '../src/contract/index.ts';
import type { RunningServer } from '../src/mock/index.ts';

/**
 * Backends a proxy must pass on unchanged (issue 19, "bytes unchanged"): each a node:http server
 * on port 0 in front of the kit's mock, so what they say keeps the contract, dressed the way real
 * servers dress answers (compressed, chunked, after 1xx, with CORS of their own). Every answer is
 * computed once per distinct request and then replayed byte for byte (error ids, the Date header
 * included), so the answer a client gets directly and the one it gets through a proxy can be
 * compared as bytes.
 */

/** One answer of the backend, before it is dressed: raw header lines keep their case, order and repeats. */
interface Canned {
  status: number;
  reason: string;
  /** Flat [name, value, name, value, ...], as node:http's rawHeaders. */
  headers: string[];
  body: Buffer;
}

export type Dress = (req: IncomingMessage, res: ServerResponse, answer: Canned) => void;

/** The fixed Date every canned answer carries (RFC 9110 §6.6.1: an origin server with a clock sends one). */
const DATE = 'Tue, 24 Nov 2026 12:00:00 GMT';

function writeWhole(res: ServerResponse, answer: Canned, extra: string[] = []): void {
  // RFC 9110 §8.6: no Content-Length in a 204 (the preflight's answer), and in a 304 none but the 200's; both end at their head.
  const bodiless = answer.status === 204 || answer.status === 304;
  res.writeHead(answer.status, answer.reason, bodiless ? [...answer.headers, ...extra] : [...answer.headers, ...extra, 'Content-Length', String(answer.body.length)]);
  res.end(bodiless ? undefined : answer.body);
}

/** `always`: compressed also for a client that did not ask (RFC 9110 §12.5.3 lets a server; CDNs do). */
function compressed(encoding: 'gzip' | 'br' | 'deflate', compress: (body: Buffer) => Buffer, always = false): Dress {
  return (req, res, answer) => {
    const accepted = always || String(req.headers['accept-encoding'] ?? '').toLowerCase().includes(encoding);
    if (!accepted || answer.body.length === 0) return writeWhole(res, answer, ['Vary', 'Accept-Encoding']);
    const body = compress(answer.body);
    res.writeHead(answer.status, answer.reason, [...answer.headers, 'Vary', 'Accept-Encoding', 'Content-Encoding', encoding, 'Content-Length', String(body.length)]);
    res.end(body);
  };
}

/** Writes the body in three pieces, a turn of the event loop apart, with no Content-Length: chunked (RFC 9112 §7.1). */
const chunked: Dress = (_, res, answer) => {
  res.writeHead(answer.status, answer.reason, answer.headers);
  const third = Math.ceil(answer.body.length / 3);
  res.write(answer.body.subarray(0, third));
  setTimeout(() => {
    res.write(answer.body.subarray(third, 2 * third));
    setTimeout(() => res.end(answer.body.subarray(2 * third)), 2);
  }, 2);
};

/**
 * CORS of its own, as a backend that serves one web app does (Fetch standard §3.2): a preflight
 * from the app's origin answered 204 with what it allows, every answer to that origin with
 * Allow-Origin, credentials, the headers the app may read, and `Vary: Origin, Accept-Encoding`;
 * any other origin gets no CORS headers. Header names in mixed case and a repeated Set-Cookie too.
 */
function ownCors(allowed: () => string | undefined): Dress {
  return (req, res, answer) => {
    const origin = req.headers.origin;
    const cors = origin !== undefined && origin === allowed() ? ['Access-Control-Allow-Origin', origin, 'Access-Control-Allow-Credentials', 'true'] : [];
    const extra = ['Vary', 'Origin, Accept-Encoding', 'Set-Cookie', 'a=1; Path=/', 'Set-Cookie', 'b=2; Path=/; HttpOnly', 'X-Request-ID', 'req-7'];
    if (req.method === 'OPTIONS') {
      const preflight = cors.length > 0 && req.headers['access-control-request-method'] !== undefined;
      if (preflight) cors.push('Access-Control-Allow-Methods', 'GET, DELETE', 'Access-Control-Allow-Headers', 'Authorization', 'Access-Control-Max-Age', '5');
      return writeWhole(res, { status: preflight ? 204 : 401, reason: preflight ? 'No Content' : 'Unauthorized', headers: ['Date', DATE], body: Buffer.alloc(0) }, [...cors, ...extra]);
    }
    writeWhole(res, answer, [...cors, 'Access-Control-Expose-Headers', 'X-Request-ID', ...extra]);
  };
}

/** As Unleash 8.2.0 does (../shared/real-backends/unleash/recorded): an OPTIONS without a key is refused 401 like any other request. */
const refusesPreflights: Dress = (req, res, answer) => {
  if (req.method !== 'OPTIONS') return writeWhole(res, answer);
  const body = Buffer.from('{"name":"AuthenticationRequired","message":"You must log in to use Unleash.","id":"preflight-1"}');
  writeWhole(res, { status: 401, reason: 'Unauthorized', headers: ['Date', DATE, 'Content-Type', 'application/json; charset=utf-8'], body });
};

/**
 * 1xx before the answer (RFC 9110 §15.2): a client must be able to parse them even unasked. Never
 * to an HTTP/1.0 request (§15.2: a server MUST NOT send a 1xx to an HTTP/1.0 client), so these
 * backends stay conformant (the suite's rule no-interim-to-http-one-zero).
 */
function interimFirst(write: (res: ServerResponse) => void): Dress {
  return (req, res, answer) => {
    if (req.httpVersion === '1.0') return writeWhole(res, answer);
    write(res);
    setTimeout(() => writeWhole(res, answer), 5);
  };
}
const earlyHints = interimFirst((res) => res.writeEarlyHints({ link: '</app.css>; rel=preload; as=style' }));
const processing = interimFirst((res) => res.writeProcessing());
const unaskedContinue = interimFirst((res) => res.writeContinue());

/** A chunked body followed by trailer fields it announced (RFC 9112 §7.1.2, RFC 9110 §6.5): end-to-end fields a proxy hands on. */
const trailers: Dress = (req, res, answer) => {
  // Only a chunked body carries trailers: not an answer to HEAD, nor one without content (RFC 9112 §6.3).
  // Trailer fields need chunked framing, which an HTTP/1.0 client cannot read (RFC 9112 §6.1, §7.1.2): it gets the answer whole.
  if (req.method === 'HEAD' || answer.status === 204 || answer.status === 304 || answer.body.length === 0 || req.httpVersion !== '1.1') return writeWhole(res, answer);
  res.writeHead(answer.status, answer.reason, [...answer.headers, 'Trailer', 'X-Checksum, X-Render-Ms']);
  res.write(answer.body);
  res.addTrailers([['X-Checksum', `len-${answer.body.length}`], ['X-Render-Ms', '7']]);
  res.end();
};

/** Header fields larger than node:http's 16 KiB default (a long Content-Security-Policy, many cookies): legal, and common behind CDNs. */
const largeFields: Dress = (_, res, answer) =>
  writeWhole(res, answer, ['Content-Security-Policy', `default-src 'self'; script-src 'self' ${Array.from({ length: 700 }, (_, i) => `https://cdn${i}.example.com`).join(' ')}`, 'X-Trace', 'b'.repeat(4000)]);

export interface UnusualBackend {
  name: string;
  /** Whether it answers a compressed body to a client that accepts one. */
  encodes?: 'gzip' | 'br' | 'deflate';
  dress: Dress;
}

/** Correct, unusual backends: a proxy must hand each of their answers on as sent. */
export function unusualBackends(appOrigin: () => string | undefined = () => undefined): UnusualBackend[] {
  return [
    { name: 'plain (Content-Length)', dress: (_, res, answer) => writeWhole(res, answer) },
    { name: 'gzip', encodes: 'gzip', dress: compressed('gzip', (b) => gzipSync(b)) },
    { name: 'br', encodes: 'br', dress: compressed('br', (b) => brotliCompressSync(b)) },
    { name: 'gzip, asked or not', encodes: 'gzip', dress: compressed('gzip', (b) => gzipSync(b), true) },
    { name: 'deflate', encodes: 'deflate', dress: compressed('deflate', (b) => deflateSync(b)) },
    { name: 'chunked body', dress: chunked },
    { name: '103 Early Hints first', dress: earlyHints },
    { name: '102 Processing first', dress: processing },
    { name: '100 Continue unasked', dress: unaskedContinue },
    { name: 'CORS and Vary of its own', dress: ownCors(appOrigin) },
    { name: 'preflights refused 401', dress: refusesPreflights },
    { name: 'trailer fields after a chunked body', dress: trailers },
    { name: 'header fields over 16 KiB', dress: largeFields },
  ];
}

export interface ServedBackend extends RunningServer {
  /** `METHOD target` of each request as it reached the backend, in order. */
  received: string[];
}

async function listen(server: Server, received: string[]): Promise<ServedBackend> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The kit's mock behind `dress`. Each distinct request (method, target, key, origin, preflight
 * method, accepted encodings) is answered once by the mock and replayed as the same bytes after.
 */
export async function serveDressedMock(contract: Contract, dress: Dress): Promise<ServedBackend> {
  const mock = freshMock(contract);
  const canned = new Map<string, Canned>();
  const received: string[] = [];
  const server = createServer((req, res) => {
    // An absolute-form target names the resource its path names (RFC 9112 §3.2.2), as frameworks read it (Express's parseurl, Go's
    // net/http); the proxy forwards it in origin form (docs/proxy.md), so both backends log what they serve.
    const url = originForm(req.url ?? '/');
    received.push(`${req.method} ${url}`);
    res.sendDate = false;
    req.resume();
    const h = req.headers;
    const id = [req.method, url, h.authorization, h.origin, h['access-control-request-method'], h['accept-encoding']].join('\n');
    let answer = canned.get(id);
    if (!answer) {
      const mocked = mock.handle({ method: req.method ?? 'GET', url, headers: req.headers });
      if (mocked instanceof Promise) throw new Error('the mock answered later; the dressed backends serve only synchronous answers');
      const headers = ['Date', DATE];
      for (const [name, value] of Object.entries(mocked.headers)) headers.push(name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase()), value);
      answer = { status: mocked.status, reason: reasonOf(mocked.status), headers, body: Buffer.from(mocked.body ?? '') };
      canned.set(id, answer);
    }
    dress(req, res, answer);
  });
  return listen(server, received);
}

function reasonOf(status: number): string {
  return { 200: 'OK', 204: 'No Content', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 400: 'Bad Request' }[status] ?? 'Whatever';
}

/**
 * Hostile backends: they accept the connection and then never answer, or start an answer and
 * stall. A proxy in front of one must still serve its other clients and say what happened.
 */
export async function serveSilent(): Promise<ServedBackend> {
  const received: string[] = [];
  const server = createServer({ requestTimeout: 0, headersTimeout: 0, keepAliveTimeout: 0 }, (req) => {
    received.push(`${req.method} ${req.url}`);
    req.resume();
  });
  return listen(server, received);
}

/** Answers `/slow*` never, `/stall*` with half a body, `/echo*` with the method, framing and body it got, anything else at once with `ok <target>`. */
export async function servePartlySilent(): Promise<ServedBackend> {
  const received: string[] = [];
  const server = createServer({ requestTimeout: 0, headersTimeout: 0, keepAliveTimeout: 5000 }, (req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume();
    if (req.url?.startsWith('/slow')) return;
    if (req.url?.startsWith('/echo')) {
      const chunks: Buffer[] = [];
      req.removeAllListeners('data');
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(`${req.method} ${req.headers['content-length'] ?? '-'} ${req.headers['transfer-encoding'] ?? '-'} ${Buffer.concat(chunks).toString()}`));
      return;
    }
    if (req.url?.startsWith('/stall')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"environments":[');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`ok ${req.url}`);
  });
  return listen(server, received);
}
