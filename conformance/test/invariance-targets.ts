import { brotliCompressSync, gzipSync, zstdCompressSync } from 'node:zlib';
import type { Contract } from '../../src/contract/index.ts';
import { createMock, type Mock, type MockRequest, type MockResponse, type RunningServer } from '../../src/mock/index.ts';
import { DEFAULT_FIXTURES } from '../../src/mock/core/default-fixtures.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_OIDC_SETTINGS, GET_PROJECT_ENVIRONMENTS } from '../operation-ids.ts';
import { breakResponses, freshMock, mockWithKeys, operationOf, rewriteRequests, serveRaw, toMockRequest } from './serve-target.ts';
import { serveSocket, frame, type SocketOptions, type SocketRequest } from './serve-socket.ts';
import type { BrokenTarget } from './broken-targets.ts';
import { HEADER_BROKEN_TARGETS, HEADER_CONFORMANT_VARIANTS } from './header-targets.ts';
import { REQUEST_VARIANT_BROKEN_TARGETS, REQUEST_VARIANT_CONFORMANT_VARIANTS } from './request-variant-targets.ts';
import { ROUND10_REQUEST_BROKEN_TARGETS, ROUND10_REQUEST_CONFORMANT_VARIANTS } from './round10-request-targets.ts';
import { ROUND11_METHOD_CASE_BROKEN_TARGETS, ROUND11_METHOD_CASE_CONFORMANT_VARIANTS } from './round11-method-case-targets.ts';
import { ROUND12_REQUEST_BROKEN_TARGETS, ROUND12_REQUEST_CONFORMANT_VARIANTS } from './round12-request-targets.ts';
import { ROUND13_REQUEST_BROKEN_TARGETS, ROUND13_REQUEST_CONFORMANT_VARIANTS } from './round13-request-targets.ts';
import { ROUND14_REQUEST_BROKEN_TARGETS, ROUND14_REQUEST_CONFORMANT_VARIANTS } from './round14-request-targets.ts';
import { ROUND14_HEADER_BROKEN_TARGETS, ROUND14_HEADER_CONFORMANT_VARIANTS } from './round14-header-targets.ts';
import { ROUND15_REQUEST_BROKEN_TARGETS, ROUND15_REQUEST_CONFORMANT_VARIANTS } from './round15-request-targets.ts';
import { ROUND14_FRAMING_CONFORMANT_VARIANTS } from './round14-framing-targets.ts';
import { PROJECT_ROLES_TARGET, ROUND12_RESOURCE_BROKEN_TARGETS, ROUND12_RESOURCE_CONFORMANT_VARIANTS } from './round12-resource-targets.ts';
import { WIRE_BROKEN_TARGETS, WIRE_CONFORMANT_VARIANTS } from './wire-targets.ts';
import { ROUND15_CONTENT_BROKEN_TARGETS, ROUND15_CONTENT_CONFORMANT_VARIANTS } from './round15-content-targets.ts';
import { ROUND16_BROKEN_TARGETS, ROUND16_CONFORMANT_VARIANTS } from './round16-targets.ts';
import { ROUND17_BROKEN_TARGETS, ROUND17_CONFORMANT_VARIANTS, ROUND17_ID_BROKEN_TARGETS } from './round17-targets.ts';
import { ROUND17B_BROKEN_TARGETS, ROUND17B_CONFORMANT_VARIANTS, ROUND17B_METHOD_BROKEN_TARGETS, ROUND17B_METHOD_CONFORMANT_VARIANTS } from './round17b-targets.ts';
import { parseHttpDate } from '../judge/rules/http-dates.ts';

/**
 * Issue 18: servers that break the contract only along what the spec does not name (the
 * method, ordinary headers, the connection, overlap and time), and plausible servers that
 * differ along those same dimensions in ways the spec allows. Written before the variants that
 * catch them (conformance/plan/variants). Each broken one names the dimension and the check(s)
 * it must be caught under; each conformant one must pass with no finding.
 */
export interface InvarianceTarget {
  name: string;
  dimension: 'method' | 'headers' | 'conditional' | 'connection' | 'overlap' | 'earlier';
  /** The run must fail (exit 1) with an error finding of at least one of these checks. */
  caughtBy: string[];
  args?: string[];
  serve(contract: Contract): Promise<RunningServer>;
}

export interface ConformantInvarianceVariant {
  name: string;
  args?: string[];
  /** Warnings it gets by the suite's design (exit 0 still): the exact set of checks. */
  warnings?: string[];
  serve(contract: Contract): Promise<RunningServer>;
}

const ADMIN_KEY = 'mock-admin-key';
const VIEWER_KEY = 'mock-viewer-key';
const JSON_TYPE = { 'content-type': 'application/json' };
let errors = 0;
const error = (status: number, name: string): MockResponse => ({ status, headers: JSON_TYPE, body: JSON.stringify({ id: `inv-${++errors}`, name, message: 'broken on purpose' }) });
const asAdmin = (request: MockRequest): MockRequest => ({ ...request, headers: { ...request.headers, authorization: ADMIN_KEY } });
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tokenIds = (url: string) => /\/service-account\/([^/?]+)\/token\/([^/?]+)/.exec(url)?.slice(1) as [string, string] | undefined;

/** The mock behind a socket server: a target that changes what one kind of request gets. */
function socketMock(contract: Contract, answer: (request: SocketRequest, mock: Mock) => MockResponse | { raw: string } | Promise<MockResponse | { raw: string }>, options?: SocketOptions): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveSocket((request) => answer(request, mock), options);
}

/** A node:http target whose answer may come later (overlap needs requests in flight together). */
function asyncMock(contract: Contract, answer: (request: MockRequest, mock: Mock) => Promise<MockResponse>): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveRaw((req, _, send) => void answer(toMockRequest(req), mock).then(send));
}

