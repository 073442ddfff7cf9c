// Round ten of the red team: servers written from /work/shared/API.md, spec/openapi.yaml and its
// x-decisions (docs/decisions.md) without reading the suite (conformance/) or earlier rounds'
// servers and witnesses (only their names and one-line descriptions, so none is repeated). Each is
// the faithful app (../app.ts) with one part replaced, the way real backends and what stands in
// front of them (routers, proxies, CDNs, replicas, logging middleware, hand-written HTTP/1.1
// writers) go wrong (broken: true) or behave unusually but within the contract (broken: false).
// witnesses.ts shows each on the wire with plain requests.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  type Answer,
  type ApiRequest,
  errorAnswer,
  FULL_KEY,
  faithfulParts,
  handle,
  json,
  lookup,
  methodAnswer,
  operate,
  type Parts,
  pathOf,
  type Route,
  routeOf,
  type RunningTarget,
  send,
  serve,
  serveApp,
  Store,
  toApiRequest,
  type RedTeamTarget,
  target,
  header,
} from '../app.ts';
import { chunkedBytes, keepsAlive, type NetOptions, type NetRequest, type PlainOptions, plainBytes, serveNet } from '../net-server.ts';

export type { RedTeamTarget };

type Operation = Extract<Route, { kind: 'operation' }>;
const operationOf = (url: string): Operation | undefined => {
  const route = routeOf(pathOf(url));
  return route.kind === 'operation' ? route : undefined;
};
const isRead = (request: ApiRequest) => operationOf(request.url)?.method === 'GET' && (request.method === 'GET' || request.method === 'HEAD');
const keyOf = (request: ApiRequest) => faithfulParts.presentedKey(request);

/** Writes an answer; 204 and 304 go out without Content-Length (RFC 9110 §8.6), a `raw` body as its bytes. */
function sendAny(res: ServerResponse, answer: Answer & { raw?: Buffer }): void {
  if (answer.status === 204 || answer.status === 304) {
    res.writeHead(answer.status, answer.headers);
    res.end();
    return;
  }
  if (answer.raw === undefined) return send(res, answer);
  res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.raw.length) });
  res.end(answer.raw);
}

/** The app on a fresh store whose flow is `flow`. */
function serveFlow(flow: (store: Store, request: ApiRequest) => (Answer & { raw?: Buffer }) | Promise<Answer & { raw?: Buffer }>): Promise<RunningTarget> {
  const store = new Store();
  return serve(async (req, res) => sendAny(res, await flow(store, toApiRequest(req))));
}

/** The faithful flow after routing, but without the auth step (what a handler does that trusts a middleware to have run). */
function flowWithoutAuth(store: Store, request: ApiRequest): Answer {
  const route = operationOf(request.url);
  if (route === undefined) return errorAnswer(faithfulParts, 404, request);
  const byMethod = methodAnswer(route, request.method);
  if (byMethod) return byMethod;
  const found = lookup(store, faithfulParts, route.operationId, route.params);
  if (!found.found) return errorAnswer(faithfulParts, 404, request);
  return operate(store, faithfulParts, route.operationId, found);
}

/** The path of a request target with each segment percent-decoded once, as the router decodes it (RFC 3986 §2.1). */
const decodedPath = (url: string) =>
  pathOf(url)
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');

/**
 * An auth guard mounted on the prefix `/api/admin/` of the origin-form path (as `app.use('/api/admin/', auth)`
 * does; segments decoded as the router decodes them, so encoded letters do not slip past it), in front of a
 * router that reads the target after `normalize`: what the guard did not see goes to the handler without auth.
 */
function guardOnPathPrefix(normalize: (url: string) => string): Promise<RunningTarget> {
  return serveFlow((store, request) => {
    const routed = { ...request, url: normalize(request.url) };
    return decodedPath(request.url).startsWith('/api/admin/') ? handle(store, faithfulParts, routed) : flowWithoutAuth(store, routed);
  });
}

