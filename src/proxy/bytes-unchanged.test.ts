import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../contract/index.ts';
import type { JournalEntry } from '../mock/index.ts';
import { curlExchange, exchange, type Exchanged } from '../../test/http-exchange.ts';
import { serveDressedMock, servePartlySilent, unusualBackends } from '../../test/unusual-backends.ts';
import { startProxy, type RunningProxy } from './start-proxy.ts';
import { closedAfterEach } from '../../test/closed-after-each.ts';

const KEY = 'mock-admin-key';
const ORIGIN = 'http://app.localhost:8000';

/** What clients send: reads of every outcome, with the encodings a browser accepts, from the app's origin, and its preflight. */
const REQUESTS: { method: string; path: string; headers: Record<string, string> }[] = [
  { method: 'GET', path: '/api/admin/environments/project/default', headers: { authorization: KEY, 'accept-encoding': 'gzip, deflate, br' } },
  { method: 'GET', path: '/api/admin/auth/oidc/settings', headers: { authorization: KEY, 'accept-encoding': 'gzip, deflate, br', origin: ORIGIN } },
  { method: 'GET', path: '/api/admin/environments/project/no-such', headers: { authorization: KEY, 'accept-encoding': 'gzip, br' } },
  { method: 'GET', path: '/api/admin/auth/oidc/settings', headers: { origin: ORIGIN } },
  { method: 'OPTIONS', path: '/api/admin/auth/oidc/settings', headers: { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } },
  { method: 'OPTIONS', path: '/api/admin/auth/oidc/settings', headers: { origin: 'http://elsewhere.localhost', 'access-control-request-method': 'GET' } },
  { method: 'HEAD', path: '/api/admin/environments/project/default', headers: { authorization: KEY, 'accept-encoding': 'gzip, br' } },
];

const contract: Contract = await loadContract({ validate: false });
const running = closedAfterEach();

async function control(proxy: RunningProxy, path: string): Promise<unknown> {
  return (await fetch(proxy.url + path)).json();
}

describe('flag-admin proxy hands on what the backend said', () => {
  describe.each(unusualBackends(() => ORIGIN))('a backend answering $name', ({ dress, encodes }) => {
    it.each([
      { client: 'node:http', send: exchange },
      { client: 'curl', send: curlExchange },
    ])('$client gets the same status, end-to-end headers and body bytes through the proxy as directly, and the journal the same status', async ({ send }) => {
      const backend = await serveDressedMock(contract, dress);
      running.push(backend);
      const proxy = await startProxy({ contract, port: 0, target: backend.url });
      running.push(proxy);
      const got: { direct: Exchanged; proxied: Exchanged }[] = [];
      for (const r of REQUESTS) got.push({ direct: await send(backend.url, r.method, r.path, r.headers), proxied: await send(proxy.url, r.method, r.path, r.headers) });
      for (const [i, { direct, proxied }] of got.entries()) {
        const label = `${REQUESTS[i]!.method} ${REQUESTS[i]!.path} ${JSON.stringify(REQUESTS[i]!.headers)}`;
        expect(proxied.status, label).toBe(direct.status);
        expect(proxied.headers, label).toEqual(direct.headers);
        expect(proxied.body.equals(direct.body), label).toBe(true);
        expect(proxied.trailers, label).toEqual(direct.trailers);
        expect(proxied.informational.map((x) => x.status), label).toEqual(direct.informational.map((x) => x.status).filter((s) => s !== 100));
      }
      if (encodes) expect(got[0]!.proxied.headers).toContain(`content-encoding: ${encodes}`);
      // Every answer is the backend's, the journal says what the client got, and conformant ones are judged so (compressed or not).
      const { entries } = (await control(proxy, '/__mock/journal')) as { entries: JournalEntry[] };
      expect(entries.map((e) => e.status)).toEqual(got.map((g) => g.direct.status));
      const judged = entries.filter((e) => e.operationId !== null && e.method === 'GET');
      expect(judged.map((e) => [e.path, e.verdict])).toEqual(judged.map((e) => [e.path, 'conformant']));
      expect(((await control(proxy, '/__mock/report')) as { findings: unknown[] }).findings).toEqual([]);
    });
  });

  it('hands 102 and 103 on before the answer, drops an unasked 100, and the client gets the answer the journal records', async () => {
    const [hints, processing, unasked] = unusualBackends().filter((b) => /^10[0-3]/.test(b.name));
    for (const backend of [hints!, processing!, unasked!]) {
      const served = await serveDressedMock(contract, backend.dress);
      running.push(served);
      const proxy = await startProxy({ contract, port: 0, target: served.url });
      running.push(proxy);
      const got = await exchange(proxy.url, 'GET', '/api/admin/auth/oidc/settings', { authorization: KEY });
      expect(got.status, backend.name).toBe(200);
      expect(JSON.parse(got.body.toString())).toHaveProperty('clientId');
      if (backend === hints) expect(got.informational).toEqual([{ status: 103, headers: ['link: </app.css>; rel=preload; as=style'] }]);
      if (backend === processing) expect(got.informational.map((x) => x.status)).toEqual([102]);
      if (backend === unasked) expect(got.informational).toEqual([]);
      const { entries } = (await control(proxy, '/__mock/journal')) as { entries: JournalEntry[] };
      expect(entries.map((e) => [e.status, e.verdict])).toEqual([[200, 'conformant']]);
    }
  });
});

