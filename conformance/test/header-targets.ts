import type { Contract } from '../../src/contract/index.ts';
import type { Mock, MockRequest, MockResponse, RunningServer } from '../../src/mock/index.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { breakResponses, freshMock, operationOf, serveRaw, toMockRequest } from './serve-target.ts';

/**
 * Red team round eight's principles (issue 18; test/red-team/round-8/BASELINE.md, "principle the
 * suite lacks"), as targets of our own, written before the variants that catch them: headers that
 * ask for another method, name another path, carry the key outside Authorization, arrive in the
 * list forms a chain of intermediaries writes, or carry one correlation id on several errors; and
 * overlap whose outcome depends on the order in which credentials arrive. Each broken one differs
 * from round eight's example of the same principle; each conformant one is a plausible server that
 * a too-strict version of the same variant would accuse.
 */

const ADMIN_KEY = 'mock-admin-key';
const VIEWER_KEY = 'mock-viewer-key';
const JSON_TYPE = { 'content-type': 'application/json' };
let errors = 0;
const error = (status: number, name: string, message = 'broken on purpose'): MockResponse => ({ status, headers: JSON_TYPE, body: JSON.stringify({ id: `hdr-${++errors}`, name, message }) });
const asAdmin = (request: MockRequest): MockRequest => ({ ...request, headers: { ...request.headers, authorization: ADMIN_KEY } });
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const headerOf = (request: MockRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
const validKey = (request: MockRequest) => request.headers.authorization === ADMIN_KEY || request.headers.authorization === VIEWER_KEY;
/** An error body with another id (what a server that takes ids from the request writes). */
const withId = (response: MockResponse, id: string): MockResponse => (response.status >= 400 && response.body ? { ...response, body: JSON.stringify({ ...(JSON.parse(response.body) as object), id }) } : response);

export const HEADER_BROKEN_TARGETS: InvarianceTarget[] = [
  // Method override: POST is where frameworks honour it (Express method-override, ASP.NET's X-HTTP-Method, Rails' _method).
  {
    name: 'POST with X-HTTP-Method: GET or DELETE runs the named operation; the permission was decided for the POST, which any valid key may send',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const named = headerOf(req, 'x-http-method');
        if (req.method !== 'POST' || named === undefined || !validKey(req)) return res;
        return mock.handle(asAdmin({ ...req, method: named.toUpperCase() }));
      }),
  },
  {
    name: 'X-Method-Override on POST honoured before auth, while the auth guard covers only the methods the routes list: a POST without a key runs the operation',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const named = headerOf(req, 'x-method-override');
        return req.method === 'POST' && named !== undefined ? mock.handle(asAdmin({ ...req, method: named.toUpperCase() })) : res;
      }),
  },
  // Headers that name a path: a gateway's rewrite support or its external path.
  {
    name: 'X-Rewrite-URL names the route (rewrite support) after auth and the permission were decided on the request line: a key allowed one operation gets another',
    dimension: 'headers',
    // The body is another operation's: the schema check of the variant's answer names it first (one defect, one finding).
    caughtBy: ['headers-ignored', 'response-schema-conformance'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const rewrite = headerOf(req, 'x-rewrite-url');
        if (rewrite === undefined || res.status === 401 || res.status === 403) return res;
        return mock.handle(asAdmin({ ...req, method: 'GET', url: rewrite }));
      }),
  },
  {
    name: 'the permission looked up for the path in X-Forwarded-Path (the external path a gateway reports) while the router serves the request line',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const external = headerOf(req, 'x-forwarded-path');
        if (external === undefined || res.status !== 403) return res;
        const permitted = mock.handle({ ...req, method: 'GET', url: external }).status !== 403;
        return permitted ? mock.handle(asAdmin(req)) : res;
      }),
  },
  // The list forms of ordinary headers that a chain of intermediaries writes.
  {
    name: 'Forwarded (RFC 7239) parsed by a pattern that expects for=<IPv4>: a quoted IPv6 node with a port gets 500',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'not-a-server-error'],
    serve: (contract) => breakResponses(contract, (req, res) => (/for="\[/i.test(headerOf(req, 'forwarded') ?? '') ? error(500, 'InternalServerError') : res)),
  },
  {
    name: 'X-Forwarded-For entries validated as IPv4 addresses: an IPv6 entry or one with a port is refused with 400',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'status-code-documented'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const chain = headerOf(req, 'x-forwarded-for');
        if (chain === undefined) return res;
        return chain.split(',').every((entry) => /^\d{1,3}(\.\d{1,3}){3}$/.test(entry.trim())) ? res : error(400, 'BadDataError', 'X-Forwarded-For: not an IPv4 address');
      }),
  },
  {
    name: 'an Accept-Language holding the wildcard range (*;q=0.5) gets 500: the message catalogue is looked up for "*"',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'not-a-server-error'],
    serve: (contract) => breakResponses(contract, (req, res) => (/(^|,)\s*\*/.test(headerOf(req, 'accept-language') ?? '') ? error(500, 'InternalServerError') : res)),
  },
  // A key elsewhere than Authorization (decision key-in-header-only).
  {
    name: 'an Api-Key header is taken as the key when there is no Authorization',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => breakResponses(contract, (req, res, mock) => (req.headers.authorization === undefined && headerOf(req, 'api-key') !== undefined ? mock.handle({ ...req, headers: { ...req.headers, authorization: headerOf(req, 'api-key') } }) : res)),
  },
  {
    name: 'X-Access-Token is taken as the key on the reads when there is no Authorization (an OAuth-style fallback)',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => breakResponses(contract, (req, res, mock) => (req.method === 'GET' && req.headers.authorization === undefined && headerOf(req, 'x-access-token') !== undefined ? mock.handle({ ...req, headers: { ...req.headers, authorization: headerOf(req, 'x-access-token') } }) : res)),
  },
  // Correlation headers (decision error-ids-unique: one id per error instance, whatever the request carries).
  {
    name: 'error ids taken from X-Correlation-Id when a request carries one',
    dimension: 'headers',
    caughtBy: ['error-ids-unique'],
    serve: (contract) => breakResponses(contract, (req, res) => (headerOf(req, 'x-correlation-id') === undefined ? res : withId(res, headerOf(req, 'x-correlation-id')!))),
  },
  {
    name: 'error ids are the trace id of the W3C traceparent header when a request carries one',
    dimension: 'headers',
    caughtBy: ['error-ids-unique'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const traceId = /^[\da-f]{2}-([\da-f]{32})-/.exec(headerOf(req, 'traceparent') ?? '')?.[1];
        return traceId === undefined ? res : withId(res, traceId);
      }),
  },
  // Overlap: what only shows when a refused or weaker credential arrives ahead of the full key.
  {
    name: 'key lookups batched per 10 ms (WHERE key IN …, ORDER BY key) and the rows handed out by position: a key that arrives ahead of the full key gets its row',
    dimension: 'overlap',
    caughtBy: ['overlap-independent'],
    serve: (contract) => batchedKeyLookups(contract, (keys, known) => {
      const rows = keys.filter((k) => known.has(k)).sort();
      return new Map(keys.map((k, i) => [k, rows[i]]));
    }),
  },
];