export const INVARIANCE_BROKEN_TARGETS: InvarianceTarget[] = [
  // Red team round eight's principles (header-targets.ts).
  ...HEADER_BROKEN_TARGETS,
  // Red team round nine's request-variant and state principles (request-variant-targets.ts).
  ...REQUEST_VARIANT_BROKEN_TARGETS,
  // Red team round ten's request principles (round10-request-targets.ts).
  ...ROUND10_REQUEST_BROKEN_TARGETS,
  // Red team round eleven's method-case principle (round11-method-case-targets.ts).
  ...ROUND11_METHOD_CASE_BROKEN_TARGETS,
  // Red team round twelve's Range and lenient-date principles (round12-request-targets.ts).
  ...ROUND12_REQUEST_BROKEN_TARGETS,
  // Red team round twelve's resource principles (round12-resource-targets.ts).
  ...ROUND12_RESOURCE_BROKEN_TARGETS,
  // Red team round thirteen's principles (round13-request-targets.ts).
  ...ROUND13_REQUEST_BROKEN_TARGETS,
  // Red team round fourteen's HTTP-across-requests principles (round14-request-targets.ts).
  ...ROUND14_REQUEST_BROKEN_TARGETS,
  ...ROUND15_REQUEST_BROKEN_TARGETS,
  // Red team round fourteen's request-header principles (round14-header-targets.ts).
  ...ROUND14_HEADER_BROKEN_TARGETS,
  // Red team round fifteen's request-target-form and overlapping-delete principles (round15-request-targets.ts).
  ...ROUND15_CONTENT_BROKEN_TARGETS,
  // Red team round sixteen's shared-cache and Range principles (round16-targets.ts).
  ...ROUND16_BROKEN_TARGETS,
  // Red team round seventeen's broken-bodies and encoded-delimiter principles (round17-targets.ts).
  ...ROUND17_BROKEN_TARGETS,
  ...ROUND17_ID_BROKEN_TARGETS,
  // Red team round seventeen's secret and method-blind-cache principles (round17b-targets.ts).
  ...ROUND17B_BROKEN_TARGETS,
  ...ROUND17B_METHOD_BROKEN_TARGETS,
  // Red team round ten's wire principles (wire-targets.ts).
  ...WIRE_BROKEN_TARGETS.filter((t) => !t.alone),
  // The method: HEAD is GET without the body (spec decision head-requests).
  {
    name: 'HEAD without a key answers 200 (auth wired to GET only)',
    dimension: 'method',
    caughtBy: ['head-like-get'],
    serve: (contract) => breakResponses(contract, (req, res, mock) => (req.method === 'HEAD' ? mock.handle(asAdmin({ ...req, method: 'GET' })) : res)),
  },
  {
    name: 'HEAD with the restricted key on the OIDC settings answers 200 (the permission checked for GET only)',
    dimension: 'method',
    caughtBy: ['head-like-get'],
    serve: (contract) => breakResponses(contract, (req, res, mock) => (req.method === 'HEAD' && req.headers.authorization === VIEWER_KEY ? mock.handle(asAdmin({ ...req, method: 'GET' })) : res)),
  },
  {
    name: 'HEAD on a missing project answers 200 (HEAD routed to a generic handler)',
    dimension: 'method',
    caughtBy: ['head-like-get'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.method === 'HEAD' && res.status === 404 ? { status: 200, headers: JSON_TYPE, body: undefined } : res)),
  },
  {
    name: 'HEAD on the token path answers 200 (HEAD matched to the DELETE route)',
    dimension: 'method',
    caughtBy: ['head-like-get'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.method === 'HEAD' && tokenIds(req.url) ? { status: 200, headers: {}, body: undefined } : res)),
  },
  {
    name: "HEAD's headers unlike GET's: text/html where GET says application/json",
    dimension: 'method',
    caughtBy: ['head-like-get'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.method === 'HEAD' ? { ...res, headers: { ...res.headers, 'content-type': 'text/html' } } : res)),
  },
  {
    name: 'HEAD answered with its body, which spills into the next answer on the kept-alive connection',
    dimension: 'connection',
    caughtBy: ['head-like-get', 'connection-independent', 'response-received'],
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const response = mock.handle(request);
        return request.method === 'HEAD' ? { raw: frame(response, false).toString('latin1') } : response;
      }),
  },
  // The method: OPTIONS, plain and as a CORS preflight (spec decision options-requests).
  {
    name: 'OPTIONS without a key answers the data (the OIDC secret included)',
    dimension: 'method',
    caughtBy: ['options-harmless'],
    serve: (contract) => breakResponses(contract, (req, res, mock) => (req.method === 'OPTIONS' ? mock.handle(asAdmin({ ...req, method: 'GET' })) : res)),
  },
  {
    name: 'OPTIONS on the token path deletes the token (a catch-all route that runs the handler)',
    dimension: 'method',
    caughtBy: ['options-harmless', 'delete-token-succeeds', 'concurrent-delete-single-success', 'cross-account-delete-rejected', 'bystanders-untouched', 'deletes-at-once-independent'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        if (req.method !== 'OPTIONS' || !tokenIds(req.url)) return res;
        const [account, token] = tokenIds(req.url)!;
        mock.store.deleteToken(decodeURIComponent(account), decodeURIComponent(token));
        return { status: 204, headers: { allow: 'DELETE, OPTIONS' }, body: undefined };
      }),
  },
  {
    name: 'OPTIONS without a key tells which projects exist: 204 with Allow for one that exists, 404 for one that does not (the router looks the project up before auth)',
    dimension: 'method',
    caughtBy: ['options-harmless'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        if (req.method !== 'OPTIONS') return res;
        const project = /\/environments\/project\/([^/?]+)/.exec(req.url)?.[1];
        const known = req.headers.authorization === ADMIN_KEY || req.headers.authorization === VIEWER_KEY;
        if (project !== undefined && !known && mock.store.projectEnvironments(decodeURIComponent(project)) === undefined) return error(404, 'NotFoundError');
        return { status: 204, headers: { allow: 'GET, HEAD, OPTIONS' }, body: undefined };
      }),
  },
  // The method: one the spec does not list for a path has no side effect, and passes for none that it lists.
  {
    name: 'PATCH on the token path deletes the token (a soft delete routed as PATCH, no key check of its own)',
    dimension: 'method',
    caughtBy: ['delete-token-succeeds', 'bystanders-untouched', 'deletions-last'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        if (req.method !== 'PATCH' || !tokenIds(req.url)) return res;
        const [account, token] = tokenIds(req.url)!;
        mock.store.deleteToken(decodeURIComponent(account), decodeURIComponent(token));
        return { status: 204, headers: {}, body: undefined };
      }),
  },
  {
    name: 'HEAD on the GET paths answered 405 with an Allow that does not name GET (a router that lists only its own routes)',
    dimension: 'method',
    caughtBy: ['head-like-get'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.method === 'HEAD' && operationOf(contract, { ...req, method: 'GET' }) ? { status: 405, headers: { allow: 'POST' }, body: undefined } : res)),
  },
  // The path is a URI (RFC 3986 §6.2.2): an equivalent spelling is the same resource, auth included.
  {
    name: 'a percent-encoded letter in the first path segment (/%61pi/...) skips the key check (the guard matches the raw prefix /api/, the router decodes)',
    dimension: 'method',
    caughtBy: ['auth-missing-rejected', 'restricted-key-forbidden'],
    serve: (contract) =>
      rewriteRequests(contract, (req) => {
        const [raw, query] = req.url.split('?') as [string, string | undefined];
        let decoded: string;
        try {
          decoded = decodeURIComponent(raw);
        } catch {
          return req;
        }
        if (raw.startsWith('/api/') || decoded === raw) return req;
        const url = decoded.split('/').map(encodeURIComponent).join('/') + (query === undefined ? '' : `?${query}`);
        return asAdmin({ ...req, url });
      }),
  },
  // Ordinary headers (spec decisions accept-negotiation, required-request-headers).
  {
    name: 'Accept: */* refused with 406 (only application/json accepted, literally)',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.headers.accept !== undefined && req.headers.accept !== 'application/json' ? error(406, 'NotAcceptable') : res)),
  },
  {
    name: 'no Accept header refused with 400',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.headers.accept === undefined && req.method !== 'OPTIONS' ? error(400, 'ValidationError') : res)),
  },
  {
    name: "a browser's Accept without a key is redirected to a login page (302)",
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => breakResponses(contract, (req, res) => (String(req.headers.accept ?? '').includes('text/html') && res.status === 401 ? { status: 302, headers: { location: '/login' }, body: undefined } : res)),
  },
  {
    name: 'Accept-Language turns error answers into 500 (a message catalogue that lacks the language)',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'not-a-server-error'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.headers['accept-language'] !== undefined && res.status >= 400 ? error(500, 'InternalServerError') : res)),
  },
  {
    name: 'X-Requested-With: XMLHttpRequest skips the permission check (an "internal UI call" shortcut)',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => breakResponses(contract, (req, res, mock) => (req.headers['x-requested-with'] !== undefined && res.status === 403 ? mock.handle(asAdmin(req)) : res)),
  },
  {
    name: 'X-HTTP-Method-Override honoured after the permission was checked for the method of the request line',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const override = req.headers['x-http-method-override'];
        if (typeof override !== 'string' || override.toUpperCase() === req.method) return res;
        // The key was checked for the request line's method on this path: a GET with the viewer key on the token path passes as "read".
        if (res.status === 401) return res;
        return mock.handle(asAdmin({ ...req, method: override.toUpperCase() }));
      }),
  },
  {
    name: 'the header field name authorization in lower case is refused (401): the key is read by exact name',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const exact = request.rawHeaders.find(([name]) => name === 'Authorization')?.[1];
        return mock.handle({ ...request, headers: { ...request.headers, authorization: exact } });
      }),
  },
  {
    // RFC 9110 §5.1: a field name is case-insensitive in any spelling, not only in the two a gateway passes on (headers.Authorization ?? headers.authorization).
    name: 'the key read as Authorization or authorization only: AUTHORIZATION or aUtHoRiZaTiOn is no key (401)',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const asSent = request.rawHeaders.find(([name]) => name === 'Authorization' || name === 'authorization')?.[1];
        return mock.handle({ ...request, headers: { ...request.headers, authorization: asSent } });
      }),
  },
  {
    // Only the spec's credential is a credential (decision key-in-header-only): nothing the server hands out becomes one.
    name: 'a session cookie set on an authenticated answer authenticates later requests without a key',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => {
      const sessions = new Map<string, string>();
      return breakResponses(contract, (req, res, mock) => {
        const sid = /(?:^|;\s*)session=([^;]+)/.exec(String(req.headers.cookie ?? ''))?.[1];
        const key = sid === undefined ? undefined : sessions.get(sid);
        if (key !== undefined && (res.status === 401 || res.status === 403)) return mock.handle({ ...req, headers: { ...req.headers, authorization: key } });
        if (res.status >= 400 || typeof req.headers.authorization !== 'string') return res;
        const id = `s${sessions.size + 1}`;
        sessions.set(id, req.headers.authorization);
        return { ...res, headers: { ...res.headers, 'set-cookie': `session=${id}; Path=/; HttpOnly` } };
      });
    },
  },
  {
    // What fetch() wrappers and axios send on a GET or DELETE: Content-Type: application/json with no body. A body parser that insists on JSON refuses it.
    name: 'Content-Type: application/json with an empty body refused with 400 (a JSON body parser in front of every route)',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => (/^application\/json/i.test(String(req.headers['content-type'] ?? '')) && (req.headers['content-length'] ?? '0') === '0' ? error(400, 'ValidationError') : res)),
  },
  {
    name: 'a request without User-Agent is refused with 403, even with the full key',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'full-key-never-forbidden'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.headers['user-agent'] === undefined && res.status !== 401 ? error(403, 'NoAccessError') : res)),
  },
  {
    name: 'X-Forwarded-For: 127.0.0.1 is taken for an internal caller, who needs no key (trust in a header any client can send)',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => breakResponses(contract, (req, res, mock) => (String(req.headers['x-forwarded-for'] ?? '').startsWith('127.') && res.status === 401 ? mock.handle(asAdmin(req)) : res)),
  },
  {
    name: 'a request with Origin http://localhost:3000 needs no key (a development CORS shortcut left on)',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => breakResponses(contract, (req, res, mock) => (req.method !== 'OPTIONS' && String(req.headers.origin ?? '').startsWith('http://localhost') && res.status === 401 ? mock.handle(asAdmin(req)) : res)),
  },
  {
    name: 'a query string the spec does not name (a cache-buster ?_=…) makes the router miss the path: 404',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.url.includes('?') && req.method !== 'OPTIONS' ? error(404, 'NotFoundError') : res)),
  },
  // Conditional requests (spec decision conditional-requests).
  {
    name: 'If-None-Match answered 304 before auth, to any tag',
    dimension: 'conditional',
    caughtBy: ['conditional-after-auth'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.headers['if-none-match'] !== undefined && req.method === 'GET' ? { status: 304, headers: {}, body: undefined } : res)),
  },
  {
    name: 'If-Modified-Since answered 304 before auth',
    dimension: 'conditional',
    caughtBy: ['conditional-after-auth'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.headers['if-modified-since'] !== undefined && req.method === 'GET' ? { status: 304, headers: {}, body: undefined } : res)),
  },
  {
    // A cache in front of auth (decision conditional-requests): the tag it gave to the full key, or *, gets 304 whoever asks.
    name: 'a 304 to the ETag given earlier, or to If-None-Match: *, before auth (a shared cache in front of the key check)',
    dimension: 'conditional',
    caughtBy: ['conditional-after-auth'],
    serve: (contract) => {
      const given = new Map<string, string>();
      return breakResponses(contract, (req, res) => {
        const known = given.get(req.url);
        const asked = req.headers['if-none-match'];
        if (req.method === 'GET' && known !== undefined && (asked === '*' || asked === known)) return { status: 304, headers: { etag: known }, body: undefined };
        if (res.status !== 200 || res.body === undefined) return res;
        const etag = etagOf(res.body);
        given.set(req.url, etag);
        return { ...res, headers: { ...res.headers, etag } };
      });
    },
  },
  {
    name: 'a 304 to a recent If-Modified-Since before auth (Last-Modified checked first)',
    dimension: 'conditional',
    caughtBy: ['conditional-after-auth'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const since = Date.parse(String(req.headers['if-modified-since'] ?? ''));
        if (req.method === 'GET' && since >= STARTED.getTime()) return { status: 304, headers: { 'last-modified': STARTED.toUTCString() }, body: undefined };
        return res.status === 200 && res.body !== undefined ? { ...res, headers: { ...res.headers, 'last-modified': STARTED.toUTCString() } } : res;
      }),
  },
  // The connection: an answer depends on its own request only.
  {
    name: 'a per-connection auth cache: after a valid key, the connection needs none',
    dimension: 'connection',
    // undici reuses its connections too, so the plan's own auth probes show it first; a variant's answer is judged under the variant's rule, its message naming what the connection carried before.
    caughtBy: ['connection-independent', 'headers-ignored', 'head-like-get', 'conditional-after-auth', 'auth-missing-rejected', 'auth-invalid-rejected'],
    serve: (contract) => {
      const authorized = new WeakSet<object>();
      return socketMock(contract, (request, mock) => {
        const response = mock.handle(authorized.has(request.socket) ? asAdmin(request) : request);
        if (request.headers.authorization === ADMIN_KEY && response.status < 400) authorized.add(request.socket);
        return response;
      });
    },
  },
  {
    name: 'a sticky 401: after a 401 on a connection, every later request on it gets 401',
    dimension: 'connection',
    // undici reuses its connections too, so the plan's own reads show it first.
    caughtBy: ['connection-independent', 'headers-ignored', 'head-like-get', 'conditional-after-auth', 'documented-success'],
    serve: (contract) => {
      const refused = new WeakSet<object>();
      return socketMock(contract, (request, mock) => {
        if (refused.has(request.socket)) return error(401, 'AuthenticationRequired');
        const response = mock.handle(request);
        if (response.status === 401) refused.add(request.socket);
        return response;
      });
    },
  },
  {
    name: 'after a HEAD on a connection, the next GET on it is answered without a body',
    dimension: 'connection',
    caughtBy: ['connection-independent', 'headers-ignored', 'conditional-after-auth', 'response-schema-conformance'],
    serve: (contract) => {
      const afterHead = new WeakSet<object>();
      return socketMock(contract, (request, mock) => {
        const response = mock.handle(request);
        const stale = afterHead.has(request.socket) && request.method === 'GET';
        if (request.method === 'HEAD') afterHead.add(request.socket);
        else afterHead.delete(request.socket);
        return stale && response.status === 200 ? { ...response, body: '' } : response;
      });
    },
  },
  {
    name: 'a per-connection memo of delete answers (a Map on the socket): a token deleted on a connection stays deletable on it',
    dimension: 'connection',
    // Not a DataLoader: the answer itself is memoised per socket and URL, so the same delete again on that connection gets the first success; on any other connection it gets 404. Only a delete-again sent on the connection that carried the delete shows it (issue 18, the connection).
    caughtBy: ['delete-again-not-found', 'deletions-last'],
    // The README's token set: every first delete goes in the overlap batch, on connections undici picks.
    args: ['--token', '1/1', '--token', '1/2', '--token', '2/4'],
    serve: (contract) => {
      const memo = new WeakMap<object, Map<string, MockResponse>>();
      return socketMock(contract, (request, mock) => {
        if (request.method !== 'DELETE' || !tokenIds(request.url)) return mock.handle(request);
        const answers = memo.get(request.socket) ?? new Map<string, MockResponse>();
        memo.set(request.socket, answers);
        const key = `${String(request.headers.authorization)} ${request.url}`;
        const response = answers.get(key) ?? mock.handle(request);
        if (response.status < 300) answers.set(key, response);
        return response;
      });
    },
  },
  // Overlap: requests in flight at once, with different credentials and accounts.
  {
    name: 'the role is kept in a module-level variable that an overlapping request borrows',
    dimension: 'overlap',
    caughtBy: ['overlap-independent'],
    serve: (contract) => {
      let role: string | undefined;
      return asyncMock(contract, async (request, mock) => {
        role = typeof request.headers.authorization === 'string' ? request.headers.authorization : role;
        await later(5);
        return mock.handle({ ...request, headers: { ...request.headers, authorization: role } });
      });
    },
  },
  {
    name: 'auth fails open once five requests are in flight (a bulkhead that sheds the auth call)',
    dimension: 'overlap',
    caughtBy: ['overlap-independent'],
    serve: (contract) => {
      let inFlight = 0;
      return asyncMock(contract, async (request, mock) => {
        inFlight++;
        const busy = inFlight >= 5;
        await later(5);
        inFlight--;
        return mock.handle(busy && request.method === 'GET' ? asAdmin(request) : request);
      });
    },
  },
  {
    name: 'the permission decision is cached per operation for 50 ms, not per key',
    dimension: 'overlap',
    caughtBy: ['overlap-independent', 'restricted-key-forbidden', 'headers-ignored'],
    serve: (contract) => {
      const cached = new Map<string, number>();
      return asyncMock(contract, async (request, mock) => {
        const operation = operationOf(contract, request) ?? '';
        const key = request.headers.authorization;
        const hit = key !== undefined && (cached.get(operation) ?? 0) > Date.now();
        const response = mock.handle(hit ? asAdmin(request) : request);
        if (response.status < 400 && key !== undefined) cached.set(operation, Date.now() + 50);
        await later(2);
        return response;
      });
    },
  },
  {
    name: 'overlapping deletes on two accounts delete in the wrong account (the account id kept in a shared variable)',
    dimension: 'overlap',
    caughtBy: ['overlap-independent', 'delete-token-succeeds', 'bystanders-untouched', 'deletions-last'],
    serve: (contract) => {
      let account: string | undefined;
      return asyncMock(contract, async (request, mock) => {
        const ids = tokenIds(request.url);
        if (!ids || operationOf(contract, request) !== DELETE_SERVICE_ACCOUNT_TOKEN) return mock.handle(request);
        account = ids[0];
        await later(5);
        return mock.handle({ ...request, url: request.url.replace(`/service-account/${ids[0]}/`, `/service-account/${account}/`) });
      });
    },
  },
  {
    name: 'overlapping deletes on two accounts: the second answers 409 (a global lock)',
    dimension: 'overlap',
    caughtBy: ['overlap-independent', 'status-code-documented', 'delete-token-succeeds'],
    serve: (contract) => {
      let locked = false;
      return asyncMock(contract, async (request, mock) => {
        if (operationOf(contract, request) !== DELETE_SERVICE_ACCOUNT_TOKEN || request.headers.authorization !== ADMIN_KEY) return mock.handle(request);
        if (locked) return error(409, 'ConflictError');
        locked = true;
        await later(5);
        locked = false;
        return mock.handle(request);
      });
    },
  },
  {
    name: 'overlapping deletes on two accounts bring a token back (a stale read-modify-write of the token table)',
    dimension: 'overlap',
    caughtBy: ['overlap-independent', 'deletions-last', 'delete-again-not-found'],
    serve: (contract) => {
      const restored = new Set<string>();
      let inFlight: string[] = [];
      return asyncMock(contract, async (request, mock) => {
        const ids = tokenIds(request.url);
        if (!ids || operationOf(contract, request) !== DELETE_SERVICE_ACCOUNT_TOKEN || request.headers.authorization !== ADMIN_KEY) return mock.handle(request);
        const key = ids.join('/');
        if (restored.delete(key)) return { status: 200, headers: {}, body: undefined };
        inFlight.push(key);
        await later(5);
        const response = mock.handle(request);
        // The other account's delete, written back from the snapshot this one read: its token reappears.
        if (response.status === 200) for (const other of inFlight) if (other !== key && other.split('/')[0] !== ids[0]) restored.add(other);
        inFlight = inFlight.filter((k) => k !== key);
        return response;
      });
    },
  },
  {
    name: 'overlapping deletes on two accounts remove a third token (the next token of the other account)',
    dimension: 'overlap',
    caughtBy: ['overlap-independent', 'bystanders-untouched', 'delete-token-succeeds', 'concurrent-delete-single-success', 'cross-account-delete-rejected', 'deletes-at-once-independent'],
    serve: (contract) => {
      let inFlight = 0;
      return asyncMock(contract, async (request, mock) => {
        const ids = tokenIds(request.url);
        if (!ids || operationOf(contract, request) !== DELETE_SERVICE_ACCOUNT_TOKEN || request.headers.authorization !== ADMIN_KEY) return mock.handle(request);
        inFlight++;
        await later(5);
        const overlapped = inFlight > 1;
        inFlight--;
        const response = mock.handle(request);
        if (overlapped && response.status === 200) {
          const account = mock.store.snapshot().serviceAccounts.find((a) => a.id === ids[0]);
          const neighbour = account?.tokens.find((t) => t.id !== ids[1]);
          if (neighbour) mock.store.deleteToken(ids[0], neighbour.id);
        }
        return response;
      });
    },
  },
  {
    name: 'overlapping deletes in one account delete the wrong token (the token id kept per account, in a map shared by the requests, across an await)',
    dimension: 'overlap',
    caughtBy: ['overlap-independent', 'delete-token-succeeds', 'delete-again-not-found', 'cross-account-delete-rejected', 'concurrent-delete-single-success', 'bystanders-untouched', 'deletions-last'],
    serve: (contract) => {
      // Deletes on two accounts at once, or of one token 8 times, never meet a stale entry: only deletes of different tokens of one account, in flight together, do.
      const pending = new Map<string, string>();
      return asyncMock(contract, async (request, mock) => {
        const ids = tokenIds(request.url);
        if (!ids || operationOf(contract, request) !== DELETE_SERVICE_ACCOUNT_TOKEN || request.headers.authorization !== ADMIN_KEY) return mock.handle(request);
        pending.set(ids[0], ids[1]);
        await later(5);
        return mock.handle({ ...request, url: request.url.replace(/\/token\/[^/?]+/, `/token/${pending.get(ids[0])}`) });
      });
    },
  },
  {
    name: 'error ids unique one by one, but shared by overlapping errors (a counter read before an await)',
    dimension: 'overlap',
    caughtBy: ['overlap-independent', 'error-ids-unique'],
    serve: (contract) => {
      let next = 0;
      return asyncMock(contract, async (request, mock) => {
        const id = `err-${next}`;
        await later(3);
        const response = mock.handle(request);
        if (response.status < 400 || !response.body) return response;
        next++;
        return { ...response, body: JSON.stringify({ ...(JSON.parse(response.body) as object), id }) };
      });
    },
  },
  {
    name: "a delete removes the account's other tokens 60 ms later, within --settle-ms (an asynchronous cleanup job)",
    dimension: 'overlap',
    caughtBy: ['bystanders-untouched', 'overlap-independent', 'deletions-last', 'delete-token-succeeds'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const ids = tokenIds(req.url);
        if (ids && res.status === 200 && req.method === 'DELETE') {
          setTimeout(() => {
            const account = mock.store.snapshot().serviceAccounts.find((a) => a.id === ids[0]);
            for (const token of account?.tokens ?? []) mock.store.deleteToken(ids[0], token.id);
          }, 60);
        }
        return res;
      }),
  },
  // Content codings (RFC 9110 §12.5.3): an answer's coding is one its request accepts; q=0 refuses one, an empty value asks for none.
  {
    name: 'gzip although Accept-Encoding refuses it (gzip;q=0): the coding chosen by a substring test',
    dimension: 'headers',
    caughtBy: ['content-coding-accepted'],
    serve: (contract) => socketMock(contract, (request, mock) => (String(request.headers['accept-encoding'] ?? '').includes('gzip') ? coded(mock.handle(request), 'gzip', request.method) : mock.handle(request))),
  },
  {
    name: 'br whenever the request has an Accept-Encoding at all (identity alone, an empty value, every coding refused)',
    dimension: 'headers',
    caughtBy: ['content-coding-accepted'],
    serve: (contract) => socketMock(contract, (request, mock) => (request.headers['accept-encoding'] !== undefined ? coded(mock.handle(request), 'br', request.method) : mock.handle(request))),
  },
  // RFC 9110 §12.5.3: a coding the server does not know is ignored, never refused. Real clients list zstd (Chrome/Edge 123+, Firefox 126+,
  // curl --compressed) and compress (axios): a negotiation that answers 406 to any listed coding it has no coder for fails them all.
  {
    name: 'Accept-Encoding naming a coding without a coder here (zstd, compress) refused with 406 (a strict negotiation)',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const known = new Set(['gzip', 'deflate', 'br', 'identity', '*']);
        const unknown = [...acceptedCodings(request.headers['accept-encoding'])].some(([coding, q]) => q > 0 && !known.has(coding));
        return unknown ? error(406, 'NotAcceptable') : mock.handle(request);
      }),
  },
  // Ordinary header values vary in length: a few hundred bytes (an in-app browser's User-Agent, analytics cookies, a long Referer) is ordinary.
  {
    name: 'a User-Agent over 255 characters gets 500 (an access-log column VARCHAR(255) written inside the request transaction)',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'not-a-server-error'],
    serve: (contract) => breakResponses(contract, (req, res) => (String(req.headers['user-agent'] ?? '').length > 255 ? error(500, 'InternalServerError') : res)),
  },
  {
    name: 'a Cookie header over 1 KB refused with 400 (a cookie parser with a small limit in front of every route)',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => breakResponses(contract, (req, res) => (String(req.headers.cookie ?? '').length > 1024 ? error(400, 'ValidationError') : res)),
  },
  {
    name: 'a Referer over 200 characters gets 500 (a VARCHAR(200) audit column)',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'not-a-server-error'],
    serve: (contract) => breakResponses(contract, (req, res) => (String(req.headers.referer ?? '').length > 200 ? error(500, 'InternalServerError') : res)),
  },
  // A key is compared exactly (spec decision keys-compared-exactly): a key in another encoding is another key.
  {
    name: 'the key percent-decoded before it is compared (decodeURIComponent shared with cookie parsing): mock%2Dadmin%2Dkey is the key',
    dimension: 'headers',
    caughtBy: ['near-miss-key-rejected'],
    serve: (contract) => rewriteRequests(contract, (req) => ({ ...req, headers: { ...req.headers, authorization: percentDecoded(req.headers.authorization) } })),
  },
  {
    name: 'percent-encoded unreserved characters of the key normalized (RFC 3986 §6.2.2.2 applied to a header): %6D is m',
    dimension: 'headers',
    caughtBy: ['near-miss-key-rejected'],
    serve: (contract) =>
      rewriteRequests(contract, (req) => {
        const value = req.headers.authorization;
        if (typeof value !== 'string') return req;
        const normalized = value.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
          const c = String.fromCharCode(parseInt(hex, 16));
          return /[A-Za-z0-9\-._~]/.test(c) ? c : escape;
        });
        return { ...req, headers: { ...req.headers, authorization: normalized } };
      }),
  },
  // A 304 has no content (RFC 9110 §15.4.5, RFC 9112 §6.3): a body after it is read as the start of the next answer on the connection.
  {
    name: 'a 304 to the ETag it gave written with the body and its Content-Length',
    dimension: 'conditional',
    caughtBy: ['connection-independent'],
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const response = mock.handle(request);
        if (response.status !== 200 || response.body === undefined || request.method === 'DELETE') return response;
        const etag = etagOf(response.body);
        if (request.headers['if-none-match'] !== etag) return { ...response, headers: { ...response.headers, etag } };
        const body = Buffer.from(response.body);
        return { raw: `HTTP/1.1 304 Not Modified\r\netag: ${etag}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${request.method === 'HEAD' ? '' : body.toString('latin1')}` };
      }),
  },
  {
    name: 'a 304 to a recent If-Modified-Since sent with a chunked body',
    dimension: 'conditional',
    caughtBy: ['connection-independent'],
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const response = mock.handle(request);
        if (response.status !== 200 || response.body === undefined || request.method === 'DELETE') return response;
        const validators = { 'last-modified': STARTED.toUTCString() };
        if (!(Date.parse(String(request.headers['if-modified-since'] ?? '')) >= STARTED.getTime())) return { ...response, headers: { ...response.headers, ...validators } };
        const body = Buffer.from(response.body);
        return { raw: `HTTP/1.1 304 Not Modified\r\nlast-modified: ${validators['last-modified']}\r\ntransfer-encoding: chunked\r\n\r\n${request.method === 'HEAD' ? '' : `${body.length.toString(16)}\r\n${body.toString('latin1')}\r\n0\r\n\r\n`}` };
      }),
  },
  // Pipelining (RFC 9112 §9.3.2): answers in the order of the requests, whatever order they complete in.
  {
    name: 'pipelined requests answered in the order they complete (the OIDC settings read takes 30 ms)',
    dimension: 'connection',
    caughtBy: ['pipelined-answers-in-order'],
    serve: (contract) => completionOrder(contract, (request) => (operationOf(contract, request) === GET_OIDC_SETTINGS ? 30 : 0)),
  },
  {
    name: 'pipelined requests answered in the order they complete (the environments read takes 30 ms)',
    dimension: 'connection',
    caughtBy: ['pipelined-answers-in-order'],
    serve: (contract) => completionOrder(contract, (request) => (operationOf(contract, request) === GET_PROJECT_ENVIRONMENTS ? 30 : 0)),
  },
  {
    name: 'pipelined requests answered in the order they complete (a refused key takes 30 ms: the key looked up remotely when it is not cached)',
    dimension: 'connection',
    caughtBy: ['pipelined-answers-in-order'],
    serve: (contract) => completionOrder(contract, (request) => (request.headers.authorization === ADMIN_KEY || request.headers.authorization === VIEWER_KEY ? 0 : 30)),
  },
  // RFC 9112 §9.3.2: a batch written at once (one TCP segment) reaches the server in one read; every request of it gets its answer.
  {
    name: 'one read of the socket taken for one request: the rest of a pipelined batch dropped and the connection closed, without Connection: close',
    dimension: 'connection',
    caughtBy: ['pipelined-answers-in-order'],
    serve: (contract) => socketMock(contract, (request, mock) => mock.handle(request), { firstRequestPerRead: { announce: false } }),
  },
  // RFC 9112 §6.3: a request's content is part of its message; a server that does not read it parses it as the next request.
  {
    name: "a request's content never read (a hand-written server that assumes requests carry none): after a DELETE with {} the next request on the connection is \"{}GET …\"",
    dimension: 'connection',
    caughtBy: ['connection-independent', 'headers-ignored', 'head-like-get', 'options-harmless', 'conditional-after-auth'],
    serve: (contract) => socketMock(contract, (request, mock) => mock.handle(request), { ignoreContent: () => true }),
  },
  {
    name: "a refused request's content left unread (the body parser runs after auth): after a 401 to a request with content, the next request on the connection is garbled",
    dimension: 'connection',
    caughtBy: ['connection-independent', 'headers-ignored', 'head-like-get', 'options-harmless', 'conditional-after-auth'],
    serve: (contract) => socketMock(contract, (request, mock) => mock.handle(request), { ignoreContent: (request) => request.headers.authorization !== ADMIN_KEY && request.headers.authorization !== VIEWER_KEY }),
  },
  // Spec decision required-request-headers: a query string the spec does not name changes no answer, also one named like a path parameter.
  {
    name: 'query parameters named like the path parameters win over the path (handlers read { ...req.params, ...req.query }): ?projectId= reads another project, ?tokenId= deletes another token',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'answers-agree', 'delete-token-succeeds', 'deletions-last'],
    serve: (contract) => rewriteRequests(contract, (request) => ({ ...request, url: pathParamsFromQuery(contract, request) })),
  },
  {
    name: 'a tokenId query parameter overrides the token of the delete path (the account stays the path\'s)',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'delete-token-succeeds', 'deletions-last', 'bystanders-untouched'],
    serve: (contract) => rewriteRequests(contract, (request) => ({ ...request, url: pathParamsFromQuery(contract, request, ['tokenId']) })),
  },
  // Two misses of earlier rounds.
  {
    name: 'an empty Authorization: value is served as a key (an "anonymous admin" default)',
    dimension: 'earlier',
    caughtBy: ['headers-ignored', 'auth-missing-rejected'],
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const sent = request.rawHeaders.some(([name]) => name.toLowerCase() === 'authorization');
        return mock.handle(sent && request.headers.authorization === '' ? asAdmin(request) : request);
      }),
  },
  {
    name: 'ids in another case on the delete path are accepted (SA-1/tok-1 deletes sa-1/tok-1)',
    dimension: 'earlier',
    caughtBy: ['near-miss-token-not-found'],
    args: ['--token', 'sa-1/tok-1', '--token', 'sa-1/tok-2', '--token', 'sa-1/tok-3', '--token', 'sa-2/tok-4'],
    serve: (contract) => {
      const mock = createMock({ contract, fixtures: lettersFixtures(), newId: () => `e-${++errors}` });
      return serveRaw((req, _, answer) => {
        const request = toMockRequest(req);
        answer(mock.handle(operationOf(contract, request) === DELETE_SERVICE_ACCOUNT_TOKEN ? { ...request, url: request.url.toLowerCase() } : request));
      });
    },
  },
];

