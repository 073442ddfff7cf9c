// Red team round fifteen: 24 broken and 8 conformant servers, written from API.md, the spec and its
// decisions (docs/decisions.md) without reading the suite. Each is the faithful app of ../app.ts
// with one part replaced; the description says what, in one line. BASELINE.md cites the rule each
// breaks (or the rule that allows the unusual behaviour of a conformant one).
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  type Answer,
  type ApiRequest,
  errorAnswer,
  FIXTURES,
  faithfulParts,
  handle,
  header,
  json,
  lookup,
  type Parts,
  pathOf,
  type RedTeamTarget,
  type RunningTarget,
  type Route,
  routeOf,
  send,
  serve,
  serveApp,
  sleep,
  Store,
  target,
  toApiRequest,
} from '../app.ts';
import { plainBytes, serveNet, statusLine } from '../net-server.ts';

const parts: Parts = faithfulParts;

/** The route of a request when its method is the operation's own (HEAD counting as GET), else undefined. */
function operationOf(request: ApiRequest): Extract<Route, { kind: 'operation' }> | undefined {
  const route = routeOf(pathOf(request.url));
  if (route.kind !== 'operation') return undefined;
  const own = request.method === route.method || (request.method === 'HEAD' && route.method === 'GET');
  return own ? route : undefined;
}

/** The key a request presents when it is a valid one. */
function validKey(store: Store, request: ApiRequest): string | undefined {
  const key = parts.presentedKey(request);
  return key !== undefined && store.keys.has(key) ? key : undefined;
}

/** A node:http target whose handler gets the store and the parsed request, and answers with `send`. */
function serveWith(answer: (store: Store, request: ApiRequest) => Answer | Promise<Answer>): Promise<RunningTarget> {
  const store = new Store();
  return serve(async (req: IncomingMessage, res: ServerResponse) => {
    sendAnswer(res, await answer(store, toApiRequest(req)));
  });
}

/** `send`, except that a 204 or 304 goes out without Content-Length (RFC 9110 §8.6, §15.4.5). */
function sendAnswer(res: ServerResponse, answer: Answer): void {
  if (answer.status !== 204 && answer.status !== 304) return send(res, answer);
  res.writeHead(answer.status, answer.headers);
  res.end();
}

/** The parsed JSON of an answer with its body replaced by `change(parsed)`. */
function rewriteBody(answer: Answer, change: (body: any) => unknown): Answer {
  return { ...answer, body: JSON.stringify(change(JSON.parse(answer.body!))) };
}

const isEnvironments200 = (answer: Answer, request: ApiRequest) => answer.status === 200 && operationOf(request)?.operationId === 'getProjectEnvironments';
const isOidc200 = (answer: Answer, request: ApiRequest) => answer.status === 200 && operationOf(request)?.operationId === 'getOidcSettings';

// ---- Broken: what the API names directly ------------------------------------------------------

const restrictedKey403OnUnknownProject = target(
  'restricted-key-403-on-unknown-project',
  true,
  'Keys without "*" are checked against the project\'s member list, and a project that does not exist has no members: the environments-only key gets 403 NoAccessError for an unknown project, where the full key gets 404',
  () =>
    serveWith((store, request) => {
      const route = operationOf(request);
      const key = validKey(store, request);
      if (route?.operationId === 'getProjectEnvironments' && key !== undefined && store.permits(key, route.operationId) && !store.keys.get(key)!.has('*')) {
        if (store.find(store.projects.keys(), route.params[0]!, parts.sameId) === undefined) return errorAnswer(parts, 403, request);
      }
      return handle(store, parts, request);
    }),
);

const errorIdCounterPerConnection = target(
  'error-id-counter-per-connection',
  true,
  'Error ids are the request\'s sequence number on its connection (`req-1`, `req-2`: a per-socket logger counter), so the first error on every new connection carries the id `req-1`',
  () => {
    const store = new Store();
    const counters = new WeakMap<Socket, number>();
    return serve((req, res) => {
      const n = (counters.get(req.socket) ?? 0) + 1;
      counters.set(req.socket, n);
      send(res, handle(store, { ...parts, errorId: () => `req-${n}` }, toApiRequest(req)));
    });
  },
);