/** The path and query of an absolute-form request target (RFC 9112 §3.2.2), or the target unchanged. */
const originForm = (url: string) => {
  if (!/^https?:\/\//i.test(url)) return url;
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

/** Reads carry Last-Modified `lastModified` (ms, whole seconds) and may answer 304 to If-Modified-Since. */
function lastModifiedFlow(lastModified: number, conditional: boolean) {
  return (store: Store, request: ApiRequest): Answer => {
    const answer = handle(store, faithfulParts, request);
    if (!isRead(request) || answer.status !== 200) return answer;
    const headers = { ...answer.headers, 'last-modified': new Date(lastModified).toUTCString() };
    const since = header(request, 'if-modified-since');
    if (conditional && since !== undefined) {
      // The date is parsed with `new Date(...)` and logged in ISO form first: toISOString throws a
      // RangeError on an invalid date, which the framework turns into a 500.
      const sinceIso = new Date(since).toISOString();
      if (Date.parse(sinceIso) >= lastModified) return { status: 304, headers: { 'last-modified': headers['last-modified'] }, body: undefined };
    }
    return { ...answer, headers };
  };
}

// ---- the framing targets: ../net-server.ts, parsed as round ten's server parsed (lenient, the first of repeated
// fields, 400 without Host or for another version), closed as RFC 9112 §9.3 says, idle sockets destroyed after 5 s ----

const ROUND_TEN: NetOptions = { requireHost: true, duplicates: 'first', timeoutMs: 5000 };

/** `Connection: keep-alive` to an HTTP/1.0 client whose connection stays open (RFC 9112 §9.3, which it asked for). */
const keepAliveLine = (request: NetRequest, close: boolean) => (!close && request.version === 'HTTP/1.0' ? ['Connection: keep-alive'] : []);

/** The ordinary answer: Content-Length, `Connection: close` when closing, the keep-alive line. */
const plainAnswer = (answer: Answer, request: NetRequest, close: boolean, options: PlainOptions = {}) => plainBytes(answer, request, { close, extra: keepAliveLine(request, close), ...options });

// ---- the targets ----

const OIDC_PATH = '/api/admin/auth/oidc/settings';

export const TARGETS: readonly RedTeamTarget[] = [
  // Routing and auth guards
  target(
    'absolute-form-target-skips-auth',
    true,
    'The auth guard is mounted on the path prefix `/api/admin/` of origin-form targets, the router takes the path of an absolute-form target: `GET http://HOST/api/admin/auth/oidc/settings HTTP/1.1` with no key returns the secret (RFC 9112 §3.2.2 absolute-form is the same resource; API §5: no key, 401).',
    () => guardOnPathPrefix(originForm),
  ),
  target(
    'backslash-path-skips-auth',
    true,
    'The guard checks the path prefix `/api/admin/`, the router (written for IIS-style paths) turns backslashes into slashes: `/api/admin\\auth/oidc/settings` with no key returns the secret (API §5: no key, 401).',
    () => guardOnPathPrefix((url) => url.replace(/\\/g, '/')),
  ),
  target(
    'trace-echoes-request',
    true,
    'TRACE is left enabled (Apache TraceEnable on, IIS): TRACE on any path, with or without a key, gets 200 message/http echoing the request, Authorization included (decision unlisted-methods: a refusal; a 2xx without a valid key is an auth failure; RFC 9110 §9.3.8 on credentials).',
    () =>
      serveFlow((store, request) => {
        if (request.method !== 'TRACE') return handle(store, faithfulParts, request);
        const lines = [`TRACE ${request.url} HTTP/1.1`];
        for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
        return { status: 200, headers: { 'content-type': 'message/http' }, body: `${lines.join('\r\n')}\r\n\r\n` };
      }),
  ),
  target(
    'delete-on-settings-resets-them',
    true,
    'A resource controller maps DELETE on /auth/oidc/settings to "reset to defaults": with the full key it answers 200 and OIDC is switched off and emptied for every later read (decision unlisted-methods: none of them changes anything).',
    () =>
      serveFlow((store, request) => {
        if (request.method !== 'DELETE' || pathOf(request.url) !== OIDC_PATH) return handle(store, faithfulParts, request);
        const key = keyOf(request);
        if (key === undefined || !store.keys.has(key)) return errorAnswer(faithfulParts, 401, request);
        if (!store.permits(key, 'getOidcSettings')) return errorAnswer(faithfulParts, 403, request);
        for (const field of Object.keys(store.oidc)) delete store.oidc[field];
        store.oidc.enabled = false;
        return { status: 200, headers: {}, body: undefined };
      }),
  ),
  // Credentials
  target(
    'key-from-proxy-authorization',
    true,
    'The key is read from Authorization, else from Proxy-Authorization (a gateway that forwards either): `Proxy-Authorization: mock-admin-key` alone returns the secret (decision key forms: only the Authorization header carries the key; another header is no credential, 401).',
    () =>
      serveApp({
        parts: {
          presentedKey(request) {
            const proxy = header(request, 'proxy-authorization');
            return faithfulParts.presentedKey(request) ?? (proxy === undefined ? undefined : faithfulParts.presentedKey({ ...request, headers: { authorization: proxy } }));
          },
        },
      }),
  ),
  target(
    'authorization-last-line-wins',
    true,
    'The key is taken from the last Authorization field line (a framework that keeps the last value of a repeated header): `Authorization: wrong` then `Authorization: mock-admin-key` is accepted (RFC 9110 §5.3: two lines are one list; decision key forms: a list of values is invalid, 401).',
    () =>
      serveApp({
        parts: {
          presentedKey(request) {
            const values = request.rawHeaders.filter((_, i) => i % 2 === 1 && request.rawHeaders[i - 1]!.toLowerCase() === 'authorization');
            return values.length === 0 ? undefined : faithfulParts.presentedKey({ ...request, headers: { authorization: values[values.length - 1] } });
          },
        },
      }),
  ),
  target(
    'same-origin-referer-skips-auth',
    true,
    'Requests whose Referer is the server\'s own admin UI (`http://HOST/admin/...`) are trusted as coming from a signed-in page and skip the key: Referer alone returns the secret (decision: no header grants a permission; no origin a request claims is a credential).',
    () =>
      serveFlow((store, request) => {
        const referer = header(request, 'referer');
        const host = header(request, 'host');
        const fromAdminUi = referer !== undefined && host !== undefined && referer.startsWith(`http://${host}/admin/`);
        return fromAdminUi ? handle(store, faithfulParts, { ...request, headers: { ...request.headers, authorization: FULL_KEY } }) : handle(store, faithfulParts, request);
      }),
  ),
  target(
    'guest-session-cookie-overrides-key',
    true,
    'A 401 opens a guest session (`Set-Cookie: sid=guest...`); the session middleware runs before key auth and a request carrying the guest session is a guest, so the full key with that cookie gets 401 (decision key forms: cookies the server set change nothing; API §5: a valid key is not refused).',
    () =>
      serveFlow((store, request) => {
        const guest = /(?:^|;\s*)sid=guest\./.test(header(request, 'cookie') ?? '');
        const answer = guest && operationOf(request.url) !== undefined ? errorAnswer(faithfulParts, 401, request) : handle(store, faithfulParts, request);
        if (answer.status !== 401) return answer;
        return { ...answer, headers: { ...answer.headers, 'set-cookie': `sid=guest.${randomUUID()}; Path=/; HttpOnly; SameSite=Lax` } };
      }),
  ),
  target(
    'protected-environments-hidden-from-viewer',
    true,
    'Row-level filtering for keys without admin rights: the restricted key\'s list of `default` leaves out `production` (protected), which is enabled in the project (API §1, §4.1: the environments enabled in the project\'s configuration are the list; the key changes only 401/403).',
    () =>
      serveFlow((store, request) => {
        const answer = handle(store, faithfulParts, request);
        const key = keyOf(request);
        if (answer.status !== 200 || operationOf(request.url)?.operationId !== 'getProjectEnvironments' || key === undefined || store.keys.get(key)?.has('*') === true) return answer;
        const body = JSON.parse(answer.body!) as { version: number; environments: { protected?: boolean }[] };
        return json(200, { ...body, environments: body.environments.filter((e) => e.protected !== true) }, answer.headers);
      }),
  ),
  // State, caches, replicas
  target(
    'reads-alternate-with-stale-replica',
    true,
    'Reads go round-robin to the primary and a read replica that lags on an older configuration: every other read of the OIDC settings has `enableSingleSignOut: true`, every other read of `default` has other toggle counts, with no write in between (decision: an answer depends on its own request and the state).',
    () => {
      const primary = new Store();
      const replica = new Store();
      replica.oidc.enableSingleSignOut = true;
      replica.oidc.defaultRootRole = 'Viewer';
      for (const entry of replica.projects.get('default')!) entry.projectEnabledToggleCount = Number(entry.projectEnabledToggleCount ?? 0) + 3;
      let reads = 0;
      return serve((req, res) => {
        const request = toApiRequest(req);
        const store = isRead(request) && reads++ % 2 === 1 ? replica : primary;
        send(res, handle(store, faithfulParts, request));
      });
    },
  ),
  target(
    'cdn-caches-404-across-keys',
    true,
    'A CDN in front caches 404s of GET by URL for 30 s (negative caching) regardless of Authorization: after a keyed read of a missing project, the same URL without a key gets that 404 instead of 401 (decision: auth comes before the lookup, 401 before 404, whether the resource exists or not).',
    () => {
      const store = new Store();
      const cached = new Map<string, { answer: Answer; until: number }>();
      return serve((req, res) => {
        const request = toApiRequest(req);
        const hit = request.method === 'GET' ? cached.get(request.url) : undefined;
        if (hit !== undefined && hit.until > Date.now()) return send(res, { ...hit.answer, headers: { ...hit.answer.headers, age: String(Math.floor((30_000 - (hit.until - Date.now())) / 1000)), 'x-cache': 'HIT' } });
        const answer = handle(store, faithfulParts, request);
        if (request.method === 'GET' && answer.status === 404) cached.set(request.url, { answer, until: Date.now() + 30_000 });
        send(res, { ...answer, headers: { ...answer.headers, 'x-cache': 'MISS' } });
      });
    },
  ),
  // Ids
  target(
    'project-id-like-pattern',
    true,
    'Ids are matched with SQL LIKE (`WHERE id LIKE $1`, no escaping): `_` and `%` are wildcards, so `defaul_` and `d%25` (d%) name project `default` and token `_` names a token (decision: ids compared exactly; they name nothing, 404).',
    () =>
      serveApp({
        parts: {
          sameId(presented, stored) {
            const pattern = presented.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.');
            return new RegExp(`^${pattern}$`, 's').test(stored);
          },
        },
      }),
  ),
  target(
    'token-star-deletes-all',
    true,
    'A "revoke all" shortcut: DELETE /service-account/1/token/* with the full key answers 200 and deletes every token of account 1 (API §4.3: the token identified by both ids; decision: ids compared exactly, `*` names no token, 404, nothing deleted).',
    () =>
      serveFlow((store, request) => {
        const route = operationOf(request.url);
        if (route?.operationId !== 'deleteServiceAccountToken' || request.method !== 'DELETE' || route.params[1] !== '*') return handle(store, faithfulParts, request);
        const key = keyOf(request);
        if (key === undefined || !store.keys.has(key)) return errorAnswer(faithfulParts, 401, request);
        if (!store.permits(key, 'deleteServiceAccountToken')) return errorAnswer(faithfulParts, 403, request);
        const tokens = store.tokens.get(route.params[0]!);
        if (tokens === undefined) return errorAnswer(faithfulParts, 404, request);
        tokens.clear();
        return { status: 200, headers: {}, body: undefined };
      }),
  ),
  target(
    'trailing-dot-stripped-from-id',
    true,
    'Path segments lose their trailing dots (Windows path normalization in the host): `default.` is project `default` and DELETE /service-account/1/token/2. deletes token 2 (decision: ids compared exactly; `default.` names no project, 404).',
    () => serveApp({ parts: { sameId: (presented, stored) => presented.replace(/\.+$/, '') === stored } }),
  ),
  // Bodies and encodings
  target(
    'errors-as-problem-json',
    true,
    'Error answers go out as `application/problem+json` (ASP.NET Core / Spring ProblemDetails), with id, name and message among the problem fields (API: bodies are JSON, application/json; spec: every error response is application/json).',
    () =>
      serveApp({
        after(answer) {
          if (answer.status < 400 || answer.body === undefined || !(answer.headers['content-type'] ?? '').startsWith('application/json')) return answer;
          const body = JSON.parse(answer.body) as Record<string, unknown>;
          return json(answer.status, { type: 'about:blank', title: body.name, status: answer.status, ...body }, { ...answer.headers, 'content-type': 'application/problem+json; charset=utf-8' });
        },
      }),
  ),
  target(
    'accept-charset-latin1-json',
    true,
    'Accept-Charset is honoured (Spring-style converters): with `Accept-Charset: iso-8859-1` bodies are encoded and labelled ISO-8859-1, so a 404 quoting `café` carries a byte that is not UTF-8 (RFC 8259 §8.1: JSON is UTF-8; decision: ordinary headers change no answer).',
    () => {
      const store = new Store();
      const parts: Parts = { ...faithfulParts, message: (status, request, detail) => (status === 404 && detail ? `Nothing named '${detail}' here.` : faithfulParts.message(status, request, detail)) };
      return serve((req, res) => {
        const request = toApiRequest(req);
        const answer = handle(store, parts, request);
        const wanted = (header(request, 'accept-charset') ?? '').toLowerCase();
        const latin1 = /iso-8859-1|latin1/.test(wanted) && !/utf-8/.test(wanted);
        if (!latin1 || answer.body === undefined) return send(res, answer);
        sendAny(res, { ...answer, headers: { ...answer.headers, 'content-type': 'application/json; charset=iso-8859-1' }, raw: Buffer.from(answer.body, 'latin1') });
      });
    },
  ),
  target(
    'logger-rejects-obs-text-header-500',
    true,
    'The access logger re-decodes header values as strict UTF-8 (TextDecoder fatal) inside the request: a User-Agent holding one ISO-8859-1 byte (obs-text, RFC 9110 §5.5) gets 500 (decision: User-Agent changes no answer).',
    () =>
      serveFlow((store, request) => {
        const decoder = new TextDecoder('utf-8', { fatal: true });
        for (let i = 1; i < request.rawHeaders.length; i += 2) decoder.decode(Buffer.from(request.rawHeaders[i]!, 'latin1'));
        return handle(store, faithfulParts, request);
      }),
  ),
  // Time
  target(
    'invalid-if-modified-since-500',
    true,
    'Reads carry Last-Modified and honour If-Modified-Since, but the date goes through `new Date(v).toISOString()`, which throws on a value that is not a date: `If-Modified-Since: yesterday` gets 500 (RFC 9110 §13.1.3: a recipient MUST ignore an invalid date; the answer is the 200).',
    () => serveFlow(lastModifiedFlow(Math.floor(Date.now() / 1000) * 1000 - 60_000, true)),
  ),
  target(
    'last-modified-in-the-future',
    true,
    'Last-Modified is the configuration\'s local wall-clock time (UTC+1) written with "GMT": reads carry a Last-Modified an hour after their own Date (RFC 9110 §8.8.2.1: an origin server MUST NOT send a Last-Modified later than its Date).',
    () => serveFlow(lastModifiedFlow(Math.floor(Date.now() / 1000) * 1000 + 3_600_000, false)),
  ),
  target(
    'date-header-iso-8601',
    true,
    'Every answer carries `Date: 2026-11-28T04:30:00.000Z` (toISOString instead of toUTCString; RFC 9110 §5.6.7, §6.6.1: a sender MUST generate HTTP-date timestamps in IMF-fixdate, `Sat, 28 Nov 2026 04:30:00 GMT`).',
    () => serveApp({ after: (answer) => ({ ...answer, headers: { ...answer.headers, date: new Date().toISOString() } }) }),
  ),
  // Framing and connections
  target(
    'chunked-to-http-1-0-client',
    true,
    'A hand-written HTTP/1.1 writer frames every answer with Transfer-Encoding: chunked, also to HTTP/1.0 requests, which cannot decode it (RFC 9112 §6.1: a server MUST NOT send Transfer-Encoding unless the request indicates HTTP/1.1).',
    () =>
      serveNet(
        (answer, request, close) =>
          answer.status === 204 || answer.status === 304 ? plainAnswer(answer, request, close) : chunkedBytes(answer, request, { close, extra: keepAliveLine(request, close) }),
        ROUND_TEN,
      ),
  ),
  target(
    'client-connection-close-ignored',
    true,
    'A hand-written HTTP/1.1 writer ignores the client\'s `Connection: close`: the answer carries no `Connection: close` and the connection stays open (RFC 9112 §9.6: a server that receives close MUST close the connection after the answer).',
    // Closes only where HTTP/1.0 requires it (RFC 9112 §9.3), and then without saying so.
    () =>
      serveNet((answer, request) => {
        const close = request.version === 'HTTP/1.0' && !keepsAlive(request);
        return { bytes: plainAnswer(answer, request, false), close };
      }, ROUND_TEN),
  ),
  target(
    'bare-lf-line-endings',
    true,
    'A hand-written HTTP/1.1 writer ends the status line and header lines with LF alone (`\\n`), not CRLF (RFC 9112 §2.1, §2.2: the line terminator is CRLF; node\'s client refuses the answer).',
    () => serveNet((answer, request, close) => plainAnswer(answer, request, close, { eol: '\n' }), ROUND_TEN),
  ),
  target(
    'host-header-not-required',
    true,
    'An HTTP/1.1 request without a Host header is answered like any other (the check that node:http and Go make is switched off): the full key gets the settings (RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request that lacks Host).',
    async () => {
      const store = new Store();
      return serve(
        (req, res) => send(res, handle(store, faithfulParts, toApiRequest(req))),
        (server) => {
          // The option of http.createServer, read per request (node lib/_http_server.js); not in @types/node.
          (server as unknown as { requireHostHeader: boolean }).requireHostHeader = false;
        },
      );
    },
  ),

  // ---- conformant but unusual ----
  target(
    'absolute-form-targets-accepted',
    false,
    'Absolute-form request targets (`GET http://HOST/api/admin/... HTTP/1.1`) are answered as the origin-form path, auth and all (RFC 9112 §3.2.2: a server MUST accept the absolute-form).',
    () => serveFlow((store, request) => handle(store, faithfulParts, { ...request, url: originForm(request.url) })),
  ),
  target(
    'nginx-like-uri-and-header-limits',
    false,
    'Like nginx\'s buffers in front: a request target over 2048 bytes gets 414 and a header field line over 8190 bytes gets 431, in HTML, before auth (decision: 414 and 431 are tolerated refusals of such input; ordinary requests are far below).',
    () =>
      serveFlow((store, request) => {
        if (request.url.length > 2048) return { status: 414, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>414 Request-URI Too Large</h1></body></html>\n' };
        for (let i = 0; i < request.rawHeaders.length; i += 2) {
          if (request.rawHeaders[i]!.length + 2 + request.rawHeaders[i + 1]!.length > 8190) return { status: 431, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>431 Request Header Fields Too Large</h1></body></html>\n' };
        }
        return handle(store, faithfulParts, request);
      }),
  ),
  target(
    'json-with-surrounding-whitespace',
    false,
    'Every JSON body is sent with whitespace around the value (`\\r\\n  {...}\\r\\n`, a template that indents), counted in Content-Length (RFC 8259 §2: insignificant whitespace is allowed before or after any value).',
    () => serveApp({ after: (answer) => (answer.body !== undefined && (answer.headers['content-type'] ?? '').startsWith('application/json') ? { ...answer, body: `\r\n  ${answer.body}\r\n` } : answer) }),
  ),
  target(
    'oidc-unconfigured-empty-strings',
    false,
    'An instance where OIDC was never set up: `enabled: false`, the string settings present as empty strings, the booleans false, discoverUrl, defaultRootRole and defaultRootRoleId absent (API §2.2: no field required; decision: enabled any boolean; the strings carry no format but discoverUrl).',
    () => {
      const store = new Store();
      for (const field of Object.keys(store.oidc)) delete store.oidc[field];
      Object.assign(store.oidc, { enabled: false, clientId: '', secret: '', autoCreate: false, enableSingleSignOut: false, emailDomains: '', acrValues: '', idTokenSigningAlgorithm: 'RS256', enableGroupSyncing: false, groupJsonPath: '', addGroupsScope: false });
      return serve((req, res) => send(res, handle(store, faithfulParts, toApiRequest(req))));
    },
  ),
  target(
    'numbers-fractional-negative-and-large',
    false,
    'Numbers at the edges of their types: variant weights 333.5 and 666.5 (number), sortOrder -100 and -1 (integer, no minimum), a toggle count of 9007199254740991, an environment type `QA (shared)` (API §2.1: any integer, any number, any string).',
    () => {
      const store = new Store();
      for (const environment of store.instanceEnvironments.values()) environment.sortOrder = -Math.abs(environment.sortOrder ?? 1);
      store.instanceEnvironments.get('development')!.type = 'QA (shared)';
      const production = store.projects.get('default')!.find((e) => e.name === 'production')! as unknown as Record<string, unknown> & { defaultStrategy: { sortOrder: number; variants: { weight: number }[] } };
      production.projectEnabledToggleCount = Number.MAX_SAFE_INTEGER;
      production.defaultStrategy.sortOrder = -1;
      production.defaultStrategy.variants[0]!.weight = 333.5;
      production.defaultStrategy.variants[1]!.weight = 666.5;
      return serve((req, res) => send(res, handle(store, faithfulParts, toApiRequest(req))));
    },
  ),
  target(
    'empty-nested-strategy-objects',
    false,
    'Default strategies as a document store keeps them: `defaultStrategy: {}` on one environment, a constraint `{}`, a variant whose payload is `{}` and parameters `{}` on another (decision: the strategy, constraint, variant and payload objects require no field).',
    () => {
      const store = new Store();
      const entries = store.projects.get('default')! as (Record<string, unknown> & { name: string })[];
      entries.find((e) => e.name === 'development')!.defaultStrategy = {};
      const production = entries.find((e) => e.name === 'production')!.defaultStrategy as { constraints: unknown[]; variants: { payload?: unknown }[]; parameters: unknown };
      production.constraints.push({});
      production.variants[0]!.payload = {};
      production.parameters = {};
      return serve((req, res) => send(res, handle(store, faithfulParts, toApiRequest(req))));
    },
  ),
  target(
    'delete-200-empty-with-json-content-type',
    false,
    'The delete\'s 200 carries `Content-Type: application/json` with `Content-Length: 0` (a framework that sets the type on every answer): still no body (API §4.3: 200, no body; RFC 9110 §8.3 lets a message without content carry a type).',
    () => serveApp({ after: (answer, request) => (request.method === 'DELETE' && answer.status === 200 ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/json; charset=utf-8' } } : answer) }),
  ),
  target(
    'status-lines-without-reason',
    false,
    'A hand-written HTTP/1.1 writer sends status lines with an empty reason phrase (`HTTP/1.1 200 ` then CRLF), as HTTP/2 gateways translating back do (RFC 9112 §4: the reason phrase may be empty; clients ignore it).',
    () => serveNet((answer, request, close) => plainAnswer(answer, request, close, { statusLine: `HTTP/1.1 ${answer.status} ` }), ROUND_TEN),
  ),
];