/** A response in a content coding, framed by hand (node:http would not let a HEAD say so): HEAD gets the headers only. */
function coded(response: MockResponse, coding: 'gzip' | 'br' | 'zstd', method: string): MockResponse | { raw: string } {
  if (response.body === undefined) return response;
  const body = coding === 'br' ? brotliCompressSync(response.body) : coding === 'zstd' ? zstdCompressSync(response.body) : gzipSync(response.body);
  const head = frame({ ...response, headers: { ...response.headers, 'content-encoding': coding, vary: 'Accept-Encoding' }, body: undefined }, true).toString('latin1');
  return { raw: head.replace(/content-length: 0\r\n/, `content-length: ${body.length}\r\n`) + (method === 'HEAD' ? '' : body.toString('latin1')) };
}

function percentDecoded(value: string | string[] | undefined): string | string[] | undefined {
  if (typeof value !== 'string') return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A socket server that works on pipelined requests at once and writes each answer when it is
 * ready, `delay` ms after its request: out of order when an earlier one takes longer (the defect
 * of RFC 9112 §9.3.2). Answers without a delay go out in order.
 */
function completionOrder(contract: Contract, delay: (request: SocketRequest) => number): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveSocket((request) => {
    const response = mock.handle(request);
    const written = later(delay(request)).then(() => {
      if (!request.socket.destroyed) request.socket.write(frame(response, request.method === 'HEAD'));
    });
    // serveSocket ends the connection after a request that asks for it once the handler returns: that one waits for its own answer.
    return String(request.headers.connection ?? '').toLowerCase() === 'close' ? written.then(() => ({ raw: '' })) : { raw: '' };
  });
}

