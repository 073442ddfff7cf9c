import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/mock/index.ts';
import { serveSocket, type SocketRequest } from '../test/serve-socket.ts';
import { createHttpClient, type Fetched, type HttpClient } from './http-client.ts';
import { createLlhttpClient, llhttpAvailable } from './llhttp-client.ts';

/**
 * The llhttp client (llhttp-client.ts: Node's own HTTPParser on plain sockets) against node:http's (http-client.ts), the run's
 * client before it: for each scenario, the same server script answers both, and every request's outcome (status, header fields,
 * body, or the error's code, llhttp's reason, message, what had arrived), the request bytes the server read, which connection
 * each went on, and bytesRead() must be the same. The scenarios are the answers the red team's framing targets give.
 */
type Step = (socket: Socket, request: SocketRequest) => void;
interface Scenario {
  name: string;
  /** The n-th request the server reads (0-based, over every connection) gets steps[n] (the last one repeats). */
  steps: Step[];
  requests: { method: string; path?: string; headers?: [string, string][]; pauseMs?: number }[];
  limits?: { timeoutMs?: number; maxBodyBytes?: number };
  maxHeaderBytes?: number;
  /** Bytes arrive on a connection while it is idle in the pool: see FREE_SOCKET_GUARD. */
  idleBytes?: true;
  /** Some requests go through node:http (FRAMING_FIELDS), on its pool: the same outcomes and bytes, connections of their own. */
  ownPool?: true;
}

/**
 * Node 24's Agent destroys a pooled connection on which bytes arrive while it is idle (installFreeSocketDataGuard, a security fix:
 * they would be read as the next request's answer); Node 22.19's Agent reuses it. The llhttp client always destroys it.
 */
const FREE_SOCKET_GUARD = process.getBuiltinModule('node:http').Agent.toString().includes('installFreeSocketDataGuard');