const enabledMemberFromDisabledColumn = target(
  'enabled-member-from-disabled-column',
  true,
  'The entity maps the `is_disabled` column onto `enabled` without negating it: every listed environment (an enabled one) says `"enabled": false`',
  () => serveApp({ after: (answer, request) => (isEnvironments200(answer, request) ? rewriteBody(answer, (b) => ({ ...b, environments: b.environments.map((e: any) => ({ ...e, enabled: !e.enabled })) })) : answer) }),
);

const signingAlgorithmHs256 = target(
  'signing-algorithm-hs256',
  true,
  'This instance signs ID tokens with the shared secret and says so: `idTokenSigningAlgorithm: "HS256"`, a value outside RS256, RS384, RS512',
  () => serveApp({ after: (answer, request) => (isOidc200(answer, request) ? rewriteBody(answer, (b) => ({ ...b, idTokenSigningAlgorithm: 'HS256' })) : answer) }),
);

const sortOrderFractionalIndex = target(
  'sort-order-fractional-index',
  true,
  'Drag-and-drop reordering stores midpoints as positions: production, moved between two neighbours, has `"sortOrder": 162.5`, not an integer',
  () =>
    serveApp({
      after: (answer, request) =>
        isEnvironments200(answer, request) ? rewriteBody(answer, (b) => ({ ...b, environments: b.environments.map((e: any) => (e.name === 'production' ? { ...e, sortOrder: 162.5 } : e)) })) : answer,
    }),
);

const deleteAnswers202Accepted = target(
  'delete-answers-202-accepted',
  true,
  'Deletes go through a job queue applied at once, but the handler answers as queue APIs do: 202 Accepted with no body instead of the documented 200',
  () => serveApp({ after: (answer, request) => (answer.status === 200 && operationOf(request)?.operationId === 'deleteServiceAccountToken' ? { ...answer, status: 202 } : answer) }),
);

const malformedAuthorization400 = target(
  'malformed-authorization-400',
  true,
  'The Authorization parser throws a ValidationError on a value it cannot read (another scheme such as `Basic x`, or more words than `Bearer <key>`): 400 on every operation instead of 401',
  () =>
    serveWith((store, request) => {
      const value = header(request, 'authorization')?.replace(/^[ \t]+|[ \t]+$/g, '');
      if (operationOf(request) && value !== undefined && /[ \t]/.test(value) && !/^bearer[ \t]+[^ \t]+$/i.test(value)) {
        return errorAnswer(parts, 400, request, 'malformed Authorization header');
      }
      return handle(store, parts, request);
    }),
);

const optimisticLockConflictAs404 = target(
  'optimistic-lock-conflict-as-404',
  true,
  'Deletes bump the account row\'s version and write with `WHERE version = :read` after a 20 ms audit write; a conflict (another delete on the same account meanwhile) is reported as 404 NotFoundError and nothing is deleted',
  () => {
    const versions = new Map<string, number>();
    return serveWith(async (store, request) => {
      const route = operationOf(request);
      const key = validKey(store, request);
      if (route?.operationId === 'deleteServiceAccountToken' && key !== undefined && store.permits(key, route.operationId)) {
        const found = lookup(store, parts, route.operationId, route.params);
        if (found.found) {
          const read = versions.get(found.account!) ?? 0;
          await sleep(20);
          if ((versions.get(found.account!) ?? 0) !== read) return errorAnswer(parts, 404, request);
          versions.set(found.account!, read + 1);
        }
      }
      return handle(store, parts, request);
    });
  },
);

const readBumpsToggleCount = target(
  'read-bumps-toggle-count',
  true,
  'A view-analytics hook calls `increment("projectEnabledToggleCount")` on the listed rows (the wrong column): every environments read raises the counts the next read shows',
  () =>
    serveWith((store, request) => {
      const answer = handle(store, parts, request);
      const route = operationOf(request);
      if (answer.status === 200 && route?.operationId === 'getProjectEnvironments') {
        for (const entry of store.projects.get(route.params[0]!)!) if (entry.enabled) entry.projectEnabledToggleCount = Number(entry.projectEnabledToggleCount ?? 0) + 1;
      }
      return answer;
    }),
);

