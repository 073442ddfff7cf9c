/**
 * Red team, round two (issue 19): `Expect` through the proxy. RFC 9110 §10.1.1 lets the server a
 * client's `Expect: 100-continue` is meant for answer a final status instead of 100 (a 401 before
 * the body, a 417), and a proxy must forward the request head at once rather than answer the
 * expectation itself (§10.1.1, "Requirements for proxies"). The backends here read the request head
 * and decide before any body, as node:http's `checkContinue` handlers and nginx's auth modules do.
 */
import { createServer, connect, type Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../temp-dir.ts';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { curlExchange } from '../http-exchange.ts';
import { useProxy } from './harness.ts';

const DATE = 'Date: Sat, 28 Nov 2026 12:00:00 GMT\r\n';
const DELETE = '/api/admin/service-account/1/token/2';

interface Seen {
  head: string;
  body: Buffer;
}

/**
 * A backend on node:net that acts on the request head: `/refuse...` answers 417 to any expectation,
 * `/auth-first...` answers 401 before the body unless `Authorization: good`, anything else sends
 * `100 Continue` (after `continueAfterMs`) when asked, then reads the body and says what it saw.
 * One request per connection (it closes after each answer, as a node:http server does after a final
 * answer sent instead of a 100). An HTTP/1.0 request's expectation is ignored (RFC 9110 §10.1.1).
 */
async function expectingBackend(continueAfterMs = 200) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    let head: string | undefined;
    let length = 0;
    let answered = false;
    const reply = (status: string, extra: string, body: string) => {
      if (answered) return;
      answered = true;
      socket.end(`HTTP/1.1 ${status}\r\n${DATE}Content-Type: application/json\r\nX-Backend: expecting\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    };
    const bodyDone = () => {
      const body = buffer.subarray(0, length);
      seen.at(-1)!.body = body;
      const expectLine = /\r\nexpect: *([^\r]*)/i.exec(head!)?.[1] ?? 'none';
      reply('200 OK', `X-Saw-Expect: ${expectLine}\r\nX-Got-Body: ${body.length}\r\n`, JSON.stringify({ got: body.length }));
    };
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (head === undefined) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        head = buffer.subarray(0, end).toString('latin1');
        buffer = buffer.subarray(end + 4);
        seen.push({ head, body: Buffer.alloc(0) });
        length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        const http10 = / HTTP\/1\.0$/.test(head.split('\r\n')[0]!);
        const expectation = http10 ? undefined : /\r\nexpect: *([^\r]*)/i.exec(head)?.[1];
        const target = head.split(' ')[1]!;
        if (target.startsWith('/refuse') && expectation !== undefined)
          return reply('417 Expectation Failed', '', JSON.stringify({ message: `no expectations here: ${expectation}` }));
        if (target.startsWith('/auth-first') && !/\r\nauthorization: good\r/i.test(head + '\r'))
          return reply('401 Unauthorized', 'WWW-Authenticate: Bearer realm="backend"\r\n', JSON.stringify({ id: 'f00', name: 'AuthenticationRequired', message: 'before your body' }));
        if (expectation !== undefined && /100-continue/i.test(expectation) && buffer.length < length)
          setTimeout(() => socket.destroyed || socket.write('HTTP/1.1 100 Continue\r\nX-From: backend\r\n\r\n'), continueAfterMs);
      }
      if (buffer.length >= length) bodyDone();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${port}`, port, seen };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

interface Got {
  /** Every status line the client read, 1xx first, in order. */
  statuses: string[];
  /** The final answer's end-to-end header lines and body. */
  headers: string[];
  body: string;
  /** Whether the client sent its body (it waits for a 100, or gives up after `waitMs`). */
  sentBody: boolean;
}

/**
 * A client as RFC 9110 §10.1.1 writes one: the head with `Expect: 100-continue`, then the body only
 * after a 100, or never when a final answer comes first (then it reads that answer to the close).
 */
function expectingClient(port: number, path: string, headers: string, body: string, version = '1.1', waitMs = 3000): Promise<Got> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let raw = Buffer.alloc(0);
    let sentBody = false;
    const sendBody = () => {
      if (sentBody) return;
      sentBody = true;
      socket.write(body);
    };
    const fallback = setTimeout(sendBody, waitMs);
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within 10 s; got ${JSON.stringify(raw.toString('latin1'))}`));
    }, 10_000);
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      raw = Buffer.concat([raw, chunk]);
      if (/^HTTP\/1\.1 100 /.test(raw.toString('latin1'))) sendBody();
    });
    socket.on('close', () => {
      clearTimeout(fallback);
      clearTimeout(deadline);
      const text = raw.toString('latin1');
      const blocks = text.split('\r\n\r\n');
      const statuses: string[] = [];
      let i = 0;
      for (; i < blocks.length; i++) {
        const statusLine = blocks[i]!.split('\r\n')[0]!;
        statuses.push(statusLine);
        if (!/^HTTP\/1\.\d 1\d\d/.test(statusLine)) break;
      }
      const final = blocks[i] ?? '';
      const lines = final
        .split('\r\n')
        .slice(1)
        .filter((l) => !/^(connection|keep-alive|transfer-encoding):/i.test(l));
      resolve({ statuses, headers: lines, body: blocks.slice(i + 1).join('\r\n\r\n'), sentBody });
    });
    socket.write(`POST ${path} HTTP/${version}\r\nHost: 127.0.0.1:${port}\r\n${headers}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`);
    if (version === '1.0') sendBody();
  });
}

/** node:http as a client that waits for the 100 before it writes the body (its `continue` event), or sends it on a final answer's absence. */
function nodeClient(port: number, path: string, headers: Record<string, string>, body: string): Promise<{ continues: number; status: number; body: string; sentBody: boolean }> {
  return new Promise((resolve, reject) => {
    let continues = 0;
    let sentBody = false;
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, agent: false, timeout: 10_000, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ continues, status: res.statusCode!, body: text, sentBody }));
    });
    req.on('continue', () => {
      continues++;
      sentBody = true;
      req.end(body);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => (sentBody ? reject(error) : resolve({ continues, status: 0, body: String(error), sentBody })));
  });
}

const proxy = useProxy();

describe('Expect goes to the backend, and its answer to it comes back (RFC 9110 §10.1.1)', () => {
  it('a backend that refuses the expectation with 417: the client gets that 417 and sends no body, as directly', async () => {
    const backend = await expectingBackend();
    const p = await proxy(backend.url);
    const direct = await expectingClient(backend.port, '/refuse', 'Expect: 100-continue\r\n', '{"a":1}');
    const proxied = await expectingClient(p.port, '/refuse', 'Expect: 100-continue\r\n', '{"a":1}');
    expect(direct.statuses).toEqual(['HTTP/1.1 417 Expectation Failed']);
    expect(proxied.statuses).toEqual(direct.statuses);
    expect(proxied.headers).toEqual(direct.headers);
    expect(proxied.body).toBe(direct.body);
    expect(proxied.sentBody).toBe(false);
  });

  it('an expectation other than 100-continue goes on too: the backend decides (417 here), not the proxy\'s server', async () => {
    const backend = await expectingBackend();
    const p = await proxy(backend.url);
    const direct = await expectingClient(backend.port, '/refuse', 'Expect: x-custom=1\r\n', '{"a":1}', '1.1', 300);
    const proxied = await expectingClient(p.port, '/refuse', 'Expect: x-custom=1\r\n', '{"a":1}', '1.1', 300);
    expect(proxied.statuses).toEqual(direct.statuses);
    expect(proxied.body).toBe(direct.body);
    expect(JSON.parse(proxied.body)).toEqual({ message: 'no expectations here: x-custom=1' });
  });

  it('a backend that answers 401 before the body: the client gets the 401 first, no 100, and keeps its body (curl, node:http, raw)', async () => {
    const backend = await expectingBackend();
    const p = await proxy(backend.url);
    for (const port of [backend.port, p.port]) {
      const raw = await expectingClient(port, `/auth-first${DELETE}`, 'Authorization: wrong\r\nExpect: 100-continue\r\n', '{"x":"y"}');
      expect(raw.statuses, `port ${port === p.port ? 'proxy' : 'backend'}`).toEqual(['HTTP/1.1 401 Unauthorized']);
      expect(raw.sentBody).toBe(false);
      const node = await nodeClient(port, `/auth-first${DELETE}`, { authorization: 'wrong' }, '{"x":"y"}');
      expect(node).toMatchObject({ continues: 0, status: 401, sentBody: false });
    }
    const direct = await curlExchange(backend.url, 'POST', '/auth-first', { Authorization: 'wrong', Expect: '100-continue' }, '{"x":"y"}');
    const proxied = await curlExchange(p.url, 'POST', '/auth-first', { Authorization: 'wrong', Expect: '100-continue' }, '{"x":"y"}');
    expect(proxied.informational).toEqual(direct.informational);
    expect([proxied.status, proxied.headers.filter((h) => !h.startsWith('date:')), proxied.body.toString()]).toEqual([direct.status, direct.headers.filter((h) => !h.startsWith('date:')), direct.body.toString()]);
    // What the backend saw: the same head both ways (the proxy's Host aside), Expect included.
    const heads = backend.seen.map((s) => s.head.split('\r\n').filter((l) => !/^host:/i.test(l)));
    expect(heads.filter((h) => h.some((l) => /^expect: 100-continue$/i.test(l)))).toHaveLength(heads.length);
  });

  it('a backend that sends 100 when it is ready: the client gets that 100 (its header lines too), then sends the body, which reaches the backend', async () => {
    const backend = await expectingBackend(400);
    const p = await proxy(backend.url);
    const body = JSON.stringify({ pad: 'z'.repeat(5000) });
    const direct = await expectingClient(backend.port, '/late', 'Authorization: good\r\nExpect: 100-continue\r\n', body);
    const proxied = await expectingClient(p.port, '/late', 'Authorization: good\r\nExpect: 100-continue\r\n', body);
    expect(direct.statuses).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK']);
    expect(proxied.statuses).toEqual(direct.statuses);
    expect(proxied.headers).toEqual(direct.headers);
    expect(proxied.headers).toContain('X-Saw-Expect: 100-continue');
    expect(proxied.body).toBe(JSON.stringify({ got: Buffer.byteLength(body) }));
    const node = await nodeClient(p.port, '/late', { authorization: 'good' }, body);
    expect(node).toMatchObject({ continues: 1, status: 200, sentBody: true });
    // curl's own wait for a 100 is 1 s: the backend's, 400 ms in, ends it.
    const started = performance.now();
    const curl = await curlExchange(p.url, 'POST', '/late', { Authorization: 'good', Expect: '100-continue' }, body);
    expect(curl.informational.map((i) => [i.status, i.headers])).toEqual([[100, ['x-from: backend']]]);
    expect(curl.headers).toContain('x-saw-expect: 100-continue');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('curl\'s own Expect on a 3 MiB body: it reaches the backend whole, as directly (the proxy keeps no body, so it sets no cap of its own unless --max-body-bytes is given)', async () => {
    const backend = await expectingBackend(100);
    const file = join(tempDir('red-expect-'), 'body.json');
    writeFileSync(file, JSON.stringify({ pad: 'p'.repeat(3 * 1024 * 1024) }));
    const size = String(3 * 1024 * 1024 + 10);
    const p = await proxy(backend.url);
    const direct = await curlExchange(backend.url, 'POST', '/upload', { Authorization: 'good' }, `@${file}`);
    const proxied = await curlExchange(p.url, 'POST', '/upload', { Authorization: 'good' }, `@${file}`);
    expect(direct.headers).toContain(`x-got-body: ${size}`);
    expect(direct.headers).toContain('x-saw-expect: 100-continue');
    expect([proxied.status, proxied.informational.map((i) => i.status), proxied.body.toString()]).toEqual([direct.status, direct.informational.map((i) => i.status), direct.body.toString()]);
    expect(proxied.headers).toContain(`x-got-body: ${size}`);
    expect(proxied.headers).toContain('x-saw-expect: 100-continue');
    // Asked for a cap, the proxy refuses a larger declared body itself, before the backend sees it.
    const capped = await proxy(backend.url, ['--max-body-bytes', '1048576']);
    const seen = backend.seen.length;
    const refused = await curlExchange(capped.url, 'POST', '/upload', { Authorization: 'good' }, `@${file}`);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ name: 'PayloadTooLargeError' });
    expect(backend.seen.length).toBe(seen);
  });

  it('after a forwarded 100 and the answer, the client\'s kept-alive connection carries the next request', async () => {
    const backend = await expectingBackend(50);
    const p = await proxy(backend.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(p.port, '127.0.0.1');
      let text = '';
      let step = 0;
      const timer = setTimeout(() => reject(new Error(`stuck: ${JSON.stringify(text)}`)), 8000);
      socket.on('data', (c) => {
        text += c.toString('latin1');
        if (step === 0 && text.includes('100 Continue')) {
          step = 1;
          socket.write('{}');
        } else if (step === 1 && text.includes('X-Got-Body: 2')) {
          step = 2;
          socket.write(`GET /second HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
        }
      });
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(text);
      });
      socket.write(`POST /first HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n`);
    });
    // Status lines wherever they start (the second answer follows the first's body on the same line).
    expect(raw.match(/HTTP\/1\.1 \d{3} [^\r]*/g), JSON.stringify(raw)).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
  });

  it('an HTTP/1.0 client (which gets no 1xx) sends its body at once: the answer comes whole, the backend is not told to wait', async () => {
    const backend = await expectingBackend(100);
    const p = await proxy(backend.url);
    const direct = await expectingClient(backend.port, '/late', 'Expect: 100-continue\r\n', '{"b":2}', '1.0');
    const proxied = await expectingClient(p.port, '/late', 'Expect: 100-continue\r\n', '{"b":2}', '1.0');
    expect(proxied.statuses).toEqual(['HTTP/1.1 200 OK']);
    expect(proxied.body).toBe(direct.body);
    expect(backend.seen.map((s) => s.body.toString())).toEqual(['{"b":2}', '{"b":2}']);
    // RFC 9110 §10.1.1: a 100-continue in an HTTP/1.0 request is ignored; it does not go on in the proxy's HTTP/1.1 request.
    expect(proxied.headers).toContain('X-Saw-Expect: none');
  });

  it('the proxy\'s own routes keep node:http\'s answers to Expect: a 100 before a body it reads, a 417 to an expectation it does not know', async () => {
    const backend = await expectingBackend();
    const p = await proxy(backend.url);
    const continued = await expectingClient(p.port, '/__mock/journal', 'Expect: 100-continue\r\n', '{}');
    expect(continued.statuses.at(-1)).toMatch(/^HTTP\/1\.1 [24]\d\d /);
    const refused = await expectingClient(p.port, '/__mock/journal', 'Expect: x-custom\r\n', '{}', '1.1', 300);
    expect(refused.statuses).toEqual(['HTTP/1.1 417 Expectation Failed']);
    expect(backend.seen).toHaveLength(0);
  });
});
