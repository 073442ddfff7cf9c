/**
 * Claim 1 of issue 19's "Done when": through the proxy a client gets the backend's own status line,
 * end-to-end header lines (same order, case, repeats; RFC 9110 §7.6.1 hop-by-hop ones aside) and
 * body bytes. Backends written on node:net from the RFCs: nothing here comes from the proxy's tests.
 */
import { randomBytes } from 'node:crypto';
import { gzipSync, zstdCompressSync, deflateRawSync } from 'node:zlib';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { endToEnd, parseResponses, rawBackend, rawExchange, useProxy, type SeenRequest } from './harness.ts';

const DATE = 'Date: Sat, 28 Nov 2026 12:00:00 GMT\r\n';
const OIDC = '/api/admin/auth/oidc/settings';
const ENVS = '/api/admin/environments/project/default';
const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const oidcBody = json({ enabled: true, clientId: 'red-client', discoverUrl: 'https://id.example.com/.well-known/openid-configuration' });
const big = randomBytes(5 * 1024 * 1024);
const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)); // 64 MiB of spaces, ~64 kB on the wire
const unknownCoded = randomBytes(2048);

let current: SeenRequest | undefined;
/** Writes an answer; ends the connection when the backend says so or the client asked (`Connection: close`). */
function answer(socket: Socket, head: string, body: Buffer = Buffer.alloc(0), close = false) {
  socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  const asked = current?.headers.some(([n, v]) => n.toLowerCase() === 'connection' && /close/i.test(v));
  if (close || asked || current?.head.endsWith('HTTP/1.0') || /^[A-Z]+ \S+ HTTP\/1\.0/.test(current?.head ?? '')) socket.end();
}

/** One backend, many odd answers, chosen by the request target. */
function zoo(request: SeenRequest, socket: Socket) {
  current = request;
  const t = request.target;
  const cl = (b: Buffer) => `Content-Length: ${b.length}\r\n`;
  if (t.startsWith('/odd-headers')) {
    const body = Buffer.from('{"ok":true}');
    return answer(
      socket,
      'HTTP/1.1 200 Fine By Me\r\n' + DATE +
        'Set-Cookie: a=1; Path=/\r\nX-Obs: caf\xe9 \xff\xfe end\r\nset-cookie: b=2; HttpOnly\r\nVary: Accept-Encoding\r\n' +
        'Cache-Control: no-cache\r\nVARY: Origin\r\ncache-control: private\r\nX-Trailing:   spaced value   \r\nX-Empty:\r\n' +
        'content-TYPE: application/json\r\n' + cl(body) + '\r\n',
      body,
    );
  }
  if (t.startsWith('/early')) {
    const body = Buffer.from('{"late":true}');
    return answer(
      socket,
      'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload; as=style\r\nLink: </b.js>; rel=preload; as=script\r\n\r\n' +
        'HTTP/1.1 102 Processing\r\n\r\n' +
        'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\n' + cl(body) + '\r\n',
      body,
    );
  }
  if (t.startsWith('/info-other')) {
    // A 1xx code node:http has no writer for, its fields in odd case with obs-text, a hop-by-hop one among them; then a 103.
    const body = Buffer.from('{"late":true}');
    return answer(
      socket,
      'HTTP/1.1 104 Upload Resumption Supported\r\nupload-draft-interop-version: 6\r\nX-Obs: caf\xe9\r\nConnection: keep-alive\r\nLOCATION: /up/1\r\n\r\n' +
        'HTTP/1.1 103 Early Hints\r\nlink: </c.css>; rel=preload\r\nX-Hint: 1\r\nLink: </d.js>; rel=preload\r\n\r\n' +
        'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\n' + cl(body) + '\r\n',
      body,
    );
  }
  if (t.startsWith('/chunk-ext')) {
    return answer(
      socket,
      'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n' +
        '5;name=value;q="quoted ;"\r\nhello\r\n6 ; spaced\r\n world\r\n0;last\r\nX-Checksum: abc123\r\nX-Other: z\r\n\r\n',
    );
  }
  if (t.startsWith('/no-content')) return answer(socket, 'HTTP/1.1 204 No Content\r\n' + DATE + 'ETag: "v1"\r\nX-Thing: kept\r\nCache-Control: max-age=5\r\n\r\n');
  if (t.startsWith('/not-modified'))
    return answer(socket, 'HTTP/1.1 304 Not Modified\r\n' + DATE + 'ETag: "v1"\r\nContent-Length: 1234\r\nVary: Accept-Encoding\r\nX-Thing: kept\r\n\r\n');
  if (t.startsWith('/zstd') || t.includes('v=zstd')) {
    const body = zstdCompressSync(oidcBody);
    return answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nContent-Encoding: zstd\r\n' + cl(body) + '\r\n', body);
  }
  if (t.includes('v=raw-deflate')) {
    // deflate without its zlib wrapper, as some servers (IIS) send it: not RFC 9110 §8.4.1.2's deflate.
    const body = deflateRawSync(oidcBody);
    return answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nContent-Encoding: deflate\r\n' + cl(body) + '\r\n', body);
  }
  if (t.includes('v=unknown-coding'))
    return answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nContent-Encoding: x-snappy-framed\r\n' + cl(unknownCoded) + '\r\n', unknownCoded);
  if (t.includes('v=gzip-bomb'))
    return answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nContent-Encoding: gzip\r\n' + cl(bomb) + '\r\n', bomb);
  if (t.includes('v=big')) return answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\n' + cl(big) + '\r\n', big);
  if (t.includes('v=close-delimited')) return answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nConnection: close\r\n\r\n', oidcBody, true);
  if (t.startsWith('/echo') || t.startsWith('/api/admin/environments/project/') || t.startsWith('//') || t.includes('/../')) {
    const body = json({ target: request.target });
    return answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\n' + cl(body) + '\r\n', body);
  }
  if (request.method === 'HEAD') return answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nContent-Length: 5242880\r\n\r\n');
  if (request.method === 'DELETE') return answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + `X-Got-Body: ${request.body.length}\r\nContent-Length: 0\r\n\r\n`);
  const body = oidcBody;
  return answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\n' + cl(body) + '\r\n', body);
}

