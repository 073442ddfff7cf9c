import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
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
  const route = contract.matchRoute(request.method, request.url.split('?')[0]!);
  return route.kind === 'operation' ? route.operation.operationId : undefined;
}

/** One defect by rewriting the mock's responses: the common shape of a broken target. */
export function breakResponses(contract: Contract, rewrite: (request: MockRequest, response: MockResponse, mock: Mock) => MockResponse): Promise<RunningServer> {
  const mock = freshMock(contract);
  const handle: Handle = (request) => rewrite(request, mock.handle(request), mock);
  return serveHandler(handle, { port: 0, onError: () => {} });
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
      const body = response.body === undefined ? undefined : Buffer.from(response.body);
      res.writeHead(response.status, { ...response.headers, 'content-length': String(body?.length ?? 0) });
      res.end(body);
    });
  });
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
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers };
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
