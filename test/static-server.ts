import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StaticFile {
  type: string;
  body: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface StaticServer {
  url: string;
  /** Every path requested from this server, in order: shows what a service worker kept from reaching it. */
  requested: string[];
  close(): Promise<void>;
}

/**
 * A loopback server of fixed files, for the pages the browser tests load: a second origin for
 * the CORS page, and the origin that registers MSW's service worker. Anything else is a 404.
 */
export async function serveStatic(files: Readonly<Record<string, StaticFile>>): Promise<StaticServer> {
  const requested: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requested.push(path);
    const file = files[path];
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`static server: no ${path}`);
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store', ...file.headers }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
