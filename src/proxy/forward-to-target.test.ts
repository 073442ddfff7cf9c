import { afterEach, describe, expect, it } from 'vitest';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createForwarder, type ForwardedExchange } from './forward-to-target.ts';

const open: (Server | NetServer)[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of open.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function listen<T extends Server | NetServer>(server: T): Promise<number> {
  open.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

describe('the forwarder', () => {
  it('close() waits for the judgement of an answer that already went out (a stop right after a 504 still reports it)', async () => {
    // A backend that takes the request and never answers.
    const silentPort = await listen(createNetServer((socket) => sockets.push(socket.resume())));
    const judged: ForwardedExchange[] = [];
    const forwarder = createForwarder({ target: new URL(`http://127.0.0.1:${silentPort}`), maxJudgedBytes: 1 << 20, maxBodyBytes: 1 << 20, targetTimeoutMs: 50, onExchange: (exchange) => judged.push(exchange) });
    let judgedAtClose: number | undefined;
    let closed: Promise<void> | undefined;
    const proxyPort = await listen(
      createHttpServer((req, res) => {
        // 'finish' comes as the 504's bytes are handed to the socket, before the judgement's turn: the stop of a
        // proxy whose client read the 504 and sent SIGTERM at once.
        res.on('finish', () => (closed = forwarder.close().then(() => void (judgedAtClose = judged.length))));
        forwarder.forward(req, res, {});
      }),
    );
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port: proxyPort, path: '/api/admin/auth/oidc/settings', agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(504);
    await closed;
    expect(judgedAtClose).toBe(1);
    expect(judged[0]!.transportError).toMatch(/said nothing for 50 ms/);
  });
});

describe('leavesPrefix: dot segments as some backend reads them (docs/proxy.md "Paths as sent")', () => {
  it('finds `..` under the spellings backends decode: `;params` (Tomcat, Jetty), %3b, %2e, %25-encoded twice, %2f, %5c, `\\`', async () => {
    const { leavesPrefix } = await import('./forward-to-target.ts');
    for (const path of ['/api/..;/..;/secret', '/api/..;x/..;x/secret', '/..;jsessionid=1/x', '/api/.;/..;/..;/s', '/api/..%3b/..%3B/s', '/api/%2e%2e;a/%2E.;b/s', '/api/%252e%252e/%252e%252e/s', '/api/..%255c..%255cs', '/a\\..\\..\\s'])
      expect(leavesPrefix(path), path).toBe(true);
  });

  it('keeps paths that stay under the prefix, and ordinary ids with dots or semicolons', async () => {
    const { leavesPrefix } = await import('./forward-to-target.ts');
    for (const path of ['/api/admin/environments/project/default', '/api/a;b/..;/c', '/api/v1.2/x..y/..z', '/api/...;/s', '/api/x/.;/..;/s', '/api/%2e%2e?q=/../../..'])
      expect(leavesPrefix(path), path).toBe(false);
  });
});