describe('flag-admin proxy in front of a backend that does not answer', () => {
  it('serves an ordinary request while 64 others wait on the backend forever', async () => {
    const backend = await servePartlySilent();
    running.push(backend);
    const proxy = await startProxy({ contract, port: 0, target: backend.url });
    running.push(proxy);
    const stuck = Array.from({ length: 64 }, (_, i) => exchange(proxy.url, 'GET', `/slow/${i}`, {}, 60_000).catch(() => undefined));
    while (backend.received.length < 64) await new Promise((r) => setTimeout(r, 10));
    const started = performance.now();
    const ordinary = await exchange(proxy.url, 'GET', '/ok', {}, 5_000);
    expect([ordinary.status, ordinary.body.toString()]).toEqual([200, 'ok /ok']);
    expect(performance.now() - started).toBeLessThan(2_000);
    void stuck;
  });

  it('answers 504 in the API error shape when the backend says nothing within the deadline, and cuts a stalled body off', async () => {
    const backend = await servePartlySilent();
    running.push(backend);
    const proxy = await startProxy({ contract, port: 0, target: backend.url, targetTimeoutMs: 300 });
    running.push(proxy);
    const silent = await exchange(proxy.url, 'GET', '/slow/api/admin/auth/oidc/settings', { authorization: KEY });
    expect(silent.status).toBe(504);
    expect(silent.headers).toContain('content-type: application/json');
    const body = JSON.parse(silent.body.toString()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['id', 'message', 'name']);
    expect(body).toMatchObject({ name: 'ProxyTargetTimeout', message: expect.stringContaining('300 ms') });
    await expect(exchange(proxy.url, 'GET', '/stall', {})).rejects.toThrow();
    const { entries } = (await control(proxy, '/__mock/journal')) as { entries: JournalEntry[] };
    expect(entries.map((e) => e.status)).toEqual([504, 200]);
  });
});

describe('flag-admin proxy request bodies', () => {
  it('forwards a request body as sent, with a Content-Length or chunked, for any method', async () => {
    const backend = await servePartlySilent();
    running.push(backend);
    const proxy = await startProxy({ contract, port: 0, target: backend.url });
    running.push(proxy);
    const cases: { method: string; headers: Record<string, string>; body: string[] }[] = [
      { method: 'PUT', headers: { 'content-type': 'application/json', 'content-length': '13' }, body: ['{"enabled":1}'] },
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: ['{"name":', '"x"}'] },
      { method: 'DELETE', headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, body: ['gone', ' now'] },
    ];
    for (const c of cases) {
      const direct = await exchange(backend.url, c.method, '/echo', c.headers, 5_000, c.body);
      const proxied = await exchange(proxy.url, c.method, '/echo', c.headers, 5_000, c.body);
      expect(proxied.body.toString(), c.method).toBe(direct.body.toString());
      expect(proxied.body.toString(), c.method).toContain(c.body.join(''));
    }
  });
});

describe('flag-admin proxy paths', () => {
  it('forwards paths as sent under the target prefix, and refuses with 400 any that would leave it', async () => {
    const backend = await servePartlySilent();
    running.push(backend);
    const proxy = await startProxy({ contract, port: 0, target: `${backend.url}/flags` });
    running.push(proxy);
    for (const path of ['/api/admin/environments/project/a%2Fb?q=%20x', '/api/./admin//x', '/api/admin/x/../y', '/%7Ea']) {
      expect((await exchange(proxy.url, 'GET', path)).status, path).toBe(200);
      expect(backend.received.at(-1), path).toBe(`GET /flags${path}`);
    }
    const before = backend.received.length;
    for (const path of ['/../secret', '/api/../../secret', '/%2e%2e/secret', '/%2E%2e/secret', '/api/..%2f..%2fsecret', '/api/..%5c..%5csecret', '/..', '/api/%2e%2e/%2e%2e']) {
      const refused = await exchange(proxy.url, 'GET', path);
      expect(refused.status, path).toBe(400);
      expect(JSON.parse(refused.body.toString()), path).toMatchObject({ name: 'ProxyPathError', message: expect.stringContaining('/flags') });
    }
    expect(backend.received.length).toBe(before);
  });
});