const sharedRoleArrayMutated = target(
  'shared-role-array-mutated',
  true,
  'Effective permissions are built by adding a key\'s own grants to the default role object instead of a copy: once the full key has made a request, the environments-only key holds "*" too',
  () => {
    const store = new Store();
    const baseRole = new Set(FIXTURES.apiKeys.find((k) => !k.permissions.includes('*'))!.permissions);
    const own = new Map(FIXTURES.apiKeys.map((k) => [k.key, k.permissions]));
    for (const key of own.keys()) store.keys.set(key, baseRole);
    return serve((req, res) => {
      const request = toApiRequest(req);
      const key = validKey(store, request);
      if (key !== undefined) for (const permission of own.get(key)!) store.keys.get(key)!.add(permission);
      send(res, handle(store, parts, request));
    });
  },
);

const unknownAccount400Validation = target(
  'unknown-account-400-validation',
  true,
  'The delete DTO validates the account id against existing accounts (`@IsIn(accountIds)`) after auth: an account that does not exist gets 400 ValidationError instead of 404 NotFoundError',
  () =>
    serveWith((store, request) => {
      const route = operationOf(request);
      const key = validKey(store, request);
      if (route?.operationId === 'deleteServiceAccountToken' && key !== undefined && store.permits(key, route.operationId) && store.find(store.tokens.keys(), route.params[0]!, parts.sameId) === undefined) {
        return errorAnswer(parts, 400, request, 'id must reference an existing service account');
      }
      return handle(store, parts, request);
    }),
);

const anonymousUserGets403 = target(
  'anonymous-user-gets-403',
  true,
  'A request without Authorization runs as the built-in anonymous user, who holds no permission: it gets 403 NoAccessError instead of 401 AuthenticationRequired',
  () => serveWith((store, request) => (operationOf(request) && request.headers.authorization === undefined ? errorAnswer(parts, 403, request) : handle(store, parts, request))),
);

// ---- Broken: what the contract leaves to HTTP ---------------------------------------------------

const headAnswered204 = target(
  'head-answered-204',
  true,
  'The HEAD handler reasons that it sends no content and answers 204 No Content: HEAD on a read gets 204 where the GET gets 200',
  () => {
    const store = new Store();
    return serve((req, res) => {
      const answer = handle(store, parts, toApiRequest(req));
      sendAnswer(res, req.method === 'HEAD' && answer.status === 200 ? { ...answer, status: 204 } : answer);
    });
  },
);

const TYPE_NAMES_DE: Record<string, string> = { development: 'Entwicklung', test: 'Test', production: 'Produktion' };

const environmentTypesTranslated = target(
  'environment-types-translated',
  true,
  'The i18n layer translates enum-like values too: with `Accept-Language: de` the environment types read `Entwicklung` and `Produktion` (with Content-Language: de)',
  () =>
    serveApp({
      after: (answer, request) => {
        const language = header(request, 'accept-language') ?? '';
        if (!isEnvironments200(answer, request) || !/^\s*de\b/i.test(language)) return answer;
        const translated = rewriteBody(answer, (b) => ({ ...b, environments: b.environments.map((e: any) => ({ ...e, type: TYPE_NAMES_DE[e.type] ?? e.type })) }));
        return { ...translated, headers: { ...translated.headers, 'content-language': 'de' } };
      },
    }),
);

const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/** The three forms of an HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, RFC 850, asctime. */
const HTTP_DATES = [
  new RegExp(`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} ${MONTH} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$`),
  new RegExp(`^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT$`),
  new RegExp(`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4}$`),
];

/** The time an HTTP-date names, or undefined for anything else and for a date later than now (RFC 9110 §13.1.3: invalid). */
function httpDate(value: string | undefined): number | undefined {
  if (value === undefined || !HTTP_DATES.some((form) => form.test(value))) return undefined;
  // asctime carries no zone: it is UTC (RFC 9110 §5.6.7); RFC 850's two-digit year is read by Date.parse as 19xx/20xx.
  const time = Date.parse(HTTP_DATES[2]!.test(value) ? `${value} GMT` : value);
  return Number.isNaN(time) || time > Date.now() ? undefined : time;
}