/**
 * The path with each path parameter replaced by the query parameter of the same name (the spec's
 * names), where the query has one: what `{ ...req.params, ...req.query }` does. Only `names` when given.
 */
function pathParamsFromQuery(contract: Contract, request: MockRequest, names?: readonly string[]): string {
  const [path = '', query] = request.url.split('?');
  if (query === undefined) return request.url;
  const operation = contract.operations.find((o) => o.operationId === operationOf(contract, request));
  if (!operation) return request.url;
  const values = new URLSearchParams(query);
  const template = operation.path.split('/');
  const parts = path.split('/');
  const base = parts.length - template.length;
  template.forEach((part, i) => {
    const name = /^\{(.+)\}$/.exec(part)?.[1];
    if (name === undefined || (names && !names.includes(name))) return;
    const value = values.get(name);
    if (value !== null) parts[base + i] = encodeURIComponent(value);
  });
  return `${parts.join('/')}?${query}`;
}

/** RFC 9110 §12.5.3: the codings of an Accept-Encoding with their weights; `*` stands for any other. */
function acceptedCodings(header: string | string[] | undefined): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of String(header ?? '').split(',')) {
    const [coding = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (coding === '') continue;
    const q = params.find((p) => p.startsWith('q='));
    weights.set(coding, q === undefined ? 1 : Number(q.slice(2)));
  }
  return weights;
}