describe('flag-admin proxy and encoded bodies it cannot judge', () => {
  it('hands on a body that does not decode, or decodes past the cap, as sent, and reports it as not judged', async () => {
    const { gzipSync } = await import('node:zlib');
    const bomb = gzipSync(Buffer.alloc(1024 * 1024, 0x20));
    const backend = await serveDressedMock(contract, (req, res) => {
      const body = req.url!.includes('default') ? Buffer.from('not gzip at all') : bomb;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) });
      res.end(body);
    });
    running.push(backend);
    const proxy = await startProxy({ contract, port: 0, target: backend.url, maxJudgedBytes: 64 * 1024 });
    running.push(proxy);
    const broken = await exchange(proxy.url, 'GET', '/api/admin/environments/project/default', { authorization: KEY });
    expect(broken.body.toString()).toBe('not gzip at all');
    const inflating = await exchange(proxy.url, 'GET', '/api/admin/auth/oidc/settings', { authorization: KEY });
    expect(inflating.body.equals(bomb)).toBe(true);
    const report = (await control(proxy, '/__mock/report')) as { findings: unknown[]; notJudged: { reason: string }[] };
    expect(report.findings).toEqual([]);
    expect(report.notJudged.map((n) => n.reason)).toEqual([expect.stringContaining('Content-Encoding gzip that does not decode'), expect.stringContaining('decodes to more than 65536 bytes')]);
  });
});

describe('flag-admin proxy in front of a backend that writes past its answer', () => {
  it('hands on the answer as its Content-Length frames it, drops the bytes after it, and serves the next request', async () => {
    const { createServer } = await import('node:net');
    // Each request is answered with a 2-byte body and then 7 bytes nothing announced (no HTTP message can start with them).
    const raw = createServer((socket) => {
      socket.on('data', (d) => {
        if (d.includes('\r\n\r\n')) socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}garbage');
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    running.push({ close: () => new Promise<void>((resolve) => raw.close(() => resolve())) } as never);
    const proxy = await startProxy({ contract, port: 0, target: `http://127.0.0.1:${(raw.address() as { port: number }).port}` });
    running.push(proxy);
    for (let i = 0; i < 2; i++) {
      const got = await exchange(proxy.url, 'GET', '/api/admin/auth/oidc/settings', { authorization: KEY });
      expect([got.status, got.body.toString()]).toEqual([200, '{}']);
    }
  });
});

describe('flag-admin proxy in front of a backend whose answer is not HTTP/1.1', () => {
  it('answers 502 in the API error shape, saying why, for a folded header line or two Content-Lengths; cuts the connection at a broken chunk after the head', async () => {
    const { createServer } = await import('node:net');
    const answers = [
      'HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\nContent-Length: 2\r\n\r\n{}',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ];
    let next = 0;
    const raw = createServer((socket) => {
      socket.on('data', (d) => {
        if (d.includes('\r\n\r\n')) socket.write(answers[next++ % answers.length]!);
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    running.push({ close: () => new Promise<void>((resolve) => raw.close(() => resolve())) } as never);
    const proxy = await startProxy({ contract, port: 0, target: `http://127.0.0.1:${(raw.address() as { port: number }).port}` });
    running.push(proxy);
    for (const reason of [/obs-fold/, /Content-Length that is not one number/]) {
      const got = await exchange(proxy.url, 'GET', '/api/admin/auth/oidc/settings', { authorization: KEY });
      expect(got.status).toBe(502);
      const body = JSON.parse(got.body.toString()) as Record<string, string>;
      expect(body).toMatchObject({ name: 'ProxyTargetError', message: expect.stringMatching(reason) });
    }
    // The head went out as it came: the answer cannot be completed, so the client's connection is cut.
    await expect(exchange(proxy.url, 'GET', '/api/admin/auth/oidc/settings', { authorization: KEY })).rejects.toThrow();
    const { entries } = (await control(proxy, '/__mock/journal')) as { entries: JournalEntry[] };
    expect(entries.map((e) => e.status)).toEqual([502, 502, 200]);
  });
});