export const HEADER_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    // Express's method-override middleware mounted before auth: the named method is the request's method for everything after it.
    name: 'method override honoured on POST before auth (X-HTTP-Method-Override, X-HTTP-Method, X-Method-Override): the named operation with its own auth and permission',
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const named = headerOf(req, 'x-http-method-override') ?? headerOf(req, 'x-http-method') ?? headerOf(req, 'x-method-override');
        return req.method === 'POST' && named !== undefined ? mock.handle({ ...req, method: named.toUpperCase() }) : res;
      }),
  },
  {
    name: 'X-Forwarded-Prefix and X-Forwarded-Path used only to build links: a Content-Location from them, the answer otherwise the same',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const prefix = headerOf(req, 'x-forwarded-prefix') ?? headerOf(req, 'x-forwarded-path');
        return prefix === undefined ? res : { ...res, headers: { ...res.headers, 'content-location': `${prefix.replace(/\/$/, '')}${req.url}` } };
      }),
  },
  {
    name: 'the client address parsed from Forwarded and X-Forwarded-For as RFC 7239 writes them (lists, quoted IPv6, ports) and reported in X-Client-Address',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const forwarded = /for="?\[?([^\]";,]+)/i.exec(headerOf(req, 'forwarded') ?? '')?.[1];
        const client = forwarded ?? headerOf(req, 'x-forwarded-for')?.split(',')[0]?.trim();
        return client === undefined ? res : { ...res, headers: { ...res.headers, 'x-client-address': client } };
      }),
  },
  {
    name: 'a key in X-API-Key, Api-Key, X-Auth-Token or X-Access-Token without Authorization: 401 whose message says where the key goes, with WWW-Authenticate',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const elsewhere = ['x-api-key', 'api-key', 'x-auth-token', 'x-access-token'].find((name) => headerOf(req, name) !== undefined);
        if (elsewhere === undefined || res.status !== 401 || !res.body) return res;
        return { ...res, headers: { ...res.headers, 'www-authenticate': 'Bearer' }, body: JSON.stringify({ ...(JSON.parse(res.body) as object), message: `the key goes in the Authorization header, not in ${elsewhere}` }) };
      }),
  },
  {
    name: 'X-Request-Id and traceparent echoed in the answer headers and in error bodies as requestId (an extra field); the error id is new in every answer',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const requestId = headerOf(req, 'x-request-id') ?? headerOf(req, 'x-correlation-id');
        if (requestId === undefined) return res;
        const headers = { ...res.headers, 'x-request-id': requestId, ...(headerOf(req, 'traceparent') ? { traceresponse: headerOf(req, 'traceparent')! } : {}) };
        return res.status >= 400 && res.body ? { ...res, headers, body: JSON.stringify({ ...(JSON.parse(res.body) as object), requestId }) } : { ...res, headers };
      }),
  },
  {
    name: 'key lookups batched per 10 ms (a DataLoader) and the rows matched to the requests by key',
    serve: (contract) => batchedKeyLookups(contract, (keys, known) => new Map(keys.map((k) => [k, known.has(k) ? k : undefined]))),
  },
];