const ifModifiedSinceOnDelete304 = target(
  'if-modified-since-on-delete-304',
  true,
  'Reads carry Last-Modified and honour If-Modified-Since after auth and lookup, but the layer does not look at the method: a DELETE with If-Modified-Since at or after it gets 304 and deletes nothing',
  () => {
    const lastModified = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    return serveWith((store, request) => {
      const route = operationOf(request);
      const key = validKey(store, request);
      const since = httpDate(header(request, 'if-modified-since'));
      if (route && key !== undefined && store.permits(key, route.operationId) && since !== undefined && lookup(store, parts, route.operationId, route.params).found) {
        if (since >= lastModified) return { status: 304, headers: { 'last-modified': new Date(lastModified).toUTCString() }, body: undefined };
      }
      const answer = handle(store, parts, request);
      return route?.method === 'GET' && answer.status === 200 ? { ...answer, headers: { ...answer.headers, 'last-modified': new Date(lastModified).toUTCString() } } : answer;
    });
  },
);

const rangeAppliedToErrors = target(
  'range-applied-to-errors',
  true,
  'A Range layer written for the static error pages slices every error answer for `Range: bytes=a-b` and answers 206: a request without a key gets 206 Partial Content, not 401 (the reads\' 200s ignore Range)',
  () =>
    serveApp({
      after: (answer, request) => {
        const range = /^bytes=(\d+)-(\d+)$/.exec(header(request, 'range') ?? '');
        if (!range || answer.status < 400 || answer.body === undefined) return answer;
        const bytes = Buffer.from(answer.body);
        const first = Number(range[1]);
        const last = Math.min(Number(range[2]), bytes.length - 1);
        if (first > last) return answer;
        return { status: 206, headers: { ...answer.headers, 'content-range': `bytes ${first}-${last}/${bytes.length}` }, body: bytes.subarray(first, last + 1).toString('utf8') };
      },
    }),
);

const authFailureSticksToConnection = target(
  'auth-failure-sticks-to-connection',
  true,
  'A brute-force guard marks a kept-alive connection at its first 401 and answers 401 to every later request on it, whatever key it carries',
  () => {
    const store = new Store();
    const marked = new WeakSet<Socket>();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const answer = operationOf(request) && marked.has(req.socket) ? errorAnswer(parts, 401, request) : handle(store, parts, request);
      if (answer.status === 401) marked.add(req.socket);
      send(res, answer);
    });
  },
);

/** The codings a request accepts with q > 0 (RFC 9110 §12.5.3), lower-cased. */
function acceptedCodings(request: ApiRequest): string[] {
  return (header(request, 'accept-encoding') ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase().split(';').map((s) => s.trim()))
    .filter(([coding, ...params]) => coding !== '' && !params.some((p) => /^q=0(\.0*)?$/.test(p)))
    .map(([coding]) => coding!);
}

const brotliLabelOnGzipBytes = target(
  'brotli-label-on-gzip-bytes',
  true,
  'The compression table maps `br` to the gzip coder: a request accepting br (browsers, `curl --compressed`) gets gzip bytes labelled `Content-Encoding: br`',
  () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const answer = handle(store, parts, request);
      const codings = acceptedCodings(request);
      const coding = codings.includes('br') ? 'br' : codings.includes('gzip') ? 'gzip' : undefined;
      if (answer.body === undefined || coding === undefined) return send(res, answer);
      const bytes = gzipSync(Buffer.from(answer.body));
      res.writeHead(answer.status, { ...answer.headers, 'content-encoding': coding, vary: 'Accept-Encoding', 'content-length': String(bytes.length) });
      res.end(bytes);
    });
  },
);