/** The default state with service-account and token ids that have a case: sa-1/tok-1 … */
function lettersFixtures(): typeof DEFAULT_FIXTURES {
  return { ...DEFAULT_FIXTURES, serviceAccounts: DEFAULT_FIXTURES.serviceAccounts.map((a) => ({ ...a, id: `sa-${a.id}`, tokens: a.tokens.map((t) => ({ ...t, id: `tok-${t.id}` })) })) };
}

/** When a target started: its resources were last modified then, to the second (RFC 9110 §8.8.2: Last-Modified has one-second resolution). */
const STARTED = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000);

/** An ETag of a body (RFC 9110 §8.8.3): the same body, the same tag. */
const etagOf = (body: string) => `"${Buffer.from(body).toString('base64url').slice(-16)}"`;

export const INVARIANCE_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  ...HEADER_CONFORMANT_VARIANTS,
  ...REQUEST_VARIANT_CONFORMANT_VARIANTS,
  ...ROUND10_REQUEST_CONFORMANT_VARIANTS,
  ...ROUND11_METHOD_CASE_CONFORMANT_VARIANTS,
  ...ROUND12_REQUEST_CONFORMANT_VARIANTS,
  ...ROUND12_RESOURCE_CONFORMANT_VARIANTS,
  ...ROUND13_REQUEST_CONFORMANT_VARIANTS,
  ...ROUND14_REQUEST_CONFORMANT_VARIANTS,
  ...ROUND15_REQUEST_CONFORMANT_VARIANTS,
  ...ROUND14_HEADER_CONFORMANT_VARIANTS,
  ...ROUND14_FRAMING_CONFORMANT_VARIANTS,
  ...ROUND15_CONTENT_CONFORMANT_VARIANTS,
  ...ROUND16_CONFORMANT_VARIANTS,
  ...ROUND17_CONFORMANT_VARIANTS,
  ...ROUND17B_CONFORMANT_VARIANTS,
  ...ROUND17B_METHOD_CONFORMANT_VARIANTS,
  ...WIRE_CONFORMANT_VARIANTS,
  {
    name: 'HEAD answered 405 with Allow: GET (a router without HEAD)',
    serve: (contract) => breakResponses(contract, (req, res, mock) => (req.method === 'HEAD' ? { status: 405, headers: { ...JSON_TYPE, allow: operationOf(contract, { ...req, method: 'GET' }) ? 'GET' : 'DELETE' }, body: error(405, 'MethodNotAllowed').body } : (void mock, res))),
  },
  {
    name: 'CORS preflights answered 204 and plain OPTIONS 204 with Allow, before auth',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        if (req.method !== 'OPTIONS') return res;
        const origin = req.headers.origin;
        const allow = operationOf(contract, { ...req, method: 'DELETE' }) ? 'DELETE, OPTIONS' : 'GET, HEAD, OPTIONS';
        return typeof origin === 'string'
          ? { status: 204, headers: { 'access-control-allow-origin': origin, 'access-control-allow-methods': allow, 'access-control-allow-headers': 'Authorization', vary: 'Origin' }, body: undefined }
          : { status: 204, headers: { allow }, body: undefined };
      }),
  },
  {
    // A response schema belongs to the method it is declared for: the GET's 200 schema says nothing of an OPTIONS 200 (round eight, options-200-json-method-list).
    name: 'plain OPTIONS answered 200 with Allow and a JSON list of the methods, with or without a key',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        if (req.method !== 'OPTIONS' || typeof req.headers.origin === 'string') return res;
        const methods = operationOf(contract, { ...req, method: 'DELETE' }) ? ['DELETE', 'OPTIONS'] : ['GET', 'HEAD', 'OPTIONS'];
        return { status: 200, headers: { ...JSON_TYPE, allow: methods.join(', ') }, body: JSON.stringify({ methods }) };
      }),
  },
  {
    // RFC 9112 §9.6: a server that closes after an answer says so with Connection: close; the client sends the rest again (§9.3.2).
    name: 'pipelined requests after the first left unanswered, announced: Connection: close on the first answer of a read, then closed',
    serve: (contract) => socketMock(contract, (request, mock) => mock.handle(request), { firstRequestPerRead: { announce: true } }),
  },
  {
    // RFC 9110 §9.3.1, §9.3.5: content in a GET or DELETE has no semantics and some implementations reject it (and close).
    name: 'content on a GET or DELETE refused with 400 before auth, Connection: close, and the connection closed',
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        if (request.body === undefined || (request.method !== 'GET' && request.method !== 'DELETE')) return mock.handle(request);
        setImmediate(() => request.socket.end());
        return { raw: frame({ ...error(400, 'ValidationError'), headers: { ...JSON_TYPE, connection: 'close' } }).toString('latin1') };
      }),
  },
  {
    // Unleash's key format `<project>:<environment>.<secret>`: near-misses cut at its separators are no keys (401), and none is sent that is a real key.
    name: 'keys in the Unleash format (*:*.<secret> and default:development.<secret>), every other value refused with 401',
    args: ['--api-key', '*:*.964a287e1b728cb5f4f3e0120df92cb5', '--restricted-key', 'default:development.ee7a1d1c2e3f4a5b6c7d8e9f0a1b2c3d'],
    serve: (contract) => mockWithKeys(contract, { full: '*:*.964a287e1b728cb5f4f3e0120df92cb5', restricted: 'default:development.ee7a1d1c2e3f4a5b6c7d8e9f0a1b2c3d' }, { full: ADMIN_KEY, restricted: VIEWER_KEY }),
  },
  {
    // A key family whose restricted key is the full key cut at a separator: a near-miss that is a real key is never sent as one.
    name: 'a restricted key that is the full key cut at one of its separators (mock-admin-key and mock-admin)',
    args: ['--api-key', 'mock-admin-key', '--restricted-key', 'mock-admin'],
    serve: (contract) => mockWithKeys(contract, { full: 'mock-admin-key', restricted: 'mock-admin' }, { full: ADMIN_KEY, restricted: VIEWER_KEY }),
  },
  {
    name: 'Connection: close after every answer',
    serve: (contract) => {
      // RFC 9112 §9.6: nothing read after an answer that announces the close is run (requests pipelined behind it; round fourteen).
      const closed = new WeakSet<object>();
      return socketMock(contract, (request, mock) => {
        if (closed.has(request.socket)) return { raw: '' };
        closed.add(request.socket);
        const response = mock.handle(request);
        const bytes = frame({ ...response, headers: { ...response.headers, connection: 'close' } }, request.method === 'HEAD');
        setImmediate(() => request.socket.end());
        return { raw: bytes.toString('latin1') };
      });
    },
  },
  {
    name: 'gzip and br when Accept-Encoding asks for them',
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const response = mock.handle(request);
        // Asked for: named with a weight above 0 (RFC 9110 §12.5.3), `gzip;q=0` refuses gzip.
        const accepted = acceptedCodings(request.headers['accept-encoding']);
        if (!response.body) return response;
        const coding = (accepted.get('br') ?? 0) > 0 ? 'br' : (accepted.get('gzip') ?? 0) > 0 ? 'gzip' : undefined;
        if (!coding) return response;
        // HEAD coded like its GET: its Content-Length is the coded GET's (RFC 9110 §8.6, §9.3.2; round fourteen).
        return coded(response, coding, request.method);
      }),
  },
  {
    name: 'extra fields in every error body (status, details, a trace id)',
    serve: (contract) => breakResponses(contract, (_, res) => (res.status >= 400 && res.body ? { ...res, body: JSON.stringify({ ...(JSON.parse(res.body) as object), status: res.status, details: [], traceId: 'abc' }) } : res)),
  },
  {
    name: "a 404 and 405 in the router's own text format for paths and methods it has no route for",
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const routed = contract.matchRoute(req.method, req.url.split('?')[0]!).kind;
        return routed === 'operation' ? res : { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, body: `<pre>Cannot ${req.method} ${req.url.split('?')[0]}</pre>` };
      }),
  },
  {
    // The real Unleash 8.2.0 does this (docs/conformance.md): its web UI is the fallback for every path the API router does not hold.
    name: "a web UI's index.html, 200, for every path the API's router does not take (percent-encoded spellings included)",
    // A GET on the token path is no route of the API either: the page answers it, which the unlisted-method rule warns of.
    warnings: ['unlisted-method-rejected'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        if (req.method !== 'GET') return res;
        const path = req.url.split('?')[0]!;
        const route = contract.matchRoute(req.method, path);
        // The API router takes its paths as written: a static segment spelled otherwise (`%61pi`) is not its path.
        const template = route.kind === 'operation' ? route.operation.path.split('/') : [];
        const taken = route.kind === 'operation' && path.split('/').every((segment, i) => template[i]?.includes('{') || segment === template[i]);
        return taken ? res : { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!DOCTYPE html><html><head><title>Admin UI</title></head><body><div id="app"></div></body></html>' };
      }),
  },
  {
    name: 'ETag, Vary and security headers on every answer, and 304 to a matching If-None-Match after auth',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const security = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'strict-transport-security': 'max-age=31536000', 'cache-control': 'no-store', vary: 'Accept-Encoding, Authorization' };
        if (res.status !== 200 || res.body === undefined) return { ...res, headers: { ...res.headers, ...security } };
        const etag = etagOf(res.body);
        if (req.headers['if-none-match'] === etag) return { status: 304, headers: { etag, ...security }, body: undefined };
        return { ...res, headers: { ...res.headers, etag, ...security } };
      }),
  },
  {
    name: 'Last-Modified on every 200 and 304 to a matching If-None-Match or a later If-Modified-Since, after auth',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        if (res.status !== 200 || res.body === undefined) return res;
        const etag = etagOf(res.body);
        // RFC 9110 §13.1.3: only an HTTP-date is a date here (an ISO 8601 time that Date.parse would read is ignored).
        const since = parseHttpDate(String(req.headers['if-modified-since'] ?? '').trim())?.time ?? Number.NaN;
        const asked = req.headers['if-none-match'];
        const fresh = asked !== undefined ? asked === '*' || asked === etag : since >= STARTED.getTime();
        const validators = { etag, 'last-modified': STARTED.toUTCString() };
        return req.method === 'GET' && fresh ? { status: 304, headers: validators, body: undefined } : { ...res, headers: { ...res.headers, ...validators } };
      }),
  },
  {
    // A load balancer's affinity cookie: handed out on every answer and read back for routing only. Set-Cookie is no defect; a cookie that authenticates is.
    name: 'a sticky-session cookie set on every answer, sent back and ignored',
    serve: (contract) => breakResponses(contract, (_, res) => ({ ...res, headers: { ...res.headers, 'set-cookie': 'lb=node-1; Path=/; HttpOnly; SameSite=Lax' } })),
  },
  {
    name: 'header field names of every answer in upper case (CONTENT-TYPE, CONTENT-LENGTH), and the key read in any case',
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const bytes = frame(mock.handle(request), request.method === 'HEAD').toString('latin1');
        const end = bytes.indexOf('\r\n\r\n');
        const [status, ...lines] = bytes.slice(0, end).split('\r\n');
        return { raw: [status, ...lines.map((line) => line.slice(0, line.indexOf(':')).toUpperCase() + line.slice(line.indexOf(':')))].join('\r\n') + bytes.slice(end) };
      }),
  },
  {
    // Error bodies that carry what the spec does not list, different in every answer: repeated answers agree on what it lists (decision unlisted-fields-allowed).
    name: 'a request id and a timestamp in every error body, new in every answer',
    serve: (contract) => {
      let n = 0;
      return breakResponses(contract, (_, res) => (res.status >= 400 && res.body ? { ...res, body: JSON.stringify({ ...(JSON.parse(res.body) as object), requestId: `req-${++n}`, timestamp: new Date(Date.now() + n).toISOString() }) } : res));
    },
  },
  {
    name: 'a request body read and ignored: Content-Type and Content-Length: 0 on any method answered alike, with Vary: Content-Type',
    serve: (contract) => breakResponses(contract, (req, res) => (req.headers['content-type'] !== undefined ? { ...res, headers: { ...res.headers, vary: 'Content-Type' } } : res)),
  },
  {
    // Decision router-refusals: an encoded slash is no route; 400 for it (before auth, before any lookup) is a refusal, also where it decodes to a dot segment.
    name: 'any encoded slash in the path refused with 400 ValidationError before auth (x%2F..%2Fdefault included)',
    // The odd id odd%2Fid gets 400 here too: a refusal the spec tolerates on malformed input, so odd-id-rejected passes it.
    serve: (contract) => breakResponses(contract, (req, res) => (/%2f/i.test(req.url.split('?')[0]!) ? error(400, 'ValidationError') : res)),
  },
  {
    // Was a broken target that only warned (odd-id-rejected); decision malformed-input-refusals tolerates 400 there, and the rule now reads it.
    name: '400 ValidationError for malformed percent-encoding (%ZZ, truncated UTF-8), where no 400 is documented',
    serve: (contract) => breakResponses(contract, (req, res) => (/%(ZZ|E0%A4%A$)/.test(req.url) ? error(400, 'ValidationError') : res)),
  },
  {
    name: '400 ValidationError to an id holding a C0 control character (default%09)',
    // The odd ids %00 get 400 here too: tolerated on malformed input (odd-id-rejected passes it), and exits 0.
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        let decoded = '';
        try {
          decoded = decodeURIComponent(req.url.split('?')[0]!);
        } catch {
          return res;
        }
        return /[\u0000-\u001f\u007f]/.test(decoded) ? error(400, 'ValidationError') : res;
      }),
  },
  {
    name: 'methods the spec does not list on the token path answered 404 (no such route) and HEAD 405 without Allow there, OPTIONS 200 with Allow',
    // A 405 without Allow where the spec lists no such method is the general unlisted-method case (a warning), not the HEAD decision of the GET paths.
    warnings: ['unlisted-method-rejected'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        if (!tokenIds(req.url) || req.method === 'DELETE') return res;
        if (req.method === 'OPTIONS') return { status: 200, headers: { allow: 'DELETE, OPTIONS', 'content-length': '0' }, body: undefined };
        if (req.method === 'HEAD') return { status: 405, headers: {}, body: undefined };
        return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' };
      }),
  },
  {
    name: 'the path normalized before auth (RFC 3986 §6.2.2): /%61pi/%61dmin/... is /api/admin/..., keys and all',
    serve: (contract) =>
      rewriteRequests(contract, (req) => {
        const [raw, query] = req.url.split('?') as [string, string | undefined];
        const url = raw.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
          const c = String.fromCharCode(parseInt(hex, 16));
          return /[A-Za-z0-9\-._~]/.test(c) ? c : escape.toUpperCase();
        });
        return { ...req, url: url + (query === undefined ? '' : `?${query}`) };
      }),
  },
  {
    name: 'deletes serialized per account by a queue (each waits for the one before), other accounts in parallel',
    serve: (contract) => {
      const queues = new Map<string, Promise<unknown>>();
      return asyncMock(contract, async (request, mock) => {
        const ids = tokenIds(request.url);
        if (!ids || operationOf(contract, request) !== DELETE_SERVICE_ACCOUNT_TOKEN) return mock.handle(request);
        const before = queues.get(ids[0]) ?? Promise.resolve();
        const mine = before.then(() => later(3)).then(() => mock.handle(request));
        queues.set(ids[0], mine.catch(() => undefined));
        return mine;
      });
    },
  },
  {
    name: 'the OIDC settings read ignores Accept-Language, User-Agent and X-Requested-With, and answers an OPTIONS 405 with Allow',
    serve: (contract) => breakResponses(contract, (req, res) => (req.method === 'OPTIONS' && operationOf(contract, { ...req, method: 'GET' }) === GET_OIDC_SETTINGS ? { status: 405, headers: { allow: 'GET, HEAD' }, body: undefined } : res)),
  },
  {
    // RFC 9110 §12.5.3: the most preferred coding with q > 0, identity when every coding is refused or the value is empty; no coding without Accept-Encoding.
    name: 'content codings negotiated by q-values (br, gzip or deflate by weight, * for any other, identity when all are refused), with Vary: Accept-Encoding',
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const response = mock.handle(request);
        const weights = acceptedCodings(request.headers['accept-encoding']);
        const weight = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
        const best = (['br', 'gzip'] as const).filter((c) => weight(c) > 0).sort((a, b) => weight(b) - weight(a))[0];
        return best === undefined ? { ...response, headers: { ...response.headers, vary: 'Accept-Encoding' } } : coded(response, best, request.method);
      }),
  },
  {
    // RFC 9110 §8.4.1: zstd (RFC 8878) is a registered coding that Chrome, Firefox and curl list; a server with Node's zlib may prefer it.
    name: 'zstd when Accept-Encoding lists it (before br and gzip), with Vary: Accept-Encoding',
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const response = mock.handle(request);
        const weights = acceptedCodings(request.headers['accept-encoding']);
        const best = (['zstd', 'br', 'gzip'] as const).find((c) => (weights.get(c) ?? 0) > 0);
        return best === undefined ? { ...response, headers: { ...response.headers, vary: 'Accept-Encoding' } } : coded(response, best, request.method);
      }),
  },
  {
    name: 'identity to every Accept-Encoding (never a content coding)',
    serve: (contract) => breakResponses(contract, (_, res) => ({ ...res, headers: { ...res.headers, vary: 'Accept-Encoding' } })),
  },
  {
    // nginx's large_client_header_buffers: a header section over 8 KiB is refused; the ordinary long values of real clients stay under it.
    name: '431 to a request whose header section is over 8 KiB',
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const size = request.rawHeaders.reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
        return size > 8 * 1024 ? error(431, 'RequestHeaderFieldsTooLarge') : mock.handle(request);
      }),
  },
  {
    // RFC 9110 §8.6: a 304 may carry the Content-Length the 200 would have; there is no body all the same (RFC 9112 §6.3).
    name: "a 304 to the ETag it gave, carrying the 200's Content-Length and no body",
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const response = mock.handle(request);
        if (response.status !== 200 || response.body === undefined || request.method === 'DELETE') return response;
        const etag = etagOf(response.body);
        if (request.headers['if-none-match'] !== etag) return { ...response, headers: { ...response.headers, etag } };
        return { raw: `HTTP/1.1 304 Not Modified\r\netag: ${etag}\r\ncontent-length: ${Buffer.byteLength(response.body)}\r\n\r\n` };
      }),
  },
  {
    // RFC 9112 §9.3.2: a server need not pipeline; it may answer the first request, close, and let the client send the rest again.
    name: 'no pipelining: the first request on a connection answered with Connection: close, whatever was sent after it on that connection dropped',
    serve: (contract) => {
      const answered = new WeakSet<object>();
      return socketMock(contract, (request, mock) => {
        if (answered.has(request.socket)) return { raw: '' };
        answered.add(request.socket);
        const response = mock.handle(request);
        setImmediate(() => request.socket.end());
        return { raw: frame({ ...response, headers: { ...response.headers, connection: 'close' } }, request.method === 'HEAD').toString('latin1') };
      });
    },
  },
  {
    name: 'pipelined requests worked on at once (the OIDC read takes 30 ms) and answered in the order of the requests',
    serve: (contract) => {
      const mock = freshMock(contract);
      const last = new WeakMap<object, Promise<unknown>>();
      return serveSocket((request) => {
        const ready = later(operationOf(contract, request) === GET_OIDC_SETTINGS ? 30 : 0).then(() => mock.handle(request));
        const written = (last.get(request.socket) ?? Promise.resolve()).then(() => ready).then((response) => {
          if (!request.socket.destroyed) request.socket.write(frame(response, request.method === 'HEAD'));
        });
        last.set(request.socket, written);
        return String(request.headers.connection ?? '').toLowerCase() === 'close' ? written.then(() => ({ raw: '' })) : { raw: '' };
      });
    },
  },
];