const proxy = useProxy();

async function bothWays(request: (host: string) => (string | Buffer)[], methods: string[], gapMs = 0) {
  const backend = await rawBackend(zoo);
  const p = await proxy(backend.url);
  const direct = parseResponses(await rawExchange(backend.port, request(`127.0.0.1:${backend.port}`), 15000, gapMs), methods);
  const proxied = parseResponses(await rawExchange(p.port, request(`127.0.0.1:${p.port}`), 15000, gapMs), methods);
  return { direct, proxied, backend, p };
}

function expectSameFinals(direct: ReturnType<typeof parseResponses>, proxied: ReturnType<typeof parseResponses>, http10 = false) {
  const finals = (ms: typeof direct) => ms.filter((m) => m.status >= 200);
  const d = finals(direct);
  const p = finals(proxied);
  expect(p.map((m) => `${m.status} ${m.reason}`)).toEqual(d.map((m) => `${m.status} ${m.reason}`));
  p.forEach((m, i) => {
    expect(endToEnd(m)).toEqual(endToEnd(d[i]!));
    expect(m.body.equals(d[i]!.body), `body of answer ${i}: ${m.body.length} bytes through the proxy, ${d[i]!.body.length} directly`).toBe(true);
    if (!http10) expect(m.trailers).toEqual(d[i]!.trailers);
  });
}

const get = (path: string, extra = '', version = '1.1') => (host: string) => [`GET ${path} HTTP/${version}\r\nHost: ${host}\r\nAuthorization: red-key-0001\r\n${extra}Connection: close\r\n\r\n`];

