import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock, type StartMockOptions } from '../index.ts';

const ENVIRONMENTS = '/api/admin/environments/project/default';
const mocks: RunningMock[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => s.destroy());
  await Promise.all(mocks.splice(0).map((m) => m.close()));
});

async function mockWith(options: StartMockOptions = {}): Promise<RunningMock> {
  const mock = await startMock({ port: 0, ...options });
  mocks.push(mock);
  return mock;
}

function open(mock: RunningMock): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(mock.port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
    sockets.push(socket);
  });
}

/** Sends raw bytes and resolves with everything the server wrote before it closed the connection. */
async function exchange(mock: RunningMock, bytes: string | Buffer): Promise<string> {
  const socket = await open(mock);
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', () => {});
    socket.write(bytes);
  });
}

/** The status and the parsed JSON body of a raw HTTP/1.1 answer. */
function parseAnswer(raw: string): { status: number; headers: string; body: { id: string; name: string; message: string } } {
  const [head, body] = raw.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head!)?.[1]), headers: head!.toLowerCase(), body: JSON.parse(body!) };
}

const errorShape = { id: expect.any(String), name: expect.any(String), message: expect.any(String) };

describe('the node:http adapter under hostile clients', () => {
  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n', 400, 'BadRequestError'],
    ['an invalid method', 'G@T / HTTP/1.1\r\nhost: x\r\n\r\n', 400, 'BadRequestError'],
    ['a header line without a colon', 'GET / HTTP/1.1\r\nhost x\r\n\r\n', 400, 'BadRequestError'],
    ['a content-length that is not a number', 'GET / HTTP/1.1\r\nhost: x\r\ncontent-length: abc\r\n\r\n', 400, 'BadRequestError'],
    ['both content-length and chunked', 'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n', 400, 'BadRequestError'],
    ['headers over 16 KiB', `GET / HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'RequestHeaderFieldsTooLargeError'],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n', 405, 'MethodNotAllowedError'],
    ['an HTTP/1.1 request without Host', `GET ${ENVIRONMENTS} HTTP/1.1\r\nauthorization: mock-admin-key\r\n\r\n`, 400, 'BadRequestError'],
    ['an HTTP/1.1 control request without Host, with a body', 'PUT /__mock/state HTTP/1.1\r\ncontent-length: 2\r\n\r\n{}', 400, 'BadRequestError'],
    ['an Expect other than 100-continue', `GET ${ENVIRONMENTS} HTTP/1.1\r\nhost: x\r\nexpect: 200-ok\r\n\r\n`, 417, 'ExpectationFailedError'],
    ['an Expect with a body', 'POST /__mock/rules HTTP/1.1\r\nhost: localhost\r\nexpect: GARBAGE\r\ncontent-length: 2\r\n\r\n{}', 417, 'ExpectationFailedError'],
  ])('answers %s with a JSON error body, not a bare status line', async (_what, bytes, status, name) => {
    const mock = await mockWith();
    const answer = parseAnswer(await exchange(mock, bytes));
    expect(answer.status).toBe(status);
    expect(answer.headers).toContain('content-type: application/json');
    expect(answer.body).toEqual({ ...errorShape, name });
    expect(answer.body.message).not.toContain('GARBAGE');
  });

  it('answers an HTTP/1.0 request without Host (which needs none), and Expect: 100-continue, as any other', async () => {
    const mock = await mockWith();
    const old = await exchange(mock, `GET ${ENVIRONMENTS} HTTP/1.0\r\nauthorization: mock-admin-key\r\n\r\n`);
    expect(old).toMatch(/^HTTP\/1\.1 200 /);
    const continued = await exchange(mock, `GET ${ENVIRONMENTS} HTTP/1.1\r\nhost: x\r\nauthorization: mock-admin-key\r\nexpect: 100-continue\r\nconnection: close\r\n\r\n`);
    expect(continued).toMatch(/HTTP\/1\.1 200 /);
  });

  it('refuses a declared body over the cap with 413 before reading it', async () => {
    const mock = await mockWith({ maxBodyBytes: 1000 });
    const raw = await exchange(mock, `DELETE /api/admin/service-account/1/token/1 HTTP/1.1\r\nhost: x\r\nauthorization: mock-admin-key\r\ncontent-length: 5000000\r\n\r\n${'x'.repeat(2000)}`);
    const answer = parseAnswer(raw);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ ...errorShape, name: 'PayloadTooLargeError' });
    // Nothing was done: the token is still there.
    expect(mock.store.snapshot().serviceAccounts[0]!.tokens.map((t) => t.id)).toContain('1');
  });

  it('cuts off an endless chunked body at the cap, while other clients are served', async () => {
    const mock = await mockWith({ maxBodyBytes: 64 * 1024 });
    const socket = await open(mock);
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(`GET ${ENVIRONMENTS} HTTP/1.1\r\nhost: x\r\nauthorization: mock-admin-key\r\ntransfer-encoding: chunked\r\n\r\n`);
    const chunk = `${(16 * 1024).toString(16)}\r\n${'x'.repeat(16 * 1024)}\r\n`;
    let sent = 0;
    // Bounded: at most 16 MiB offered, far past the 64 KiB cap.
    for (let i = 0; i < 1024 && !socket.destroyed; i++) {
      if (!socket.write(chunk)) await Promise.race([new Promise((r) => socket.once('drain', r)), closed]);
      sent += chunk.length;
    }
    await closed;
    expect(sent).toBeLessThan(8 * 1024 * 1024);
    const response = await fetch(mock.url + ENVIRONMENTS, { headers: { authorization: 'mock-admin-key' } });
    expect(response.status).toBe(200);
  });

  it('answers 408 in JSON to a connection that never finishes its headers (slowloris), and keeps serving others', async () => {
    const mock = await mockWith({ headersTimeoutMs: 300, requestTimeoutMs: 300 });
    const socket = await open(mock);
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET / HTTP/1.1\r\nhost: x\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('x-slow: 1\r\n'), 50);
    const response = await fetch(mock.url + ENVIRONMENTS, { headers: { authorization: 'mock-admin-key' } });
    expect(response.status).toBe(200);
    await closed;
    clearInterval(trickle);
    const answer = parseAnswer(received);
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({ ...errorShape, name: 'RequestTimeoutError' });
  });

  it('closes the oldest idle connections past the connection cap, so a flood of them cannot starve a normal client', async () => {
    const mock = await mockWith({ maxConnections: 20 });
    const flood = await Promise.all(Array.from({ length: 60 }, () => open(mock)));
    flood.forEach((s) => s.on('error', () => {}));
    const response = await fetch(mock.url + ENVIRONMENTS, { headers: { authorization: 'mock-admin-key' } });
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(flood.filter((s) => !s.destroyed && s.readyState === 'open').length).toBeLessThanOrEqual(20);
  });

  it('answers 503 in JSON past the cap when every connection has a request in flight', async () => {
    const mock = await mockWith({ maxConnections: 2 });
    // Two requests held open by a delay the mock honours (Prefer: delay=...).
    const held = [0, 1].map(() => fetch(mock.url + ENVIRONMENTS, { headers: { authorization: 'mock-admin-key', prefer: 'delay=1000' } }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const answer = parseAnswer(await exchange(mock, `GET ${ENVIRONMENTS} HTTP/1.1\r\nhost: x\r\nauthorization: mock-admin-key\r\n\r\n`));
    expect(answer.status).toBe(503);
    expect(answer.headers).toContain('retry-after: 1');
    expect(answer.body).toEqual({ ...errorShape, name: 'ServiceUnavailableError' });
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
  });
});
