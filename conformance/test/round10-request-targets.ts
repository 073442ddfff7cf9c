import type { IncomingMessage } from 'node:http';
import type { MockRequest, MockResponse } from '../../src/mock/index.ts';
import { DEFAULT_FIXTURES } from '../../src/mock/core/default-fixtures.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { breakResponses, freshMock, operationOf, serveRaw, toMockRequest } from './serve-target.ts';

/**
 * Red team round ten's request principles (issue 18; test/red-team/round-10/BASELINE.md, "the
 * principle the suite would need"), as targets of our own, written before the plan and judge
 * changes that catch them: methods the spec does not list (registered ones beyond the five the
 * plan sent, and with a key that may change state), credential fields other than Authorization,
 * browser context headers, the key deciding the content of a read, wildcard characters in ids,
 * Accept-Charset and the charset of JSON, and conditional headers whose value is not valid. Each
 * broken one differs from round ten's example of the same principle; each conformant one is a
 * plausible server that a too-strict version of the same probe would accuse.
 */

const ADMIN_KEY = 'mock-admin-key';
const VIEWER_KEY = 'mock-viewer-key';
const asAdmin = (request: MockRequest): MockRequest => ({ ...request, headers: { ...request.headers, authorization: ADMIN_KEY } });
const headerOf = (request: MockRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
const keyless = (request: MockRequest) => request.headers.authorization === undefined;
const validKey = (request: MockRequest) => request.headers.authorization === ADMIN_KEY || request.headers.authorization === VIEWER_KEY;
const pathOnly = (request: MockRequest) => request.url.split('?')[0]!;
const isJson = (response: MockResponse) => /json/i.test(String(response.headers['content-type'] ?? '')) && response.body !== undefined;
/** The methods an auth middleware is typically registered for (Express's app.get/put/post/patch/delete, and HEAD and OPTIONS by the framework). */
const COMMON_METHODS = new Set(['GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const PROJECTS = DEFAULT_FIXTURES.projects.map((p) => p.id);
const tokensOf = (account: string) => DEFAULT_FIXTURES.serviceAccounts.find((a) => a.id === account)?.tokens.map((t) => t.id) ?? [];

/** A glob (fnmatch: `*`, `?`, `[...]`) as a regular expression over the whole id. */
const globToRegExp = (glob: string) => new RegExp(`^${glob.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);

/** Writes the mock's answer with the body's bytes in ISO-8859-1 (what Buffer.from(text, 'latin1') writes), under the Content-Type given. */
function latin1Server(contract: Parameters<typeof freshMock>[0], label: (req: IncomingMessage, response: MockResponse) => string | undefined) {
  const mock = freshMock(contract);
  return serveRaw((req, res) => {
    const response = mock.handle(toMockRequest(req));
    const type = label(req, response);
    const body = response.body === undefined ? undefined : type === undefined ? Buffer.from(response.body, 'utf8') : Buffer.from(response.body, 'latin1');
    res.writeHead(response.status, { ...response.headers, ...(type === undefined || body === undefined ? {} : { 'content-type': type }), 'content-length': String(body?.length ?? 0) });
    res.end(body);
  });
}

export const ROUND10_REQUEST_BROKEN_TARGETS: InvarianceTarget[] = [
  // Methods the spec does not list: the auth middleware covers the common verbs only (round ten: TRACE echoing the request).
  {
    name: 'the auth guard is registered for GET, PUT, POST, PATCH, DELETE, HEAD and OPTIONS only; any other registered method (PROPFIND, SEARCH, REPORT, TRACE, ...) reaches the route as a GET without a key',
    dimension: 'method',
    caughtBy: ['auth-missing-rejected', 'auth-invalid-rejected', 'no-secret-echo'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        if (COMMON_METHODS.has(req.method.toUpperCase())) return res;
        const asGet = { ...req, method: 'GET' };
        return operationOf(contract, asGet) !== undefined ? mock.handle(asAdmin(asGet)) : res;
      }),
  },
  // An unlisted method accepted with a key changes state (round ten: DELETE on the settings resets them).
  {
    name: 'PUT or PATCH without a body on a read\'s path, with a valid key, is an upsert of nothing: the resource is emptied for every later read (no environments, OIDC switched off)',
    dimension: 'method',
    caughtBy: ['answers-agree'],
    serve: (contract) => {
      const emptied = new Set<string>();
      return breakResponses(contract, (req, res, mock) => {
        const path = pathOnly(req);
        const method = req.method.toUpperCase();
        if ((method === 'PUT' || method === 'PATCH') && validKey(req) && operationOf(contract, { ...req, method: 'GET' }) !== undefined && mock.handle({ ...asAdmin(req), method: 'GET' }).status === 200) {
          emptied.add(path);
          return { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
        }
        if (method !== 'GET' || res.status !== 200 || !emptied.has(path) || !isJson(res)) return res;
        const body = JSON.parse(res.body!) as Record<string, unknown>;
        return { ...res, body: JSON.stringify(Array.isArray(body.environments) ? { ...body, environments: [] } : { ...body, enabled: false }) };
      });
    },
  },
  // Credential fields other than Authorization (round ten: Proxy-Authorization).
  {
    name: 'the key is read from X-Authorization when Authorization is absent (the fallback PHP setups use where Apache strips Authorization)',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'auth-missing-rejected'],
    serve: (contract) => breakResponses(contract, (req, res, mock) => (keyless(req) && headerOf(req, 'x-authorization') !== undefined ? mock.handle({ ...req, headers: { ...req.headers, authorization: headerOf(req, 'x-authorization')! } }) : res)),
  },
  // Browser context headers (round ten: a same-origin Referer).
  {
    name: 'Sec-Fetch-Site: same-origin (Fetch Metadata: a request from the server\'s own admin pages) is trusted as a signed-in session: no key needed',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'auth-missing-rejected'],
    serve: (contract) => breakResponses(contract, (req, res, mock) => (headerOf(req, 'sec-fetch-site') === 'same-origin' && !validKey(req) ? mock.handle(asAdmin(req)) : res)),
  },
  // The key decides 401/403, never the content (round ten: protected environments hidden from the viewer).
  {
    name: 'a key without the admin permissions gets every environment\'s token and toggle counts as 0 (counts redacted for read-only keys)',
    dimension: 'headers',
    caughtBy: ['answers-agree'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        if (req.headers.authorization !== VIEWER_KEY || res.status !== 200 || !isJson(res)) return res;
        const body = JSON.parse(res.body!) as { environments?: Record<string, unknown>[] };
        if (!Array.isArray(body.environments)) return res;
        return { ...res, body: JSON.stringify({ ...body, environments: body.environments.map((e) => ({ ...e, projectApiTokenCount: 0, projectEnabledToggleCount: 0 })) }) };
      }),
  },
  // Wildcard characters in ids (round ten: SQL LIKE).
  {
    name: 'project ids matched as globs (fnmatch): `*`, `?` and `[...]` in the id name the first project they match',
    dimension: 'headers',
    caughtBy: ['near-miss-project-not-found'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const match = /^(.*\/environments\/project\/)([^/?]+)(.*)$/.exec(req.url);
        if (!match || res.status !== 404) return res;
        let id: string;
        try {
          id = decodeURIComponent(match[2]!);
        } catch {
          return res;
        }
        if (!/[*?[]/.test(id)) return res;
        const glob = globToRegExp(id);
        const found = PROJECTS.find((p) => glob.test(p));
        return found === undefined ? res : mock.handle({ ...req, url: `${match[1]}${encodeURIComponent(found)}${match[3]}` });
      }),
  },
  // Special ids on the delete (round ten: `*` revokes every token of the account).
  {
    name: 'token ids matched as a regular expression anchored at both ends (`^id$`): `.*`, `.` or `[0-9]` deletes every token of the account it matches',
    dimension: 'headers',
    caughtBy: ['near-miss-token-not-found', 'delete-token-succeeds', 'delete-again-not-found', 'bystanders-untouched', 'deletions-last'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const match = /\/service-account\/([^/?]+)\/token\/([^/?]+)/.exec(req.url);
        if (req.method !== 'DELETE' || !match || res.status !== 404 || req.headers.authorization !== ADMIN_KEY) return res;
        let pattern: RegExp;
        try {
          pattern = new RegExp(`^${decodeURIComponent(match[2]!)}$`);
        } catch {
          return res;
        }
        const deleted = tokensOf(decodeURIComponent(match[1]!)).filter((token) => pattern.test(token) && mock.handle({ ...req, url: req.url.replace(match[0], `/service-account/${match[1]}/token/${encodeURIComponent(token)}`) }).status === 200);
        return deleted.length > 0 ? { status: 200, headers: {}, body: undefined } : res;
      }),
  },
  // The charset of JSON (round ten: Accept-Charset: iso-8859-1 honoured).
  {
    name: 'Accept-Charset honoured by the message converter: a charset other than UTF-8 listed first (windows-1252, us-ascii, iso-8859-15) encodes the body in it and labels it so',
    dimension: 'headers',
    caughtBy: ['content-type-conformance', 'headers-ignored'],
    serve: (contract) =>
      latin1Server(contract, (req, response) => {
        const first = String(req.headers['accept-charset'] ?? '').split(',')[0]!.split(';')[0]!.trim().toLowerCase();
        return first === '' || first === 'utf-8' || first === '*' || !isJson(response) ? undefined : `application/json; charset=${first}`;
      }),
  },
  {
    name: 'every JSON body written with Buffer.from(text, "latin1") under `application/json; charset=utf-8`: a 404 quoting an accented id carries bytes that are not UTF-8',
    dimension: 'headers',
    caughtBy: ['content-type-conformance'],
    serve: (contract) => latin1Server(contract, (_, response) => (isJson(response) ? 'application/json; charset=utf-8' : undefined)),
  },
  // Conditional headers whose value is not valid (round ten: If-Modified-Since: yesterday gets 500).
  {
    name: 'conditional headers parsed strictly: an If-Modified-Since or If-Unmodified-Since that is no HTTP-date, or an If-None-Match that is no entity tag, gets 400 ValidationError',
    dimension: 'conditional',
    caughtBy: ['conditional-after-auth', 'headers-ignored'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        if (res.status !== 200) return res;
        const dates = ['if-modified-since', 'if-unmodified-since'].map((name) => headerOf(req, name)).filter((v): v is string => v !== undefined);
        const tags = headerOf(req, 'if-none-match');
        const badDate = dates.some((v) => Number.isNaN(Date.parse(v)));
        const badTag = tags !== undefined && tags.trim() !== '*' && !tags.split(',').every((t) => /^\s*(W\/)?"[^"]*"\s*$/.test(t));
        return badDate || badTag ? { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `cond-${Math.random().toString(36).slice(2)}`, name: 'ValidationError', message: 'malformed precondition' }) } : res;
      }),
  },
];

/** When the configuration was last changed: before the run, so that every Last-Modified is in the past. */
const CHANGED = new Date(Date.now() - 3_600_000);
CHANGED.setMilliseconds(0);

export const ROUND10_REQUEST_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    name: 'TRACE, PROPFIND and every other method the server does not implement get 501 in plain text before auth (Python http.server\'s answer to an unknown method)',
    warnings: [],
    serve: (contract) => breakResponses(contract, (req, res) => (COMMON_METHODS.has(req.method.toUpperCase()) ? res : { status: 501, headers: { 'content-type': 'text/plain' }, body: 'Not Implemented' })),
  },
  {
    name: 'PUT and PATCH on the OIDC settings implemented as an update that needs a JSON body: without one, 400 ValidationError after auth; nothing changes',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const method = req.method.toUpperCase();
        if ((method !== 'PUT' && method !== 'PATCH') || !/\/auth\/oidc\/settings$/.test(pathOnly(req)) || !validKey(req)) return res;
        return { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `upd-${Math.random().toString(36).slice(2)}`, name: 'ValidationError', message: 'a JSON body with the settings is required' }) };
      }),
  },
  {
    name: 'CORS for its own admin pages: an Origin naming the server itself gets Access-Control-Allow-Origin with Vary: Origin; Sec-Fetch-* and Referer change nothing else',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const origin = headerOf(req, 'origin');
        const own = `http://${headerOf(req, 'host') ?? ''}`;
        return origin === own ? { ...res, headers: { ...res.headers, 'access-control-allow-origin': origin, vary: 'Origin' } } : res;
      }),
  },
  {
    name: 'JSON labelled `application/json; charset="UTF-8"` (quoted, upper case), Accept-Charset ignored',
    serve: (contract) => breakResponses(contract, (_, res) => (isJson(res) ? { ...res, headers: { ...res.headers, 'content-type': 'application/json; charset="UTF-8"' } } : res)),
  },
  {
    name: 'Last-Modified on every read and 304 to a valid If-Modified-Since no earlier than it; a value that is no HTTP-date, and an If-None-Match that is no entity tag, ignored (RFC 9110 §13.1.3)',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        if (req.method !== 'GET' || res.status !== 200) return res;
        const since = Date.parse(headerOf(req, 'if-modified-since') ?? '');
        const valid = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(headerOf(req, 'if-modified-since') ?? '');
        if (valid && since >= CHANGED.getTime() && headerOf(req, 'if-none-match') === undefined) return { status: 304, headers: { 'last-modified': CHANGED.toUTCString() }, body: undefined };
        return { ...res, headers: { ...res.headers, 'last-modified': CHANGED.toUTCString() } };
      }),
  },
];
