/**
 * Red team, round two (issue 19): the request head as the backend receives it, directly and
 * through the proxy, compared as raw bytes. The proxy must forward what it is given: header lines
 * in their case and order with repeats and obs-text, and header sections as large as the backend
 * takes (browsers with many cookies send 20-60 KiB; Go takes 1 MiB, nginx 32 KiB, node:http 16 KiB):
 * the backend, not the proxy, decides what is too large.
 */
import { describe, expect, it } from 'vitest';
import { rawBackend, rawExchange, parseResponses, useProxy, type SeenRequest } from './harness.ts';

const DATE = 'Date: Sat, 28 Nov 2026 12:00:00 GMT\r\n';

/** Answers every request with the request's own head as its body. */
async function echoBackend() {
  return rawBackend((request: SeenRequest, socket) => {
    const body = Buffer.from(request.head, 'latin1');
    socket.write(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\n${DATE}Content-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`), body]));
    if (request.headers.some(([n, v]) => /^connection$/i.test(n) && /close/i.test(v))) socket.end();
  });
}

/** The head's lines but for the request line, Host and Connection (the ones a proxy rewrites), as sent. */
const forwarded = (head: string) => head.split('\r\n').slice(1).filter((l) => !/^(host|connection):/i.test(l));

const proxy = useProxy();

describe('the request head reaches the backend as the client wrote it', () => {
  it('case, order, repeats, obs-text: the same lines, with Host where the client put it (first), not moved to the end', async () => {
    const backend = await echoBackend();
    const p = await proxy(backend.url);
    const request = (host: string) =>
      Buffer.from(`GET /echo HTTP/1.1\r\nhost: ${host}\r\nX-B: 1\r\nx-a: 2\r\nX-B: 3\r\nCOOKIE: a=1\r\nCookie: b=2\r\nX-Obs: caf\xe9\xff\r\nAccept: a\r\naccept: b\r\nConnection: close\r\n\r\n`, 'latin1');
    await rawExchange(backend.port, request(`127.0.0.1:${backend.port}`));
    await rawExchange(p.port, request(`127.0.0.1:${p.port}`));
    const [direct, proxied] = backend.seen.map((s) => s.head);
    expect(forwarded(proxied!)).toEqual(forwarded(direct!));
    // RFC 9112 §3.2: a user agent sends Host first; the proxy replaces its value (the target's) where it stands.
    expect(proxied!.split('\r\n')[1]).toBe(`host: 127.0.0.1:${backend.port}`);
  });

  it('a 20 KiB cookie and a 48 KiB section of 400 lines (over node:http\'s 16 KiB default) reach the backend whole, as directly', async () => {
    const backend = await echoBackend();
    const p = await proxy(backend.url);
    const big = (host: string) => `GET /echo HTTP/1.1\r\nHost: ${host}\r\nCookie: session=${'c'.repeat(20 * 1024)}\r\nConnection: close\r\n\r\n`;
    const many = (host: string) => `GET /echo HTTP/1.1\r\nHost: ${host}\r\n${Array.from({ length: 400 }, (_, i) => `X-Field-${i}: ${'v'.repeat(100)}\r\n`).join('')}Connection: close\r\n\r\n`;
    for (const request of [big, many]) {
      const direct = parseResponses(await rawExchange(backend.port, request(`127.0.0.1:${backend.port}`)), ['GET'])[0]!;
      const proxied = parseResponses(await rawExchange(p.port, request(`127.0.0.1:${p.port}`)), ['GET'])[0]!;
      expect(direct.status).toBe(200);
      expect(proxied.status, proxied.body.toString().slice(0, 200)).toBe(200);
      expect(forwarded(proxied.body.toString('latin1'))).toEqual(forwarded(direct.body.toString('latin1')));
    }
  });

  it('a section over what the proxy reads (256 KiB) gets a 431 in the API\'s error shape that says the limit, and never reaches the backend', async () => {
    const backend = await echoBackend();
    const p = await proxy(backend.url);
    const raw = await rawExchange(p.port, `GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: s=${'c'.repeat(300 * 1024)}\r\nConnection: close\r\n\r\n`);
    const answer = parseResponses(raw, ['GET'])[0]!;
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ name: 'RequestHeaderFieldsTooLargeError', message: expect.stringContaining('256 KiB') });
    expect(backend.seen).toHaveLength(0);
  });

  it('a WebSocket handshake: Upgrade is hop-by-hop and not forwarded (the proxy tunnels no protocol), so the client gets the backend\'s answer to the plain request, at once', async () => {
    const backend = await rawBackend((request, socket) => {
      const upgrade = request.headers.some(([n, v]) => /^upgrade$/i.test(n) && /websocket/i.test(v));
      if (upgrade) return socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n');
      const body = '{"message":"this endpoint speaks WebSocket only"}';
      socket.end(`HTTP/1.1 426 Upgrade Required\r\n${DATE}Upgrade: websocket\r\nConnection: Upgrade, close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    });
    const p = await proxy(backend.url);
    const handshake = (host: string) => `GET /ws HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    const proxied = parseResponses(await rawExchange(p.port, [handshake(`127.0.0.1:${p.port}`), 'GET /after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'], 5000, 300), ['GET', 'GET']);
    expect(proxied[0]!.status).toBe(426);
    expect(proxied[0]!.body.toString()).toBe('{"message":"this endpoint speaks WebSocket only"}');
    expect(backend.seen[0]!.headers.filter(([n]) => /^(upgrade|connection)$/i.test(n))).toEqual([]);
  });
});
