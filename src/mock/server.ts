import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MOCK_ERROR_KINDS, errorResponse, randomIds } from './errors.ts';
import type { Handle, MockResponse } from './types.ts';

export interface ServeOptions {
  /** Port to listen on; 0 picks a free one. @default 4010 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** Called once per answered request, e.g. for an access log. Never receives headers or bodies of the request. */
  onResponse?: (line: { method: string; url: string; status: number; ms: number }) => void;
  /** Called when the handle throws: a bug of the mock, answered with 500. @default writes to stderr */
  onError?: (error: unknown) => void;
}

export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The node:http adapter: bytes in, a MockRequest to the handle, its MockResponse out as bytes. */
export async function serveHandler(handle: Handle, options: ServeOptions = {}): Promise<RunningServer> {
  const { host = '127.0.0.1', onResponse, onError = (error) => console.error(error) } = options;
  const server = createServer((req, res) => {
    const started = onResponse ? performance.now() : 0;
    // The operations take no body: drain and discard it so the connection stays usable.
    req.resume();
    let response: MockResponse;
    try {
      response = handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    } catch (error) {
      onError(error);
      response = errorResponse(500, MOCK_ERROR_KINDS[500], error instanceof Error ? error.message : String(error), randomIds);
    }
    send(req, res, response);
    onResponse?.({ method: req.method ?? '', url: req.url ?? '', status: response.status, ms: performance.now() - started });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function send(req: IncomingMessage, res: ServerResponse, response: MockResponse): void {
  const body = response.body === undefined ? undefined : Buffer.from(response.body);
  res.writeHead(response.status, { ...response.headers, 'content-length': String(body?.length ?? 0) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
