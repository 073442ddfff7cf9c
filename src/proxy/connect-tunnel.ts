import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { connectToBackend } from './upstream-pool.ts';

/**
 * A CONNECT the proxy is given goes to its one backend as sent (request line and header lines as the client wrote them), and the
 * bytes come back unchanged both ways (RFC 9110 §9.3.6): the backend decides, and a client sees through the proxy what it sees
 * directly (a backend on node:http closes the connection unanswered; one that answers 405 gets its 405 through). The proxy never
 * connects anywhere but --target, whatever authority the request names, so it is no open proxy. No operation takes CONNECT: not
 * judged, not journaled. A backend silent for `idleMs` ends both sides.
 */
export function tunnelTo(target: URL, idleMs: number): { tunnel: (request: IncomingMessage, client: Duplex, head: Buffer) => void; close: () => void } {
  const open = new Set<() => void>();
  const tunnel = (request: IncomingMessage, client: Duplex, head: Buffer) => {
    const upstream = connectToBackend(target);
    const end = () => {
      upstream.destroy();
      client.destroy();
    };
    open.add(end);
    upstream.once('close', () => open.delete(end));
    upstream.setTimeout(idleMs, end);
    upstream.once('error', end);
    client.once('error', end);
    upstream.once('close', () => client.destroy());
    client.once('close', () => upstream.destroy());
    const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
    for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
    upstream.write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'));
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  };
  // The proxy's stop ends its tunnels too: they are not connections node:http still counts as its own.
  return { tunnel, close: () => [...open].forEach((end) => end()) };
}