const tenantFromForwardedHost = target(
  'tenant-from-forwarded-host',
  true,
  'Multi-tenant routing reads the tenant from X-Forwarded-Host when present (`flags.example.com` is tenant `flags`), and an unknown tenant has no keys: a valid key gets 401',
  () => {
    const tenants = new Map<string, Store>([['default', new Store()]]);
    const empty = new Store();
    empty.keys.clear();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const forwarded = header(request, 'x-forwarded-host');
      const tenant = forwarded === undefined ? 'default' : forwarded.split(',')[0]!.trim().split('.')[0]!.toLowerCase();
      send(res, handle(tenants.get(tenant) ?? empty, parts, request));
    });
  },
);

const RATE_LIMIT = 100;

const rateLimit429PerKey = target(
  'rate-limit-429-per-key',
  true,
  `A rate limiter allows ${RATE_LIMIT} requests per Authorization value per minute and answers the rest 429 Too Many Requests with Retry-After`,
  () => {
    const store = new Store();
    const windows = new Map<string, { start: number; count: number }>();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const id = header(request, 'authorization') ?? '';
      const now = Date.now();
      const window = windows.get(id);
      const current = window && now - window.start < 60_000 ? window : { start: now, count: 0 };
      current.count += 1;
      windows.set(id, current);
      if (current.count > RATE_LIMIT) {
        return send(res, json(429, { id: randomUUID(), name: 'TooManyRequests', message: 'Rate limit exceeded, retry later.' }, { 'retry-after': String(Math.ceil((current.start + 60_000 - now) / 1000)) }));
      }
      send(res, handle(store, parts, request));
    });
  },
);

const optionsAsterisk500 = target(
  'options-asterisk-500',
  true,
  'Targets not starting with `/` are handed to `new URL(target)` as absolute-form ones: `OPTIONS * HTTP/1.1` (the asterisk-form) throws there, 500',
  () =>
    serveWith((store, request) => {
      const url = request.url.startsWith('/') ? request.url : new URL(request.url).pathname;
      return handle(store, parts, { ...request, url });
    }),
);

const formContentType415OnBodyless = target(
  'form-content-type-415-on-bodyless',
  true,
  'A content-type parser registry in front of every route refuses any Content-Type but JSON with 415, also on requests without content (`Content-Type: application/x-www-form-urlencoded` on a GET or DELETE)',
  () => {
    const store = new Store();
    return serve((req, res) => {
      const type = req.headers['content-type'];
      if (type !== undefined && type.split(';')[0]!.trim().toLowerCase() !== 'application/json') {
        res.writeHead(415, { 'content-type': 'text/plain; charset=utf-8', 'content-length': '22' });
        return void res.end('Unsupported Media Type');
      }
      send(res, handle(store, parts, toApiRequest(req)));
    });
  },
);

const keyKeptOnSocketAcrossAwait = target(
  'key-kept-on-socket-across-await',
  true,
  'The auth middleware stores the Authorization value on the socket and reads it back after a 10 ms session lookup: with pipelined requests the later request\'s key (or none) is the one applied to the earlier',
  () => {
    const store = new Store();
    const current = new WeakMap<Socket, string | undefined>();
    return serve(async (req, res) => {
      const request = toApiRequest(req);
      current.set(req.socket, header(request, 'authorization'));
      await sleep(10);
      const authorization = current.get(req.socket);
      const headers = { ...request.headers };
      if (authorization === undefined) delete headers.authorization;
      else headers.authorization = authorization;
      send(res, handle(store, parts, { ...request, headers }));
    });
  },
);

const chunkedRequest411 = target(
  'chunked-request-411',
  true,
  'As nginx before 1.3.9 did: any request with `Transfer-Encoding: chunked` gets 411 Length Required before auth, even an empty chunked DELETE (zero-size last chunk only)',
  () => {
    const store = new Store();
    return serve((req, res) => {
      if (req.headers['transfer-encoding'] !== undefined) {
        res.writeHead(411, { 'content-type': 'text/plain; charset=utf-8', 'content-length': '15', connection: 'close' });
        return void res.end('Length Required');
      }
      send(res, handle(store, parts, toApiRequest(req)));
    });
  },
);

// ---- Conformant ----------------------------------------------------------------------------------

const STATUS_PT: Record<number, string> = { 200: 'OK', 204: 'Sem Conteúdo', 400: 'Requisição Inválida', 401: 'Não Autorizado', 403: 'Proibido', 404: 'Não Encontrado', 405: 'Método Não Permitido' };