/**
 * For each rule of the invariance dimensions, a target only it catches (the registry's promise,
 * broken-targets.test.ts): the exact set of errors, as broken-targets.ts states its own.
 */
const ALONE: Record<string, string> = {
  'HEAD without a key answers 200 (auth wired to GET only)': 'head-like-get',
  'HEAD answered with its body, which spills into the next answer on the kept-alive connection': 'connection-independent',
  'OPTIONS without a key answers the data (the OIDC secret included)': 'options-harmless',
  'Accept: */* refused with 406 (only application/json accepted, literally)': 'headers-ignored',
  'If-None-Match answered 304 before auth, to any tag': 'conditional-after-auth',
  'gzip although Accept-Encoding refuses it (gzip;q=0): the coding chosen by a substring test': 'content-coding-accepted',
  'pipelined requests answered in the order they complete (a refused key takes 30 ms: the key looked up remotely when it is not cached)': 'pipelined-answers-in-order',
  'auth fails open once five requests are in flight (a bulkhead that sheds the auth call)': 'overlap-independent',
  'absolute-form target skips the key check': 'request-target-forms',
  'Last-Modified ten minutes after the Date of its answer': 'http-dates-valid',
  'Range honoured with the end read as exclusive (body.subarray(first, last)): `bytes=2-11` answers 206 with Content-Range: bytes 2-11/len and nine bytes': 'range-requests',
  [PROJECT_ROLES_TARGET]: 'permission-same-on-every-resource',
  '100 Continue before every answer, Expect or not, to HTTP/1.0 requests too (a hand-written writer)': 'no-interim-to-http-one-zero',
  'deletes of tokens of one account at once: the first to commit answers 200, the others delete their token and answer 404 (the account row changed meanwhile)': 'deletes-at-once-independent',
  'the Bearer scheme cut with a lower-case prefix (Go strings.CutPrefix(h, "bearer ")): `bearer <key>` is the key, `Bearer <key>` and `BEARER <key>` get 401 (RFC 9110 §11.1: the scheme is case-insensitive)': 'auth-scheme-any-case',
  'every environments 200 carries `sso: {issuer, clientId, clientSecret}` (a nested serializer of the instance): the restricted key reads the OIDC secret under a name the spec does not mark': 'secrets-follow-permissions',
  "a 2 s cache keyed by URL and Authorization (not If-None-Match) keeps a conditional GET's 304 and hands it to the plain GET after it": 'answers-follow-own-method',
};
export const INVARIANCE_ALONE_TARGETS: BrokenTarget[] = INVARIANCE_BROKEN_TARGETS.filter((t) => ALONE[t.name]).map((t) => ({ name: t.name, errors: [ALONE[t.name]!], serve: t.serve, ...(t.args ? { args: t.args } : {}) }));

/** Operations every dimension must meet (the sampling's promise, docs/conformance.md). */
export const SAMPLED_OPERATIONS = [GET_PROJECT_ENVIRONMENTS, GET_OIDC_SETTINGS, DELETE_SERVICE_ACCOUNT_TOKEN];