describe('the same bytes through the proxy as directly, from backends nobody here wrote', () => {
  it('several Set-Cookie lines, obs-text bytes, repeated Vary and Cache-Control, odd case, an odd reason phrase, an empty value', async () => {
    const { direct, proxied } = await bothWays(get('/odd-headers'), ['GET']);
    expect(direct[0]!.headers.some(([n, v]) => n === 'X-Obs' && v.includes('\xff'))).toBe(true);
    expectSameFinals(direct, proxied);
  });

  // FINDING: the 103's two `Link` lines reach the client as one line,
  // `Link: </a.css>; rel=preload; as=style, </b.js>; rel=preload; as=script`, where the backend sent
  // `Link: </a.css>; ...` and `Link: </b.js>; ...` on lines of their own. RFC 9110 §5.3 lets a recipient
  // combine a list-based field such as Link (RFC 8288 §3), so the meaning holds, but docs/proxy.md
  // promises "every header line in its case and order with repeats" and the 103 "with its Link fields",
  // and issue 19 asks for the same header lines: the 1xx's lines are not forwarded as sent.
  it('103 (two Link lines) and 102 before the answer to an HTTP/1.1 client: handed on as sent, then the answer', async () => {
    const { direct, proxied } = await bothWays(get('/early'), ['GET']);
    expectSameFinals(direct, proxied);
    const hints = (ms: typeof direct) => ms.filter((m) => m.status === 103).map((m) => endToEnd(m));
    expect(hints(proxied)).toEqual(hints(direct));
  });

  // The principle of the 103 finding: every 1xx (RFC 9110 §15.2: a proxy forwards those it did not ask for), its end-to-end
  // lines as sent (case, order, repeats, obs-text bytes), whatever its code.
  it('a 104 (a code node:http has no writer for) and a 103 with lines in odd case: handed on as sent, hop-by-hop lines aside', async () => {
    const { direct, proxied } = await bothWays(get('/info-other'), ['GET']);
    expectSameFinals(direct, proxied);
    const infos = (ms: typeof direct) => ms.filter((m) => m.status < 200).map((m) => [m.statusLine, ...endToEnd(m)]);
    expect(infos(direct)).toHaveLength(2);
    expect(infos(proxied)).toEqual(infos(direct));
  });

  it('RFC 9110 §15.2: no 1xx to an HTTP/1.0 client, whatever the backend sends; the answer arrives whole', async () => {
    const backend = await rawBackend(zoo);
    const p = await proxy(backend.url);
    const raw = await rawExchange(p.port, `GET /early HTTP/1.0\r\nHost: 127.0.0.1:${p.port}\r\n\r\n`);
    const messages = parseResponses(raw, ['GET']);
    expect(messages.map((m) => m.status)).toEqual([200]);
    expect(messages[0]!.body.toString()).toBe('{"late":true}');
  });

  it('chunk extensions and trailer fields: the body bytes and the trailers reach an HTTP/1.1 client', async () => {
    const { direct, proxied } = await bothWays(get('/chunk-ext'), ['GET']);
    expect(direct[0]!.body.toString()).toBe('hello world');
    expectSameFinals(direct, proxied);
  });

  it('chunked with trailers to an HTTP/1.0 client: the body whole, not chunk-framed (RFC 9112 §7.1: 1.0 cannot take chunks)', async () => {
    const backend = await rawBackend(zoo);
    const p = await proxy(backend.url);
    const raw = await rawExchange(p.port, `GET /chunk-ext HTTP/1.0\r\nHost: 127.0.0.1:${p.port}\r\n\r\n`);
    const [m] = parseResponses(raw, ['GET']);
    expect(m!.headers.some(([n]) => n.toLowerCase() === 'transfer-encoding')).toBe(false);
    expect(m!.body.toString()).toBe('hello world');
  });

  it('a 204 and a 304 with headers (the 304 with the GET\'s Content-Length, RFC 9110 §8.6), pipelined on one connection', async () => {
    const req = (host: string) => [
      `GET /no-content HTTP/1.1\r\nHost: ${host}\r\n\r\nGET /not-modified HTTP/1.1\r\nHost: ${host}\r\nIf-None-Match: "v1"\r\nConnection: close\r\n\r\n`,
    ];
    const { direct, proxied } = await bothWays(req, ['GET', 'GET']);
    expect(direct.map((m) => m.status)).toEqual([204, 304]);
    expectSameFinals(direct, proxied);
  });

  it('a HEAD whose Content-Length is the GET\'s (5 MiB) comes back with that Content-Length and no body', async () => {
    const req = (host: string) => [`HEAD ${OIDC} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: red-key-0001\r\nConnection: close\r\n\r\n`];
    const { direct, proxied } = await bothWays(req, ['HEAD']);
    expectSameFinals(direct, proxied);
  });

  it('zstd, raw deflate under "deflate", a coding nobody decodes, a gzip bomb (64 MiB inflated), on an API path: bytes as sent', async () => {
    for (const v of ['zstd', 'raw-deflate', 'unknown-coding', 'gzip-bomb']) {
      const { direct, proxied } = await bothWays(get(`${OIDC}?v=${v}`, 'Accept-Encoding: gzip, deflate, br, zstd, x-snappy-framed\r\n'), ['GET']);
      expectSameFinals(direct, proxied);
    }
  });

  it('a 5 MiB body, and an answer ended by the backend closing the connection', async () => {
    for (const v of ['big', 'close-delimited']) {
      const { direct, proxied } = await bothWays(get(`${OIDC}?v=${v}`), ['GET']);
      expectSameFinals(direct, proxied);
    }
  });

  it('a backend that closes after every answer: three requests in a row on one kept-alive client connection all answered', async () => {
    const backend = await rawBackend((req, socket) => {
      const body = json({ n: req.target });
      answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + `Connection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, body, true);
    });
    const p = await proxy(backend.url);
    const host = `127.0.0.1:${p.port}`;
    const raw = await rawExchange(
      p.port,
      [1, 2, 3].map((n) => `GET ${OIDC}?n=${n} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: red-key-0001\r\n${n === 3 ? 'Connection: close\r\n' : ''}\r\n`),
      10000,
      400,
    );
    const messages = parseResponses(raw, ['GET', 'GET', 'GET']);
    expect(messages.map((m) => [m.status, m.body.toString()])).toEqual([1, 2, 3].map((n) => [200, JSON.stringify({ n: `${OIDC}?n=${n}` })]));
  });

  it('an Expect: 100-continue DELETE with a body: one 100 at most, the body reaches the backend, the same final answer', async () => {
    const req = (host: string) => [
      `DELETE /api/admin/service-account/1/token/2 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: red-key-0001\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      '{}',
    ];
    const { direct, proxied, backend } = await bothWays(req, ['DELETE'], 500);
    expect(proxied.filter((m) => m.status === 100).length).toBeLessThanOrEqual(1);
    expectSameFinals(direct, proxied);
    expect(backend.seen.map((s) => s.body.toString())).toEqual(['{}', '{}']);
  });

  it('request targets go on byte for byte: %2F, //, a dot segment that stays inside, ?q=%23 and ?a=b?c, a 6 kB URL', async () => {
    const targets = [
      `${ENVS.replace('default', 'a%2Fb%2F..%2Fc')}`,
      '//api/admin//environments/project/x',
      '/echo/../api/admin/environments/project/default',
      `${ENVS}?q=%23not-a-fragment&a=b?c&e=%E2%82%AC`,
      `${ENVS}?long=${'x'.repeat(6000)}`,
    ];
    for (const target of targets) {
      const { direct, proxied, backend } = await bothWays(get(target), ['GET']);
      expect(backend.seen.map((s) => s.target)).toEqual([target, target]);
      expectSameFinals(direct, proxied);
    }
  });

  it('pipelined requests from the client (three in one write) get their answers in order', async () => {
    const req = (host: string) => [
      `GET ${OIDC}?p=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: red-key-0001\r\n\r\n` +
        `GET /odd-headers HTTP/1.1\r\nHost: ${host}\r\n\r\n` +
        `GET /chunk-ext HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    ];
    const { direct, proxied } = await bothWays(req, ['GET', 'GET', 'GET']);
    expect(direct.length).toBe(3);
    expectSameFinals(direct, proxied);
  });
});

describe('slow and silent backends', () => {
  it('a backend that answers after 2 s: the client gets its answer, unchanged', async () => {
    const backend = await rawBackend((req, socket) => {
      setTimeout(() => zoo(req, socket), 2000);
    });
    const p = await proxy(backend.url);
    const raw = await rawExchange(p.port, get('/odd-headers')(`127.0.0.1:${p.port}`), 10000);
    const [m] = parseResponses(raw, ['GET']);
    expect(m!.status).toBe(200);
    expect(m!.body.toString()).toBe('{"ok":true}');
  });

  it('a silent backend: 100 requests it never answers get a 504 in the API\'s error shape in bounded time, and meanwhile another client is answered at once', async () => {
    const backend = await rawBackend((req, socket) => {
      if (req.target.includes('silent')) return; // never a byte
      zoo(req, socket);
    });
    const p = await proxy(backend.url, ['--target-timeout', '3000']);
    const host = `127.0.0.1:${p.port}`;
    const started = Date.now();
    const silent = Array.from({ length: 100 }, (_, i) => rawExchange(p.port, get(`${OIDC}?silent=${i}`)(host), 12000));
    await new Promise((r) => setTimeout(r, 500));
    const t0 = Date.now();
    const other = parseResponses(await rawExchange(p.port, get(`${OIDC}?other=1`)(host), 5000), ['GET']);
    const otherMs = Date.now() - t0;
    expect(other[0]!.status).toBe(200);
    expect(otherMs).toBeLessThan(1500);
    const answers = (await Promise.all(silent)).map((raw) => parseResponses(raw, ['GET'])[0]!);
    expect(Date.now() - started).toBeLessThan(10000);
    for (const a of answers) {
      expect(a.status).toBe(504);
      const body = JSON.parse(a.body.toString());
      expect(Object.keys(body).sort()).toEqual(['id', 'message', 'name']);
      expect(Object.values(body).every((v) => typeof v === 'string')).toBe(true);
    }
  });
});

describe('a backend that says more than it was asked, and clients that leave', () => {
  // RFC 9112 §6.3: a Content-Length ends the message; bytes after it on a connection with no
  // request outstanding are no answer to any request (§9.3: answers go in the order of requests).
  it('bytes a backend sends after a complete answer are never handed to the next client as its answer', async () => {
    let n = 0;
    const backend = await rawBackend((req, socket) => {
      n++;
      const body = Buffer.from(`{"answer":${n}}`);
      const extra = n === 1 ? 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n{"injected":true}' : '';
      socket.write(`HTTP/1.1 200 OK\r\n${DATE}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}${extra}`);
    });
    const p = await proxy(backend.url);
    const ask = async () => {
      const raw = await rawExchange(p.port, get(`${OIDC}?n=${Date.now()}`)(`127.0.0.1:${p.port}`), 8000);
      return parseResponses(raw, ['GET'])[0]!.body.toString();
    };
    expect(await ask()).toBe('{"answer":1}');
    await new Promise((r) => setTimeout(r, 200));
    const second = await ask();
    expect(second).not.toContain('injected');
    // Whatever the proxy did with the extra bytes, the second client got the backend's answer to its own request.
    expect(second).toBe(`{"answer":${n}}`);
  });

  it('clients that leave while the backend is silent take their backend requests with them: no socket left open', async () => {
    const open = new Set<Socket>();
    const backend = await rawBackend((req, socket) => {
      if (!open.has(socket)) {
        open.add(socket);
        socket.on('close', () => open.delete(socket));
      }
      // never answers
    });
    const p = await proxy(backend.url, ['--target-timeout', '20000']);
    const host = `127.0.0.1:${p.port}`;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => rawExchange(p.port, get(`${OIDC}?leave=${i}`)(host), 400).catch(() => 'left')),
    );
    expect(open.size).toBeGreaterThan(0);
    for (let i = 0; i < 40 && open.size > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(open.size).toBe(0);
  });
});

describe('framing and connection-specific fields (RFC 9112 §6.3, RFC 9110 §7.6.1)', () => {
  it('fields the backend\'s Connection header names are not forwarded; those the client\'s names do not reach the backend', async () => {
    const backend = await rawBackend((req, socket) => {
      current = req;
      answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Connection: X-Backend-Hop\r\nX-Backend-Hop: 1\r\nX-Kept: 2\r\nContent-Length: 2\r\n\r\n', Buffer.from('ok'));
    });
    const p = await proxy(backend.url);
    const raw = await rawExchange(p.port, `GET ${OIDC} HTTP/1.1\r\nHost: 127.0.0.1:${p.port}\r\nAuthorization: red-key-0001\r\nConnection: close, X-Client-Hop\r\nX-Client-Hop: 1\r\n\r\n`);
    const [m] = parseResponses(raw, ['GET']);
    expect(m!.headers.map(([n]) => n.toLowerCase())).not.toContain('x-backend-hop');
    expect(m!.headers.map(([n]) => n.toLowerCase())).toContain('x-kept');
    expect(backend.seen[0]!.headers.map(([n]) => n.toLowerCase())).not.toContain('x-client-hop');
  });

  // FINDING: the backend sends `Content-Length: 3` and `Transfer-Encoding: chunked` with an 11-byte
  // chunked body; the proxy decodes the chunks (Transfer-Encoding overrides, RFC 9112 §6.3 (3)) but
  // forwards the Content-Length, so the client gets
  // "HTTP/1.1 200 OK\r\n...Content-Length: 3\r\n...\r\n{\"ok\":true}": 3 bytes announced, 11 sent.
  // A client reads `{"o` as the body and `k":true}` as the start of the next answer on a kept-alive
  // connection (response splitting, RFC 9112 §11.1). §6.3 (3): an intermediary that forwards such a
  // message MUST first remove the received Content-Length (or handle it as an error: a 502).
  // The same with the two lines the other way round.
  it('an answer with both Transfer-Encoding: chunked and a Content-Length reaches the client with one framing: no Content-Length beside chunks', async () => {
    const backend = await rawBackend((req, socket) => {
      current = req;
      answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nb\r\n{"ok":true}\r\n0\r\n\r\n');
    });
    const p = await proxy(backend.url);
    const raw = await rawExchange(p.port, get(OIDC)(`127.0.0.1:${p.port}`));
    const [m] = parseResponses(raw, ['GET']);
    const names = m!.headers.map(([n]) => n.toLowerCase());
    // RFC 9112 §6.3 (3): an intermediary that forwards it MUST first remove the Content-Length; or refuse it (502).
    if (m!.status === 200) {
      expect(names.includes('content-length') && names.includes('transfer-encoding')).toBe(false);
      expect(m!.body.toString()).toBe('{"ok":true}');
    } else {
      expect(m!.status).toBe(502);
    }
  });

  // The same principle (one message boundary for the client, the one the proxy read): both lines in
  // the other order, and repeated Content-Lengths of one value, on a kept-alive connection whose
  // second answer must arrive as the second answer.
  it('no framing mismatch splits a kept-alive connection: TE before CL, `Content-Length: 11, 11`, two equal Content-Length lines', async () => {
    const firsts = [
      'Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nb\r\n{"ok":true}\r\n0\r\n\r\n',
      'Content-Length: 11, 11\r\n\r\n{"ok":true}',
      'Content-Length: 11\r\nContent-Length: 11\r\n\r\n{"ok":true}',
    ];
    for (const first of firsts) {
      let n = 0;
      const backend = await rawBackend((req, socket) => {
        current = req;
        n++;
        if (n === 1) return answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\n' + first);
        answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nContent-Length: 12\r\n\r\n{"second":1}');
      });
      const p = await proxy(backend.url);
      const host = `127.0.0.1:${p.port}`;
      const raw = await rawExchange(
        p.port,
        [`GET ${OIDC} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: red-key-0001\r\n\r\n`, `GET ${OIDC}?second HTTP/1.1\r\nHost: ${host}\r\nAuthorization: red-key-0001\r\nConnection: close\r\n\r\n`],
        8000,
        300,
      );
      const messages = parseResponses(raw, ['GET', 'GET']);
      expect(messages.map((m) => [m.status, m.body.toString()]), first).toEqual([[200, '{"ok":true}'], [200, '{"second":1}']]);
      const lengths = messages[0]!.headers.filter(([name]) => name.toLowerCase() === 'content-length').map(([, v]) => v);
      const chunked = messages[0]!.headers.some(([name]) => name.toLowerCase() === 'transfer-encoding');
      expect(chunked ? lengths : lengths.length, first).toEqual(chunked ? [] : 1);
    }
  });

  it('unusual status codes and reason phrases (599, 299, an empty reason) arrive as sent', async () => {
    for (const statusLine of ['HTTP/1.1 599 Network Connect Timeout Error', 'HTTP/1.1 299 Odd But Legal', 'HTTP/1.1 200 ', 'HTTP/1.1 418 I\'m a teapot']) {
      const backend = await rawBackend((req, socket) => {
        current = req;
        answer(socket, `${statusLine}\r\n${DATE}Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
      });
      const p = await proxy(backend.url);
      const [direct] = parseResponses(await rawExchange(backend.port, get(OIDC)(`127.0.0.1:${backend.port}`)), ['GET']);
      const [proxied] = parseResponses(await rawExchange(p.port, get(OIDC)(`127.0.0.1:${p.port}`)), ['GET']);
      expect(`${proxied!.status} ${proxied!.reason}`).toBe(`${direct!.status} ${direct!.reason}`);
      expect(endToEnd(proxied!)).toEqual(endToEnd(direct!));
    }
  });
});