const reasonPhrasesLatin1 = target(
  'reason-phrases-latin1',
  false,
  'A hand-written HTTP/1.1 writer with Portuguese reason phrases in ISO-8859-1 bytes (`404 Não Encontrado`, `401 Não Autorizado`): obs-text is allowed in a reason phrase, which carries no meaning',
  () => serveNet((answer, request, close) => plainBytes(answer, request, { close, statusLine: `HTTP/1.1 ${answer.status} ${STATUS_PT[answer.status] ?? statusLine(answer.status).slice(13)}` }), { strict: true, requireHost: true }),
);

const headerValuesPaddedWithOws = target(
  'header-values-padded-with-ows',
  false,
  'A hand-written HTTP/1.1 writer pads every field value with spaces and tabs on both sides (`Content-Length:\\t 123 \\t`): optional whitespace around a field value is not part of it',
  () =>
    serveNet(
      (answer, request, close) => {
        const body = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body, 'utf8');
        const fields: [string, string][] = [['Date', new Date().toUTCString()], ...Object.entries(answer.headers)];
        if (answer.status !== 204 && answer.status !== 304) fields.push(['Content-Length', String(body.length)]);
        if (close) fields.push(['Connection', 'close']);
        const head = [statusLine(answer.status), ...fields.map(([name, value]) => `${name}:\t  ${value} \t`)].join('\r\n') + '\r\n\r\n';
        return request.method === 'HEAD' ? Buffer.from(head, 'latin1') : Buffer.concat([Buffer.from(head, 'latin1'), body]);
      },
      { strict: true, requireHost: true },
    ),
);

const CSP_HOSTS = Array.from({ length: 90 }, (_, i) => `https://cdn${i}.assets.example.com`).join(' ');
const PRELOADS = Array.from({ length: 40 }, (_, i) => `</static/chunk-${i}.${'a1b2c3d4'.repeat(2)}.js>; rel=preload; as=script`).join(', ');

const largeResponseHeaderSection = target(
  'large-response-header-section',
  false,
  'Every answer carries about 9 KB of header fields: an enterprise Content-Security-Policy naming 90 asset hosts and a Link header preloading 40 scripts (no limit on a header section is declared)',
  () =>
    serveApp({
      after: (answer) => ({
        ...answer,
        headers: { ...answer.headers, 'content-security-policy': `default-src 'self'; script-src 'self' ${CSP_HOSTS}; img-src 'self' data: ${CSP_HOSTS}`, link: PRELOADS },
      }),
    }),
);

const lookupBeforeMethodCheck = target(
  'lookup-before-method-check',
  false,
  'Rails-style before-actions: auth, then the resource is loaded, then the method is checked: a method the path does not list gets 401 without a key, 404 for a resource that does not exist, else 405 with Allow',
  () =>
    serveWith((store, request) => {
      const route = routeOf(pathOf(request.url));
      const own = route.kind === 'operation' && (request.method === route.method || (request.method === 'HEAD' && route.method === 'GET'));
      // HEAD on the token path keeps the app's 405 (decision head-requests names 405 or 404 for it).
      if (route.kind !== 'operation' || own || request.method === 'OPTIONS' || request.method === 'HEAD') return handle(store, parts, request);
      if (validKey(store, request) === undefined) return errorAnswer(parts, 401, request);
      if (!lookup(store, parts, route.operationId, route.params).found) return errorAnswer(parts, 404, request);
      return handle(store, parts, request);
    }),
);

const JWKS_KEYS = Array.from({ length: 168 }, (_, i) => ({
  kty: 'RSA',
  use: 'sig',
  alg: 'RS256',
  kid: `key-${String(i).padStart(3, '0')}`,
  e: 'AQAB',
  n: createHash('sha512').update(`modulus-${i}`).digest('base64url').repeat(5).slice(0, 342),
}));

