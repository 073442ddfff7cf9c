import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyTooLargeError, MOCK_ERROR_KINDS, errorResponse, randomIds } from '../core/errors.ts';
import type { MockHandle, MockRequest, MockResponse } from '../core/types.ts';

export interface ServeOptions {
  /** Port to listen on; 0 picks a free one. @default 4010 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /**
   * Called once per answered request, e.g. for an access log. The request is there to derive
   * facts from (createRequestFacts: operationId, session, whether a key came); a log must never
   * print its headers or body.
   */
  onResponse?: (line: { method: string; url: string; status: number; ms: number }, request: MockRequest) => void;
  /** Called when the handle throws: a bug of the mock, answered with 500. @default writes to stderr */
  onError?: (error: unknown) => void;
  /**
   * The most bytes of a request body the handle may read (only the control API reads one);
   * more is refused with 413. @default 1 MiB
   */
  maxBodyBytes?: number;
}

export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The node:http view of a request. `signal` and `body` are made on first use only: the plain
 * path (a GET with no body, answered at once) allocates neither.
 */
class NodeMockRequest implements MockRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly remoteAddress: string | undefined;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #maxBodyBytes: number;
  #controller: AbortController | undefined;
  #body: Promise<string> | undefined;

  constructor(req: IncomingMessage, res: ServerResponse, maxBodyBytes: number) {
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.headers = req.headers;
    this.remoteAddress = req.socket.remoteAddress;
    this.#req = req;
    this.#res = res;
    this.#maxBodyBytes = maxBodyBytes;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = (this.#controller = new AbortController());
      // 'close' before the response finished: the client went away.
      if (this.#res.destroyed) controller.abort();
      else this.#res.once('close', () => this.#res.writableFinished || controller.abort());
    }
    return this.#controller.signal;
  }

  readonly body = (): Promise<string> =>
    (this.#body ??= new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      this.#req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.#maxBodyBytes) {
          this.#req.removeAllListeners('data');
          this.#req.resume();
          reject(new BodyTooLargeError(`The request body is larger than ${this.#maxBodyBytes} bytes.`));
        } else chunks.push(chunk);
      });
      this.#req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      this.#req.once('error', reject);
    }));

  /** Whether the handle asked for the body; if not, it is drained so the connection stays usable. */
  get bodyRequested(): boolean {
    return this.#body !== undefined;
  }
}

/**
 * The node:http adapter: bytes in, a MockRequest to the handle, its MockResponse out as bytes.
 * A handle that answers synchronously is sent at once, without a promise.
 */
export async function serveHandler(handle: MockHandle, options: ServeOptions = {}): Promise<RunningServer> {
  const { host = '127.0.0.1', onResponse, onError = (error) => console.error(error), maxBodyBytes = 1024 * 1024 } = options;
  const fail = (error: unknown): MockResponse => {
    onError(error);
    return errorResponse(500, MOCK_ERROR_KINDS[500], error instanceof Error ? error.message : String(error), randomIds);
  };
  const server = createServer((req, res) => {
    const started = onResponse ? performance.now() : 0;
    const request = new NodeMockRequest(req, res, maxBodyBytes);
    const finish = (response: MockResponse) => {
      if (!request.bodyRequested) req.resume();
      send(req, res, response);
      onResponse?.({ method: request.method, url: request.url, status: response.status, ms: performance.now() - started }, request);
    };
    let answer: MockResponse | Promise<MockResponse>;
    try {
      answer = handle(request);
    } catch (error) {
      answer = fail(error);
    }
    if (answer instanceof Promise) answer.then(finish, (error: unknown) => finish(fail(error)));
    else finish(answer);
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
  // The client left while a delayed answer waited: nothing to write to.
  if (res.destroyed) return;
  const body = response.body === undefined ? undefined : Buffer.from(response.body);
  res.writeHead(response.status, { ...response.headers, 'content-length': String(body?.length ?? 0) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