const write = (raw: string): Step => (socket) => void socket.write(raw, 'latin1');
const ok = (body = 'ok', extra = '') => `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const then = (...steps: Step[]): Step => (socket, request) => steps.forEach((step) => step(socket, request));
const later = (ms: number, step: Step): Step => (socket, request) => void setTimeout(() => socket.destroyed || step(socket, request), ms);
const end: Step = (socket) => void socket.end();
const destroy: Step = (socket) => void socket.destroy();
const silent: Step = () => {};
const gets = (n: number, extra: Partial<Scenario['requests'][number]> = {}) => Array.from({ length: n }, () => ({ method: 'GET', ...extra }));

const SCENARIOS: Scenario[] = [
  { name: 'kept-alive answers framed by Content-Length', steps: [write(ok('one')), write(ok('two'))], requests: gets(3) },
  { name: 'every method the run sends, and header lines in their case', steps: [write(ok())], requests: ['GET', 'HEAD', 'DELETE', 'PUT', 'POST', 'PATCH', 'OPTIONS', 'TRACE', 'SEARCH', 'get'].map((method) => ({ method, headers: [['accept', 'application/json'], ['X-API-Key', 'k'], ['Host', 'other.example']] })) },
  { name: "a request's own Connection, Transfer-Encoding, Expect or Trailer field (node:http frames and keeps the connection by them)", steps: [write(ok('bye', 'connection: close\r\n')), write(ok()), write('HTTP/1.1 100 Continue\r\n\r\n' + ok())], requests: [{ method: 'GET', headers: [['connection', 'close']] }, { method: 'GET' }, { method: 'GET', headers: [['Connection', 'keep-alive']] }, { method: 'DELETE', headers: [['transfer-encoding', 'chunked']] }, { method: 'GET', headers: [['expect', '100-continue']] }, { method: 'GET', headers: [['trailer', 'x-a']] }, { method: 'HEAD', headers: [['connection', 'keep-alive']] }, { method: 'GET' }], ownPool: true },
  { name: 'a chunked body with extensions and a trailer section', steps: [write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nx-t: 1\r\n\r\n')], requests: gets(2) },
  { name: 'a chunked body in pieces, written apart', steps: [then(write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nab'), later(20, write('c\r\n0\r\n\r\n')))], requests: gets(2) },
  { name: 'interim answers before the answer (100, 103), and 101 without Upgrade', steps: [write(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n${ok()}`)], requests: gets(2) },
  { name: '101 Switching Protocols with Upgrade to a request that asked none', steps: [write('HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\n'), write(ok())], requests: gets(2), limits: { timeoutMs: 300 } },
  { name: '204 and 304 with body bytes after them', steps: [write('HTTP/1.1 204 No Content\r\n\r\nXYZ'), write('HTTP/1.1 304 Not Modified\r\ncontent-length: 5\r\n\r\n'), write(ok())], requests: gets(4) },
  { name: 'a HEAD answered with its body, then a GET', steps: [write(ok('body!')), write(ok())], requests: [{ method: 'HEAD' }, { method: 'GET' }, { method: 'GET' }] },
  { name: 'a body read to the close (no framing)', steps: [then(write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nall of it'), later(10, end))], requests: gets(2) },
  { name: 'HTTP/1.0 answers, with and without keep-alive', steps: [write('HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\nok'), write('HTTP/1.0 200 OK\r\nconnection: keep-alive\r\ncontent-length: 2\r\n\r\nok')], requests: gets(3) },
  { name: 'Connection: close announced, then the next request on a new connection', steps: [then(write(ok('bye', 'connection: close\r\n')), later(5, end)), write(ok())], requests: gets(3) },
  { name: 'Connection: close announced and the connection left open', steps: [write(ok('bye', 'connection: close\r\n')), write(ok())], requests: gets(3) },
  { name: 'Keep-Alive: timeout=1 (below the agent buffer) and timeout=5', steps: [write(ok('a', 'keep-alive: timeout=1\r\n')), write(ok('b', 'keep-alive: timeout=5\r\n'))], requests: gets(4) },
  { name: 'Content-Length and Transfer-Encoding both', steps: [write('HTTP/1.1 200 OK\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'), write(ok())], requests: gets(2) },
  { name: 'two different Content-Length fields', steps: [write('HTTP/1.1 200 OK\r\ncontent-length: 3\r\ncontent-length: 4\r\n\r\nabcd'), write(ok())], requests: gets(2) },
  { name: 'lines ending in LF alone', steps: [write('HTTP/1.1 200 OK\ncontent-length: 2\n\nok')], requests: gets(1) },
  { name: 'bytes that are not HTTP', steps: [then(write('SSH-2.0-OpenSSH_9.6\r\n'), later(5, end))], requests: gets(1) },
  { name: 'a control character in a field value', steps: [write('HTTP/1.1 200 OK\r\nx-a: a\u0001b\r\ncontent-length: 2\r\n\r\nok')], requests: gets(1) },
  { name: 'a space before the colon, and obs-fold', steps: [write('HTTP/1.1 200 OK\r\nx-a : 1\r\ncontent-length: 2\r\n\r\nok'), write('HTTP/1.1 200 OK\r\nx-a: 1\r\n 2\r\ncontent-length: 2\r\n\r\nok')], requests: gets(2) },
  { name: 'a status line without reason, and a three-digit odd status', steps: [write('HTTP/1.1 200\r\ncontent-length: 2\r\n\r\nok'), write('HTTP/1.1 299 Odd\r\ncontent-length: 0\r\n\r\n')], requests: gets(2) },
  { name: 'a header section over maxHeaderBytes', steps: [write(`HTTP/1.1 200 OK\r\n${'x-pad: 0123456789\r\n'.repeat(100)}content-length: 2\r\n\r\nok`), write(ok())], requests: gets(2), maxHeaderBytes: 1024 },
  { name: '2,100 header lines, some written apart', steps: [then(write(`HTTP/1.1 200 OK\r\n${'a: 1\r\n'.repeat(1000)}`), later(10, write(`${'b: 2\r\n'.repeat(1100)}content-length: 2\r\n\r\nok`)))], requests: gets(1) },
  { name: 'a body cut short by the close', steps: [then(write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial'), later(10, destroy)), write(ok())], requests: gets(2) },
  { name: 'a body cut short, head and body in one write with the close', steps: [then(write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial'), end), write(ok())], requests: gets(2) },
  { name: 'a chunked body cut short by the close', steps: [then(write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n'), later(10, end)), write(ok())], requests: gets(2) },
  { name: 'an impossible chunk size after a good chunk, in one write', steps: [write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\nzz\r\n'), write(ok())], requests: gets(2) },
  { name: 'an impossible chunk size after a good chunk, written apart', steps: [then(write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n'), later(20, write('zz\r\n'))), write(ok())], requests: gets(2) },
  { name: 'two answers to one request', steps: [write(ok('one') + ok('two')), write(ok())], requests: gets(3) },
  { name: 'an answer and garbage after it, in one write and apart', steps: [write(`${ok('one')}garbage`), then(write(ok('two')), later(10, write('late'))), write(ok())], requests: gets(4, { pauseMs: 30 }), idleBytes: true },
  { name: 'the connection closed before any answer, fresh and after a pause', steps: [write(ok()), destroy, write(ok())], requests: gets(3, { pauseMs: 40 }) },
  { name: 'the connection closed before any answer, back to back', steps: [write(ok()), destroy, write(ok())], requests: gets(3) },
  { name: 'the connection ended (FIN) before any answer', steps: [end, write(ok())], requests: gets(2) },
  { name: 'silence', steps: [silent], requests: gets(1), limits: { timeoutMs: 150 } },
  { name: 'a status line, then silence', steps: [write('HTTP/1.1 200 OK\r\ncontent-le')], requests: gets(1), limits: { timeoutMs: 150 } },
  { name: 'a head and part of the body, then silence', steps: [write('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc')], requests: gets(1), limits: { timeoutMs: 150 } },
  { name: 'a body over the cap, by Content-Length and chunked', steps: [write(ok('x'.repeat(300))), write(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${'64\r\n' + 'y'.repeat(100) + '\r\n'}${'64\r\n' + 'y'.repeat(100) + '\r\n'}0\r\n\r\n`), write(ok())], requests: gets(3), limits: { maxBodyBytes: 150 } },
  { name: 'a body that is not UTF-8, and duplicate fields joined', steps: [write('HTTP/1.1 200 OK\r\nx-d: 1\r\nX-D: 2\r\nset-cookie: a=1\r\nset-cookie: b=2\r\ncontent-length: 2\r\n\r\n\u00ff\u00fe')], requests: gets(1) },
];

function comparable(fetched: Fetched): unknown {
  if (!('error' in fetched)) return fetched;
  const error = fetched.error as { code?: unknown; reason?: unknown; message?: unknown; bytesParsed?: unknown; rawPacket?: unknown };
  return { deadline: fetched.deadline, received: fetched.received, error: { name: (fetched.error as Error).constructor?.name, code: error.code, reason: error.reason, message: error.message, bytesParsed: error.bytesParsed, rawPacket: Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1') : error.rawPacket } };
}

async function run(scenario: Scenario, make: (options: { maxHeaderBytes: number }) => HttpClient): Promise<unknown> {
  let n = 0;
  const seen: { line: string; rawHeaders: [string, string][]; socket: number }[] = [];
  const sockets: Socket[] = [];
  const server: RunningServer = await serveSocket((request) => {
    if (!sockets.includes(request.socket)) sockets.push(request.socket);
    seen.push({ line: `${request.method} ${request.url} ${request.version}`, rawHeaders: request.rawHeaders, socket: sockets.indexOf(request.socket) });
    const step = scenario.steps[Math.min(n++, scenario.steps.length - 1)]!;
    step(request.socket, request);
    return { raw: '' };
  }, { closeAfter: () => 'never', acceptAnyHost: true });
  const client = make({ maxHeaderBytes: scenario.maxHeaderBytes ?? 256 * 1024 });
  const outcomes: unknown[] = [];
  try {
    for (const request of scenario.requests) {
      if (request.pauseMs) await new Promise((resolve) => setTimeout(resolve, request.pauseMs));
      const fetched = await client.request(`${server.url}${request.path ?? '/p?q=1'}`, { method: request.method, headers: request.headers ?? [] }, { timeoutMs: 1000, maxBodyBytes: 1 << 20, ...scenario.limits }, (bytes) => bytes.toString('utf8'));
      outcomes.push(comparable(fetched));
    }
    // Each run has a server of its own: its port is not part of what is compared.
    return JSON.parse(JSON.stringify({ outcomes, seen, bytesRead: client.bytesRead() }).replaceAll(`127.0.0.1:${server.port}`, 'SERVER'));
  } finally {
    await client.close();
    await server.close();
  }
}

describe('the llhttp client answers as node:http did', () => {
  it('is available on this Node (require("_http_common").HTTPParser, no flag, no warning)', () => {
    expect(llhttpAvailable()).toBe(true);
  });
  for (const scenario of SCENARIOS) {
    it(scenario.name, async () => {
      const before = (await run(scenario, createHttpClient)) as { seen: { socket: number }[] };
      const after = (await run(scenario, createLlhttpClient)) as { seen: { socket: number }[] };
      const anyConnection = (run: { seen: { socket: number }[] }) => ({ ...run, seen: run.seen.map((s) => ({ ...s, socket: 0 })) });
      if (scenario.ownPool) {
        expect(anyConnection(after)).toEqual(anyConnection(before));
        return;
      }
      if (scenario.idleBytes) {
        // The request after the idle bytes (the third: the second's connection got them) goes on a connection of its own.
        expect(after.seen[2]!.socket).not.toBe(after.seen[1]!.socket);
        if (!FREE_SOCKET_GUARD) {
          // Node without the guard: the same outcomes and bytes, on other connections.
          expect(anyConnection(after)).toEqual(anyConnection(before));
          return;
        }
      }
      expect(after).toEqual(before);
    });
  }
});