const oidcWithLargeCachedJwks = target(
  'oidc-with-large-cached-jwks',
  false,
  'The OIDC settings also carry the identity provider\'s cached key set, a week of hourly keys (168 RSA keys, about 70 KB): a member the description does not list, in a large but ordinary body',
  () => serveApp({ after: (answer, request) => (isOidc200(answer, request) ? rewriteBody(answer, (b) => ({ ...b, jwks: { keys: JWKS_KEYS } })) : answer) }),
);

const perKeyCacheWithAge = target(
  'per-key-cache-with-age',
  false,
  'A private cache keyed by URL and the exact Authorization value keeps read 200s for 2 s and serves them with `Age` and `X-Cache: HIT` (HEAD from the same entry); `Cache-Control: private, max-age=2`, `Vary: Authorization`',
  () => {
    const store = new Store();
    const cache = new Map<string, { at: number; answer: Answer }>();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const route = operationOf(request);
      const cacheable = route?.method === 'GET';
      const id = `${request.url}\n${header(request, 'authorization') ?? ''}`;
      const entry = cacheable ? cache.get(id) : undefined;
      const now = Date.now();
      if (entry && now - entry.at < 2000) {
        return send(res, { ...entry.answer, headers: { ...entry.answer.headers, age: String(Math.floor((now - entry.at) / 1000)), 'x-cache': 'HIT' } });
      }
      const answer = handle(store, parts, request);
      if (!cacheable || answer.status !== 200) return send(res, answer);
      const stored = { ...answer, headers: { ...answer.headers, 'cache-control': 'private, max-age=2', vary: 'Authorization' } };
      if (request.method === 'GET') cache.set(id, { at: now, answer: stored });
      send(res, { ...stored, headers: { ...stored.headers, 'x-cache': 'MISS' } });
    });
  },
);

const reprDigestOnAnswers = target(
  'repr-digest-on-answers',
  false,
  'Every answer with content carries `Repr-Digest: sha-256=:…:` (RFC 9530) over its JSON, and HEAD carries the digest its GET would: an integrity field a client may ignore',
  () =>
    serveApp({
      after: (answer) =>
        answer.body === undefined ? answer : { ...answer, headers: { ...answer.headers, 'repr-digest': `sha-256=:${createHash('sha256').update(answer.body).digest('base64')}:` } },
    }),
);

const hostNamesRefused421 = target(
  'host-names-refused-421',
  false,
  'DNS-rebinding protection that admits IP literals only: a Host naming the server by a name (`localhost`, any other) gets 421 Misdirected Request in plain text, key or not; IP literals are answered as usual',
  () => {
    const store = new Store();
    return serve((req, res) => {
      // An HTTP/1.0 request may come without Host (RFC 9112 §3.2 requires it of HTTP/1.1 only): nothing to check then.
      const host = req.headers.host?.replace(/:\d*$/, '').replace(/^\[(.*)\]$/, '$1');
      if (host !== undefined && isIP(host) === 0) {
        res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8', 'content-length': '19' });
        return void res.end('Misdirected Request');
      }
      send(res, handle(store, parts, toApiRequest(req)));
    });
  },
);

export const TARGETS: readonly RedTeamTarget[] = [
  restrictedKey403OnUnknownProject,
  errorIdCounterPerConnection,
  enabledMemberFromDisabledColumn,
  signingAlgorithmHs256,
  sortOrderFractionalIndex,
  deleteAnswers202Accepted,
  malformedAuthorization400,
  optimisticLockConflictAs404,
  readBumpsToggleCount,
  sharedRoleArrayMutated,
  unknownAccount400Validation,
  anonymousUserGets403,
  headAnswered204,
  environmentTypesTranslated,
  ifModifiedSinceOnDelete304,
  rangeAppliedToErrors,
  authFailureSticksToConnection,
  brotliLabelOnGzipBytes,
  tenantFromForwardedHost,
  rateLimit429PerKey,
  optionsAsterisk500,
  formContentType415OnBodyless,
  keyKeptOnSocketAcrossAwait,
  chunkedRequest411,
  reasonPhrasesLatin1,
  headerValuesPaddedWithOws,
  largeResponseHeaderSection,
  lookupBeforeMethodCheck,
  oidcWithLargeCachedJwks,
  perKeyCacheWithAge,
  reprDigestOnAnswers,
  hostNamesRefused421,
];