describe('framing a strict parser must still read (RFC 9112 §6, §7.1) and whitespace it must take out (§5.1)', () => {
  const serve = async (bytes: string) => {
    const backend = await rawBackend((req, socket) => {
      current = req;
      answer(socket, bytes);
    });
    const p = await proxy(backend.url);
    const direct = parseResponses(await rawExchange(backend.port, get(OIDC)(`127.0.0.1:${backend.port}`)), ['GET']);
    const proxied = parseResponses(await rawExchange(p.port, get(OIDC)(`127.0.0.1:${p.port}`)), ['GET']);
    return { direct, proxied };
  };

  it('`Transfer-Encoding: CHUNKED` (codings are case-insensitive, RFC 9112 §7), chunk sizes `00B` in upper case with leading zeros', async () => {
    const { direct, proxied } = await serve('HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nTransfer-Encoding: CHUNKED\r\n\r\n00B\r\n{"ok":true}\r\n0000\r\n\r\n');
    expectSameFinals(direct, proxied);
  });

  it('`Content-Length: 0011` (1*DIGIT, RFC 9110 §8.6: leading zeros are digits) is eleven bytes', async () => {
    const { direct, proxied } = await serve('HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nContent-Length: 0011\r\n\r\n{"ok":true}');
    expect(direct[0]!.body.toString()).toBe('{"ok":true}');
    expectSameFinals(direct, proxied);
  });

  it('a header line with whitespace before its colon: the proxy takes it out before forwarding, or refuses the answer (RFC 9112 §5.1)', async () => {
    const { proxied } = await serve('HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nX-Spaced : yes\r\nContent-Length: 2\r\n\r\n{}');
    const m = proxied[0]!;
    if (m.status === 200) expect(m.headers.map(([n]) => n)).not.toContain('X-Spaced ');
    else expect(m.status).toBe(502);
  });
});