/**
 * A server that looks keys up in batches: the keys of the requests that arrive within 3 ms are
 * looked up at once, and `assign` maps each presented key to the stored key whose row it gets
 * (undefined: no row, 401). Requests without a key are answered at once.
 */
function batchedKeyLookups(contract: Contract, assign: (keys: string[], known: ReadonlySet<string>) => Map<string, string | undefined>): Promise<RunningServer> {
  const mock: Mock = freshMock(contract);
  const known = new Set([ADMIN_KEY, VIEWER_KEY]);
  let pending: { key: string; resolve: (row: string | undefined) => void }[] = [];
  const lookup = (key: string) =>
    new Promise<string | undefined>((resolve) => {
      if (pending.length === 0) {
        setTimeout(() => {
          const batch = pending;
          pending = [];
          const rows = assign([...new Set(batch.map((b) => b.key))], known);
          for (const { key: presented, resolve: done } of batch) done(rows.get(presented));
          // 10 ms, as SQL batchers wait: at 3 ms a loaded machine (a CI run's parallel test files) spread one overlap batch over two windows.
        }, 10);
      }
      pending.push({ key, resolve });
    });
  return serveRaw((req, _, answer) => {
    const request = toMockRequest(req);
    const key = headerOf(request, 'authorization');
    if (key === undefined || operationOf(contract, request) === undefined) return answer(mock.handle(request));
    void lookup(key).then(async (row) => {
      await later(1);
      answer(mock.handle({ ...request, headers: { ...request.headers, authorization: row ?? 'no-such-key' } }));
    });
  });
}
