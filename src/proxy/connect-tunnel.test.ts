import { createServer } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../conformance/test/serve-target.ts';
import { loadContract, type Contract } from '../contract/index.ts';
import type { RunningServer } from '../mock/index.ts';
import { startProxy } from './start-proxy.ts';

/**
 * A CONNECT through the proxy gets what the backend gives it (RFC 9110 §9.3.6; issue 19: the proxy forwards what it is given and
 * what it gets back unchanged). The check sends `CONNECT host:port` once a run (red team round fifteen); directly a node:http backend
 * closes the connection unanswered, and the proxy used to answer 405 of its own instead.
 */
let contract: Contract;
beforeAll(async () => (contract = await loadContract({ validate: false })));
const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0).reverse()) await server.close();
});

/** The bytes a raw CONNECT gets back until the server closes (or 2 s pass), and whether it closed. */
function rawConnect(url: string): Promise<{ bytes: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let bytes = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ bytes, closed: false });
    }, 2000);
    socket.on('data', (chunk: Buffer) => (bytes += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ bytes, closed: true });
    });
    socket.write(`CONNECT ${hostname}:${port} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-Odd-Case: kept\r\n\r\n`);
  });
}

describe('CONNECT through the proxy', () => {
  it('a backend that closes the connection unanswered (node:http with no connect listener): the client sees the close, no answer of the proxy', async () => {
    const backend = await listenOnLoopback(createServer((_req, res) => res.end('ok')));
    running.push(backend);
    const proxy = await startProxy({ contract, port: 0, target: backend.url });
    running.push(proxy);
    expect(await rawConnect(backend.url)).toEqual({ bytes: '', closed: true });
    expect(await rawConnect(proxy.url)).toEqual({ bytes: '', closed: true });
  });

  it('a backend that answers and tunnels: its bytes reach the client unchanged both ways, and the request reached it as sent', async () => {
    const heads: string[][] = [];
    const server = createServer((_req, res) => res.end('ok'));
    server.on('connect', (request, socket) => {
      heads.push([request.method!, request.url!, ...request.rawHeaders]);
      socket.write("HTTP/1.1 200 Tunnel Open\r\nX-Backend: yes\r\n\r\n");
      socket.on('data', (chunk: Buffer) => socket.end(`echo:${chunk.toString('latin1')}`));
    });
    const backend = await listenOnLoopback(server);
    running.push(backend);
    const proxy = await startProxy({ contract, port: 0, target: backend.url });
    running.push(proxy);
    const { hostname, port } = new URL(proxy.url);
    const bytes = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), hostname);
      let got = '';
      const timer = setTimeout(() => socket.destroy(), 2000);
      socket.on('data', (chunk: Buffer) => {
        got += chunk.toString('latin1');
        if (got.endsWith('\r\n\r\n')) socket.write('ping');
      });
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(got);
      });
      socket.write(`CONNECT elsewhere.invalid:443 HTTP/1.1\r\nHost: elsewhere.invalid:443\r\nX-Odd-Case: kept\r\n\r\n`);
    });
    expect(bytes).toBe('HTTP/1.1 200 Tunnel Open\r\nX-Backend: yes\r\n\r\necho:ping');
    // The request line and header lines as the client wrote them; the proxy connected to its backend, not to the authority named.
    expect(heads).toEqual([['CONNECT', 'elsewhere.invalid:443', 'Host', 'elsewhere.invalid:443', 'X-Odd-Case', 'kept']]);
  });
});