describe('answers with no body whatever their headers say (RFC 9112 §6.3 (1): HEAD, 204, 304)', () => {
  const cases: [string, string, string][] = [
    ['a HEAD answered with Transfer-Encoding: chunked', 'HEAD', 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'],
    ['a 204 with a Content-Length: 10', 'GET', 'HTTP/1.1 204 No Content\r\n' + DATE + 'Content-Length: 10\r\n\r\n'],
    ['a 304 with Transfer-Encoding: chunked', 'GET', 'HTTP/1.1 304 Not Modified\r\n' + DATE + 'ETag: "x"\r\nTransfer-Encoding: chunked\r\n\r\n'],
  ];
  for (const [what, method, bytes] of cases) {
    it(`${what}: answered at once, then the next request on the same kept-alive connection too`, async () => {
      let n = 0;
      const backend = await rawBackend((req, socket) => {
        current = req;
        n++;
        if (n === 1) return answer(socket, bytes);
        answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Type: application/json\r\nContent-Length: 12\r\n\r\n{"second":1}');
      });
      const p = await proxy(backend.url, ['--target-timeout', '5000']);
      const host = `127.0.0.1:${p.port}`;
      const t0 = Date.now();
      const raw = await rawExchange(
        p.port,
        [`${method} ${OIDC} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: red-key-0001\r\n\r\n`, `GET ${OIDC}?second HTTP/1.1\r\nHost: ${host}\r\nAuthorization: red-key-0001\r\nConnection: close\r\n\r\n`],
        8000,
        300,
      );
      const messages = parseResponses(raw, [method, 'GET']);
      expect(messages.map((m) => m.status)).toEqual([Number(bytes.slice(9, 12)), 200]);
      expect(messages[1]!.body.toString()).toBe('{"second":1}');
      expect(Date.now() - t0).toBeLessThan(3000);
    });
  }
});

describe('header lines no HTTP/1.1 message may carry', () => {
  const proxiedAnswer = async (bytes: string) => {
    const backend = await rawBackend((req, socket) => {
      current = req;
      answer(socket, bytes);
    });
    const p = await proxy(backend.url);
    return parseResponses(await rawExchange(p.port, get(OIDC)(`127.0.0.1:${p.port}`)), ['GET'])[0]!;
  };

  // RFC 9110 §5.5: "a recipient of CR, LF, or NUL within a field value MUST either reject the message
  // or replace each of those characters with SP before further processing or forwarding".
  it('a bare CR or a NUL inside a field value is replaced by SP or the answer refused, never forwarded', async () => {
    for (const bad of ['X-Bad: a\rSet-Cookie: injected=1', 'X-Bad: a\0b']) {
      const m = await proxiedAnswer('HTTP/1.1 200 OK\r\n' + DATE + `Content-Type: application/json\r\n${bad}\r\nContent-Length: 2\r\n\r\n{}`);
      if (m.status === 502) continue;
      const values = m.headers.filter(([n]) => n === 'X-Bad').map(([, v]) => v);
      expect(values.join('')).not.toMatch(/[\r\0]/);
    }
  });
});

describe('never outside --target\'s path', () => {
  /** How lenient backends read a path: %2e %2f %5c decoded (any case, twice for %25), `\` as `/`, `;params` dropped (Tomcat), then RFC 3986 §5.2.4. */
  function asLenientBackendsRead(target: string): string {
    let path = target.split('?')[0]!;
    for (let i = 0; i < 2; i++) path = path.replace(/%25/gi, '%').replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
    path = path.replace(/\\/g, '/');
    const out: string[] = [];
    for (const raw of path.split('/').slice(1)) {
      const segment = raw.split(';')[0]!;
      if (segment === '..') out.pop();
      else if (segment !== '.') out.push(segment);
    }
    return '/' + out.join('/');
  }

  async function escapes(attempts: string[]) {
    const backend = await rawBackend((req, socket) => {
      current = req;
      answer(socket, 'HTTP/1.1 200 OK\r\n' + DATE + 'Content-Length: 2\r\n\r\n{}');
    });
    const p = await proxy(`${backend.url}/base`);
    const escaped: string[] = [];
    for (const target of attempts) {
      const before = backend.seen.length;
      const [m] = parseResponses(await rawExchange(p.port, get(target)(`127.0.0.1:${p.port}`)), ['GET']);
      for (const s of backend.seen.slice(before).map((r) => r.target)) {
        if (!asLenientBackendsRead(s).startsWith('/base/')) escaped.push(`${target} → backend saw ${s} (${asLenientBackendsRead(s)}), client got ${m!.status}`);
      }
    }
    return escaped;
  }

  it('dot segments in mixed spellings (.%2e, %2E., %2E%2e%5C, %2e%2e%2f) never reach the backend above the prefix', async () => {
    expect(await escapes(['/api/.%2e/.%2e/secret', '/api/%2E./%2E./secret', '/api/%2E%2e%5C%2e%2E%5Csecret', '/api/%2e%2e%2f%2e%2e%2fsecret'])).toEqual([]);
  });

  // FINDING: `/api/..;/..;/secret` goes to the backend as `/base/api/..;/..;/secret` (the client
  // gets its 200). Tomcat and Jetty (servlet path parameters) read `..;` as `..`, so such a backend
  // serves `/secret`, above `--target`'s `/base`: the well-known `..;/` traversal past a reverse
  // proxy. docs/proxy.md refuses dot segments "with %2f, %5c or \ read as slashes, as some backends
  // read them"; `;` path parameters are such a reading. (A double-encoded `%252e%252e` also passes;
  // only backends that decode twice read it as `..`: noted, not claimed.)
  it('`..;` segments (read as `..` by servlet backends) never reach the backend above the prefix', async () => {
    expect(await escapes(['/api/..;/..;/secret', '/api/..;x/..;x/secret'])).toEqual([]);
  });
});
