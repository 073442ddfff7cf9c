import { execFile } from 'node:child_process';
import type { Socket } from 'node:net';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/mock/index.ts';
import { serveSocket } from '../test/serve-socket.ts';
import { createHttpClient, type Fetched, type HttpClient } from './http-client.ts';
import { createLlhttpClient } from './llhttp-client.ts';
import { MAX_HEADER_BYTES } from './send-chain.ts';

let server: RunningServer | undefined;
let client: HttpClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  server = client = undefined;
});
const limits = { timeoutMs: 2000, maxBodyBytes: 1 << 20 };
const text = (bytes: Buffer) => bytes.toString('utf8');
const statusOf = (fetched: Fetched) => ('error' in fetched ? `error ${String(fetched.error)}` : fetched.status);

/** A node:net server (serve-socket.ts) that answers every request with 200 and the method, keeping the connection unless asked to close it; it records each request's method, socket and the header lines as sent. */
async function serveRecording(): Promise<{ seen: { method: string; socket: Socket; rawHeaders: [string, string][] }[] }> {
  const seen: { method: string; socket: Socket; rawHeaders: [string, string][] }[] = [];
  server = await serveSocket((request) => {
    seen.push({ method: request.method, socket: request.socket, rawHeaders: request.rawHeaders });
    return { status: 200, headers: { 'content-type': 'text/plain' }, body: `${request.method} ok` };
  });
  return { seen };
}

/** Both clients of the run: node:http's, and the one that drives node:http's parser on plain sockets (llhttp-client.ts). */
const CLIENTS = [
  { name: 'node:http on kept-alive connections', createClient: createHttpClient, module: './http-client.ts', factory: 'createHttpClient' },
  { name: "llhttp on plain kept-alive connections", createClient: createLlhttpClient, module: './llhttp-client.ts', factory: 'createLlhttpClient' },
] as const;

describe.each(CLIENTS)('the client of the run ($name)', ({ createClient, module, factory }) => {
  it('sends requests one after another on one connection, with the header lines undici sent, in its order', async () => {
    const { seen } = await serveRecording();
    client = createClient({ maxHeaderBytes: MAX_HEADER_BYTES });
    const headers = [['accept', 'application/json'], ['Authorization', 'k']] as const;
    const answers = [];
    for (const method of ['GET', 'DELETE', 'PUT']) answers.push(await client.request(`${server!.url}/a`, { method, headers }, limits, text));
    expect(answers.map(statusOf)).toEqual([200, 200, 200]);
    expect(new Set(seen.map((s) => s.socket)).size).toBe(1);
    const host = new URL(server!.url).host;
    expect(seen.map((s) => s.rawHeaders)).toEqual([
      [['host', host], ['connection', 'keep-alive'], ['accept', 'application/json'], ['Authorization', 'k']],
      [['host', host], ['connection', 'keep-alive'], ['accept', 'application/json'], ['Authorization', 'k']],
      [['host', host], ['connection', 'keep-alive'], ['accept', 'application/json'], ['Authorization', 'k'], ['content-length', '0']],
    ]);
  });

  it('never reuses a connection it asked to close (a HEAD): the server may close it right after the answer', async () => {
    const { seen } = await serveRecording();
    client = createClient({ maxHeaderBytes: MAX_HEADER_BYTES });
    const answers: Fetched[] = [];
    for (let i = 0; i < 20; i++) {
      answers.push(await client.request(`${server!.url}/h`, { method: 'HEAD', headers: [] }, limits, text));
      answers.push(await client.request(`${server!.url}/o`, { method: 'OPTIONS', headers: [] }, limits, text));
    }
    expect(answers.map(statusOf)).toEqual(Array(40).fill(200));
    expect(answers.filter((_, i) => i % 2 === 1).map((a) => ('body' in a ? a.body : undefined))).toEqual(Array(20).fill('OPTIONS ok'));
    // Each HEAD went with `connection: close`, and the request after it on a connection of its own.
    expect(seen.filter((s) => s.method === 'HEAD').every((s) => s.rawHeaders.some(([name, value]) => name === 'connection' && value === 'close'))).toBe(true);
    for (let i = 1; i < seen.length; i += 2) expect(seen[i]!.socket).not.toBe(seen[i - 1]!.socket);
  });

  it('keeps every header line of an answer, past the 2,000 Node keeps by default', async () => {
    server = await serveSocket(() => ({ raw: `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n${'a: 1\r\n'.repeat(2100)}content-length: 2\r\n\r\nok` }));
    client = createClient({ maxHeaderBytes: MAX_HEADER_BYTES });
    const many = await client.request(`${server.url}/many`, { method: 'GET', headers: [] }, limits, text);
    expect('headers' in many && many.headers.a?.split(', ').length).toBe(2100);
  });

  it('parses strictly in a process started with --insecure-http-parser: a control character in a field value is a framing error', async () => {
    // RFC 9110 §5.5: a field value holds no C0 control but HTAB; lenient llhttp lets U+0001 through (answer 200), strict refuses it.
    server = await serveSocket(() => ({ raw: 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nx-a: a\u0001b\r\ncontent-length: 2\r\n\r\nok' }));
    const script = `const { ${factory} } = await import(${JSON.stringify(new URL(module, import.meta.url).href)});
const client = ${factory}({ maxHeaderBytes: ${MAX_HEADER_BYTES} });
const got = await client.request(${JSON.stringify(server.url)}, { method: 'GET', headers: [] }, { timeoutMs: 2000, maxBodyBytes: 1024 }, (b) => b.toString());
await client.close();
process.stdout.write('error' in got ? String(got.error.code) : String(got.status));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--insecure-http-parser', '--input-type=module', '-e', script]);
    expect(stdout).toMatch(/^HPE_/);
  });

  it('sends a request once more on another connection when a kept-alive one it took after a pause was closed as it was reused (a keep-alive timeout), but not after a request sent right after the one before', async () => {
    // The server drops the second request of every connection without a byte of answer: after a pause that is the idle-close
    // race (RFC 9112 §9.3.1: a client may send it again); back to back it is the server dropping a request, which stands.
    const perSocket = new Map<Socket, number>();
    server = await serveSocket((request) => {
      const n = (perSocket.get(request.socket) ?? 0) + 1;
      perSocket.set(request.socket, n);
      if (n === 2) {
        request.socket.destroy();
        return { raw: '' };
      }
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
    });
    client = createClient({ maxHeaderBytes: MAX_HEADER_BYTES });
    const get = () => client!.request(`${server!.url}/a`, { method: 'GET', headers: [] }, limits, text);
    expect(statusOf(await get())).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(statusOf(await get())).toBe(200);
    expect(perSocket.size).toBe(2);
    // Back to back on the new connection: its second request is dropped, and that is the answer the run gets.
    expect(statusOf(await get())).toMatch(/^error/);
  });
});
