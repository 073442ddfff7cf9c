import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Contract } from '../../src/contract/index.ts';
import { createMock, serveHandler, type Handle, type Mock, type MockRequest, type MockResponse, type RunningServer } from '../../src/mock/index.ts';

/** A fresh mock on its default state, with error ids pinned so that reports are byte-identical. */
export function freshMock(contract: Contract): Mock {
  let n = 0;
  return createMock({ contract, newId: () => `error-${++n}` });
}

/** The operationId a request is routed to, or undefined. */
export function operationOf(contract: Contract, request: MockRequest): string | undefined {
  const route = contract.matchRoute(request.method, originForm(request.url).split('?')[0]!);
  return route.kind === 'operation' ? route.operation.operationId : undefined;
}

/** One defect by rewriting the mock's responses: the common shape of a broken target. */
export function breakResponses(contract: Contract, rewrite: (request: MockRequest, response: MockResponse, mock: Mock) => MockResponse): Promise<RunningServer> {
  const mock = freshMock(contract);
  // An absolute-form target is the origin-form path (RFC 9112 §3.2.2), as the mock reads it: the rewrite sees the path it knows.
  const handle: Handle = (request) => {
    const plain = { ...request, url: originForm(request.url) };
    return rewrite(plain, mock.handle(plain), mock);
  };
  return serveHandler(handle, { port: 0, onError: () => {} });
}

/** The path and query of an absolute-form request target (RFC 9112 §3.2.2), or the target as it is. */
export function originForm(url: string): string {
  return /^https?:\/\//i.test(url) ? url.replace(/^https?:\/\/[^/?#]*/i, '') || '/' : url;
}

/** Edits a JSON body; leaves other responses alone. */
export function editJson(response: MockResponse, edit: (body: Record<string, unknown>) => unknown): MockResponse {
  if (response.body === undefined) return response;
  return { ...response, body: JSON.stringify(edit(JSON.parse(response.body) as Record<string, unknown>)) };
}

/**
 * For defects a Handle cannot express (a dropped connection, a slow race): a raw node:http
 * server whose handler may answer with the mock's response, later, or not at all.
 */
export async function serveRaw(handler: (req: IncomingMessage, res: ServerResponse, answer: (response: MockResponse) => void) => void): Promise<RunningServer> {
  const server = createServer((req, res) => {
    req.resume();
    handler(req, res, (response) => {
      // RFC 9110 §8.6: no Content-Length in a 204, and in a 304 none but the 200's (content-length-allowed); both end at their head.
      if (response.status === 204 || response.status === 304) {
        res.writeHead(response.status, response.headers);
        res.end();
        return;
      }
      const body = response.body === undefined ? undefined : Buffer.from(response.body);
      res.writeHead(response.status, { ...response.headers, 'content-length': String(body?.length ?? 0) });
      res.end(body);
    });
  });
  return listenOnLoopback(server);
}

/** A node:http server of a target listening on a free loopback port; closing it drops its kept-alive connections. */
export async function listenOnLoopback(server: Server): Promise<RunningServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export function toMockRequest(req: IncomingMessage): MockRequest {
  // As a framework hands a request over: the path of an absolute-form target (RFC 9112 §3.2.2), repeated Authorization lines as the
  // one list they are (RFC 9110 §5.3; node:http keeps only the first).
  const lines = req.rawHeaders.filter((_, i, all) => i % 2 === 1 && all[i - 1]!.toLowerCase() === 'authorization');
  return { method: req.method ?? 'GET', url: originForm(req.url ?? '/'), headers: lines.length > 1 ? { ...req.headers, authorization: lines.join(', ') } : req.headers };
}

/** One defect by rewriting the request before the mock sees it (a URL or key read loosely): the other common shape. */
export function rewriteRequests(contract: Contract, rewrite: (request: MockRequest) => MockRequest): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveRaw((req, _, answer) => answer(mock.handle(rewrite(toMockRequest(req)))));
}

/**
 * The mock behind other keys: a conformant server whose full and restricted keys are `full`
 * and `restricted` (e.g. one character long, or words its bodies contain).
 */
export function mockWithKeys(contract: Contract, keys: { full: string; restricted: string }, mockKeys: { full: string; restricted: string }): Promise<RunningServer> {
  const mock = freshMock(contract);
  const translate: Record<string, string> = { [keys.full]: mockKeys.full, [keys.restricted]: mockKeys.restricted };
  return serveRaw((req, _, answer) => {
    const key = req.headers.authorization;
    // An unknown key must stay unknown, also when it happens to be one of the mock's own.
    const mapped = key === undefined ? undefined : (translate[key] ?? (key === mockKeys.full || key === mockKeys.restricted ? 'unknown' : key));
    answer(mock.handle({ ...toMockRequest(req), headers: { ...req.headers, authorization: mapped } }));
  });
}
