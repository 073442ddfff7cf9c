// Round nine of the red team: servers written from /work/shared/API.md, spec/openapi.yaml and its
// x-decisions (docs/decisions.md) without reading the suite (conformance/) or earlier rounds'
// servers and witnesses (only their names, and round eight's folder). Each is the faithful app
// (../app.ts) with one plausible real-backend defect (broken: true) or one unusual behaviour the
// contract allows (broken: false); the framing targets run the same flow behind a small node:net
// HTTP/1.1 writer (one write per answer). witnesses.ts proves each on the wire.
import { createHash, randomUUID } from 'node:crypto';
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
  sleep,
  Store,
  toApiRequest,
  type RedTeamTarget,
  target,
  header,
} from '../app.ts';
import { chunkedBytes, closeRequested, type NetWrite, plainBytes, serveNet, statusLine } from '../net-server.ts';

export type { RedTeamTarget };

type Operation = Extract<Route, { kind: 'operation' }>;
const operationOf = (request: ApiRequest): Operation | undefined => {
  const route = routeOf(pathOf(request.url));
  return route.kind === 'operation' ? route : undefined;
};
const isJson = (answer: Answer) => answer.body !== undefined && (answer.headers['content-type'] ?? '').startsWith('application/json');
const queryOf = (request: ApiRequest) => new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');
const isRead = (request: ApiRequest) => operationOf(request)?.method === 'GET' && (request.method === 'GET' || request.method === 'HEAD');

/** The faithful flow after routing, with the method given (a target may take it from elsewhere). */
function flowOn(store: Store, parts: Parts, request: ApiRequest, route: Operation, method = request.method): Answer {
  const byMethod = methodAnswer(route, method);
  if (byMethod) return byMethod;
  const key = parts.presentedKey(request);
  if (key === undefined || !store.keys.has(key)) return errorAnswer(parts, 401, request);
  if (!store.permits(key, route.operationId)) return errorAnswer(parts, 403, request);
  const found = lookup(store, parts, route.operationId, route.params);
  if (!found.found) return errorAnswer(parts, 404, request, route.params.join('/'));
  return operate(store, parts, route.operationId, found);
}

/** The flow as the faithful app runs it, for a request treated as carrying the full key (an auth bypass). */
const asAdmin = (request: ApiRequest): ApiRequest => ({ ...request, headers: { ...request.headers, authorization: FULL_KEY } });

/** The app on a fresh store whose flow is `flow` (which may await); `onClose` stops its timers. */
function serveFlow(flow: (store: Store, request: ApiRequest) => Answer | Promise<Answer>, onClose?: () => void): Promise<RunningTarget> {
  const store = new Store();
  return serve(async (req, res) => send(res, await flow(store, toApiRequest(req))), undefined, onClose);
}

/** An answer whose body is already encoded bytes, sent as they are. */
type RawAnswer = Answer & { raw?: Buffer };

/** The faithful app with every answer passed through `after`; 204 and 304 go out without Content-Length (RFC 9110 §8.6). */
function serveAppRaw(after: (answer: Answer, request: ApiRequest) => RawAnswer): Promise<RunningTarget> {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const answer = after(handle(store, faithfulParts, request), request);
    if (answer.status === 204 || answer.status === 304) {
      res.writeHead(answer.status, answer.headers);
      res.end();
      return;
    }
    if (answer.raw === undefined) return send(res, answer);
    res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.raw.length) });
    res.end(answer.raw);
  });
}

/** A key part that maps the presented key onto the stored key `matches` accepts (a lookup that is not `===`). */
const keyMatchedBy = (matches: (presented: string, stored: string) => boolean): Partial<Parts> => {
  const stored = [...new Store().keys.keys()];
  return {
    presentedKey(request) {
      const presented = faithfulParts.presentedKey(request);
      if (presented === undefined) return undefined;
      return stored.find((k) => matches(presented, k)) ?? presented;
    },
  };
};

const stripMarks = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');
const etagOf = (body: string) => `"${createHash('sha1').update(body).digest('hex').slice(0, 20)}"`;

/** Round nine's node:net server (../net-server.ts): lenient parsing, the last of repeated fields, a close only on `Connection: close`. */
const serveNet9 = (write: NetWrite, idleMs?: number) => serveNet(write, { duplicates: 'last', closeWhen: closeRequested, idleMs });

/**
 * The same server for the conformant framing targets, parsing as node:http does (changed after round ten, see BASELINE.md): an
 * HTTP/1.1 request without Host gets 400 (RFC 9112 §3.2: a server MUST), and of two Authorization lines the flow sees the first, so an
 * invalid key then the full key is refused (spec decision malformed-requests). Each keeps its own point.
 */
const serveNet9Conformant = (write: NetWrite) => serveNet(write, { duplicates: 'node', requireHost: true, closeWhen: closeRequested });

export const TARGETS: RedTeamTarget[] = [
  // ---- broken: how a key is matched ----
  target('key-upper-cased-in-turkish-locale', true, 'Keys are compared case-insensitively by upper-casing both in the server\'s default locale, tr-TR (Java `toUpperCase()` without Locale.ROOT): `mock-admin-key` becomes `MOCK-ADMİN-KEY`, so the all-capitals key is refused but `Mock-Admin-Key` (any case change that keeps the lower-case i) is the admin key (decision keys-compared-exactly: a key in another case is invalid)', () =>
    serveApp({ parts: keyMatchedBy((p, k) => p.toLocaleUpperCase('tr-TR') === k.toLocaleUpperCase('tr-TR')) }),
  ),
  target('key-column-accent-insensitive', true, 'Keys live in a SQL Server column with a `Latin1_General_CS_AI` collation (case-sensitive, accent-insensitive): `mock-ädmin-key` or `mock-admín-key` (Latin-1 bytes in the header) is the admin key (decision keys-compared-exactly)', () =>
    serveApp({ parts: keyMatchedBy((p, k) => stripMarks(p) === k) }),
  ),
  target('key-compared-on-first-12-characters', true, 'Keys are `<12-character lookup prefix><rest>`: the server checks the length, finds the row by the prefix and never verifies the rest, so `mock-admin-kex` or `mock-admin-k3y` (same length, last characters changed) is the admin key (decision keys-compared-exactly)', () =>
    serveApp({ parts: keyMatchedBy((p, k) => p.length === k.length && p.slice(0, 12) === k.slice(0, 12)) }),
  ),
  target('key-quotes-stripped', true, 'A key pasted with its quotes from an .env file is forgiven: one pair of surrounding `"` or `\'` is stripped, so `Authorization: "mock-admin-key"` is the admin key (decision key-in-header-only: anything else around the key makes it invalid)', () =>
    serveApp({
      parts: {
        presentedKey(request) {
          const key = faithfulParts.presentedKey(request);
          const quoted = key === undefined ? null : /^(["'])(.*)\1$/.exec(key);
          return quoted ? quoted[2] : key;
        },
      },
    }),
  ),
  target('rails-token-scheme-accepted', true, 'Rails\' `authenticate_with_http_token` parsing: besides the bare key and Bearer, `Token <key>` and `Token token="<key>"` are read as the key (decision key-in-header-only: any scheme other than Bearer is no credential)', () =>
    serveApp({
      parts: {
        presentedKey(request) {
          const key = faithfulParts.presentedKey(request);
          const token = key === undefined ? null : /^token[ \t]+(?:token="([^"]*)"|(\S+))$/i.exec(key);
          return token ? (token[1] ?? token[2]) : key;
        },
      },
    }),
  ),
  target('key-as-basic-auth-username', true, 'Stripe-style: HTTP Basic with the key as the user name (and any password) is accepted, `Basic base64("mock-admin-key:")` is the admin key (decision key-in-header-only: another scheme such as Basic makes the request keyless, 401)', () =>
    serveApp({
      parts: {
        presentedKey(request) {
          const key = faithfulParts.presentedKey(request);
          const basic = key === undefined ? null : /^basic[ \t]+([A-Za-z0-9+/=]+)$/i.exec(key);
          if (!basic) return key;
          const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
          return decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : key;
        },
      },
    }),
  ),

  target('bearer-401-plain-text', true, 'A Bearer-token middleware (passport-http-bearer style) runs before the app\'s own auth: a `Bearer` header with an unknown key gets its plain-text `401 Unauthorized` with `WWW-Authenticate: Bearer error="invalid_token"` instead of the JSON error body (decision error-responses-carry-body: every 401 of an operation carries the error body)', () =>
    serveApp({
      after: (answer, request) =>
        answer.status === 401 && /^[ \t]*bearer[ \t]/i.test(header(request, 'authorization') ?? '') ? { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer error="invalid_token"' }, body: 'Unauthorized' } : answer,
    }),
  ),
  target('authorization-split-on-comma', true, 'The Authorization value is split on commas and the first item taken (code written for proxies that merge repeated headers into one list): `mock-admin-key, anything` and `mock-admin-key,x` are the admin key (decision keys-compared-exactly: one with characters more is invalid)', () =>
    serveApp({
      parts: {
        presentedKey(request) {
          const key = faithfulParts.presentedKey(request);
          return key?.includes(',') ? key.slice(0, key.indexOf(',')).trim() : key;
        },
      },
    }),
  ),

  // ---- broken: auth state ----
  target('permission-cached-per-key', true, 'The authorization decision is cached for 2 s keyed by the key alone (not the operation): right after the environments-only key reads environments, it may read the OIDC settings, secret included (decision permissions-per-operation: 403 on every call of an operation it lacks)', () => {
    const cache = new Map<string, { allowed: boolean; until: number }>();
    return serveFlow((store, request) => {
      const route = operationOf(request);
      if (!route || methodAnswer(route, request.method)) return handle(store, faithfulParts, request);
      const key = faithfulParts.presentedKey(request);
      if (key === undefined || !store.keys.has(key)) return errorAnswer(faithfulParts, 401, request);
      const hit = cache.get(key);
      const allowed = hit && hit.until > Date.now() ? hit.allowed : store.permits(key, route.operationId);
      if (!hit || hit.until <= Date.now()) cache.set(key, { allowed, until: Date.now() + 2000 });
      if (!allowed) return errorAnswer(faithfulParts, 403, request);
      const found = lookup(store, faithfulParts, route.operationId, route.params);
      return found.found ? operate(store, faithfulParts, route.operationId, found) : errorAnswer(faithfulParts, 404, request);
    });
  }),
  target('token-delete-revokes-api-key-by-row', true, 'The delete also runs a revocation meant for personal tokens on the wrong table, `DELETE FROM api_keys WHERE id = :tokenId` (rows from 0: admin, viewer): deleting token 1/1 revokes the environments-only key, which gets 401 from then on (decision: deletes change their own token and nothing else; a valid key is never 401)', () =>
    serveFlow((store, request) => {
      const answer = handle(store, faithfulParts, request);
      const route = operationOf(request);
      if (answer.status === 200 && route?.operationId === 'deleteServiceAccountToken') {
        const row = [...store.keys.keys()][Number(route.params[1])];
        if (row !== undefined && !store.keys.get(row)!.has('*')) store.keys.delete(row);
      }
      return answer;
    }),
  ),
  target('bad-key-lockout-per-address', true, 'Brute-force protection: after 20 failed authentications from one address within 10 s, every request from it, valid key included, gets 401 for 1.5 s (decision no-declared-limits: no limit is part of the contract; a valid key is never 401)', () => {
    const fails = new Map<string, number[]>();
    const lockedUntil = new Map<string, number>();
    return serveFlow((store, request) => {
      const address = request.socket.remoteAddress ?? '?';
      if ((lockedUntil.get(address) ?? 0) > Date.now() && operationOf(request)) return errorAnswer(faithfulParts, 401, request, 'locked');
      const answer = handle(store, faithfulParts, request);
      if (answer.status === 401) {
        const recent = (fails.get(address) ?? []).filter((t) => t > Date.now() - 10_000);
        recent.push(Date.now());
        fails.set(address, recent);
        if (recent.length >= 20) {
          lockedUntil.set(address, Date.now() + 1500);
          fails.set(address, []);
        }
      }
      return answer;
    });
  }),
  target('policy-check-fails-open-under-load', true, 'The permission check asks a policy service (15 ms) through a circuit breaker that fails open: with three or more requests in flight it skips the check, so the environments-only key reads the OIDC secret when its request overlaps others (decisions requests-independent, permissions-per-operation)', () => {
    let inFlight = 0;
    return serveFlow(async (store, request) => {
      const route = operationOf(request);
      if (!route || methodAnswer(route, request.method)) return handle(store, faithfulParts, request);
      inFlight++;
      try {
        const key = faithfulParts.presentedKey(request);
        if (key === undefined || !store.keys.has(key)) return errorAnswer(faithfulParts, 401, request);
        const busy = inFlight >= 3;
        await sleep(15);
        if (!busy && !store.permits(key, route.operationId)) return errorAnswer(faithfulParts, 403, request);
        const found = lookup(store, faithfulParts, route.operationId, route.params);
        return found.found ? operate(store, faithfulParts, route.operationId, found) : errorAnswer(faithfulParts, 404, request);
      } finally {
        inFlight--;
      }
    });
  }),

  target('head-forbidden-as-401', true, 'HEAD goes through the framework\'s implicit HEAD route, whose guard answers 401 for any key that may not call the GET: the environments-only key\'s HEAD on the OIDC path gets 401 where its GET gets 403 (decision head-requests: HEAD gets the GET\'s status; API §5: a valid key without the permission gets 403)', () =>
    serveFlow((store, request) => {
      const answer = handle(store, faithfulParts, request);
      return request.method === 'HEAD' && answer.status === 403 ? errorAnswer(faithfulParts, 401, request) : answer;
    }),
  ),

  target('head-content-type-text-plain', true, 'HEAD goes through a generic handler that sets `Content-Type: text/plain` (and the GET\'s Content-Length): a HEAD on a read announces a different media type than its GET sends (decision head-requests: HEAD gets the GET\'s headers, RFC 9110 §9.3.2)', () =>
    serveApp({ after: (answer, request) => (request.method === 'HEAD' && answer.headers['content-type'] ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/plain; charset=utf-8' } } : answer) }),
  ),
  target('trailing-slash-skips-permission', true, 'A fallback route for a trailing slash (`/settings/`) re-dispatches to the handler after authentication but without the route\'s permission guard: the environments-only key reads the OIDC secret at `/api/admin/auth/oidc/settings/`; without a key it still gets 401 (decision trailing-slash: the same answer as without the slash, or 404, or a redirect)', () =>
    serveFlow((store, request) => {
      const path = pathOf(request.url);
      const route = path.endsWith('/') ? routeOf(path.slice(0, -1)) : undefined;
      if (route?.kind !== 'operation' || methodAnswer(route, request.method)) return handle(store, faithfulParts, request);
      const key = faithfulParts.presentedKey(request);
      if (key === undefined || !store.keys.has(key)) return errorAnswer(faithfulParts, 401, request);
      const found = lookup(store, faithfulParts, route.operationId, route.params);
      return found.found ? operate(store, faithfulParts, route.operationId, found) : errorAnswer(faithfulParts, 404, request);
    }),
  ),

  // ---- broken: middleware that reads the request in ways it should not ----
  target('host-localhost-trusted', true, 'A "local admin" shortcut for the ops team: a request whose Host header is `localhost` (any port) needs no key and acts as the admin (decisions required-request-headers and keys-compared-exactly: no header grants a permission; a request without a key gets 401)', () =>
    serveFlow((store, request) => {
      const host = (header(request, 'host') ?? '').toLowerCase();
      const local = host === 'localhost' || host.startsWith('localhost:');
      return handle(store, faithfulParts, local && faithfulParts.presentedKey(request) === undefined ? asAdmin(request) : request);
    }),
  ),
  target('auth-skips-static-suffix-in-url', true, 'The auth middleware lets static assets through by testing `req.originalUrl` (query included) against /\\.(css|js|png|svg|ico|map)$/: `/api/admin/auth/oidc/settings?.css` or `?v=app.js` needs no key and acts as the admin (API §5: every operation needs a key; decision required-request-headers: an unnamed query changes nothing)', () =>
    serveFlow((store, request) => handle(store, faithfulParts, /\.(css|js|png|svg|ico|map)$/i.test(request.url) && faithfulParts.presentedKey(request) === undefined ? asAdmin(request) : request)),
  ),
  target('jsonp-callback-query', true, 'JSONP left on from an old dashboard: a `callback` query parameter wraps every JSON answer as `cb({...});` with Content-Type application/javascript, so any web page can read the OIDC secret with the admin\'s key in a script tag (decision required-request-headers: a query the spec does not name changes nothing; the answers are JSON)', () =>
    serveApp({
      after: (answer, request) => {
        const callback = queryOf(request).get('callback');
        return callback && isJson(answer) ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/javascript; charset=utf-8' }, body: `/**/ typeof ${callback} === 'function' && ${callback}(${answer.body});` } : answer;
      },
    }),
  ),
  target('method-override-query-param', true, 'Rails/Laravel-style form method override from the query: POST `…/token/3?_method=DELETE` deletes the token (auth and permission judged for DELETE), POST `?_method=GET` on a read answers the read (decision unlisted-methods: the method is the request line\'s, and POST changes nothing)', () =>
    serveFlow((store, request) => {
      const route = operationOf(request);
      const override = queryOf(request).get('_method');
      if (route && request.method === 'POST' && override) return flowOn(store, faithfulParts, request, route, override.toUpperCase());
      return handle(store, faithfulParts, request);
    }),
  ),
  target('forwarded-proto-http-redirects', true, 'A force-HTTPS middleware trusts the proxy headers from any client: `X-Forwarded-Proto: http` or `Forwarded: proto=http` gets a 301 to the https URL instead of the answer (decision required-request-headers: X-Forwarded-* and Forwarded change nothing)', () =>
    serveApp({
      after: (answer, request) => {
        const proto = header(request, 'x-forwarded-proto') ?? /proto=([a-z]+)/i.exec(header(request, 'forwarded') ?? '')?.[1];
        return proto?.toLowerCase() === 'http' ? { status: 301, headers: { location: `https://${header(request, 'host') ?? '127.0.0.1'}${request.url}` }, body: undefined } : answer;
      },
    }),
  ),

  target('repeated-query-param-500', true, 'A query parser that makes arrays of repeated parameters (qs, Rails) and a logging middleware that calls `.trim()` on every query value: `?_=1&_=2` (or `?a=1&a=2`) gets 500 (decision required-request-headers: an unnamed query changes nothing)', () =>
    serveFlow((store, request) => {
      const query = queryOf(request);
      for (const name of new Set(query.keys())) {
        const values: unknown = query.getAll(name).length > 1 ? query.getAll(name) : query.get(name);
        (values as string).trim();
      }
      return handle(store, faithfulParts, request);
    }),
  ),
  target('every-50th-request-500', true, 'A database pool recycles a connection every 50 queries and the request that meets the recycle fails: every 50th request to an operation gets 500 (an answer depends on the request and the state, never on how many came before; 500 is undocumented)', () => {
    let n = 0;
    return serveFlow((store, request) => {
      if (operationOf(request) && ++n % 50 === 0) return json(500, { id: randomUUID(), name: 'InternalError', message: 'Connection terminated unexpectedly' });
      return handle(store, faithfulParts, request);
    });
  }),

  // ---- broken: caching and validators ----
  target('etag-accepted-across-resources', true, 'The conditional-GET layer remembers every ETag it issued and answers 304 to any of them, on any read: the OIDC settings\' tag sent to `/environments/project/default`, or default\'s tag sent to mobile-app, gets 304 (decision conditional-requests: 304 only when the validator matches what that 200 carries)', () => {
    const issued = new Set<string>();
    return serveAppRaw((answer, request) => {
      if (answer.status !== 200 || !isRead(request)) return answer;
      const tag = etagOf(answer.body ?? '');
      issued.add(tag);
      const asked = header(request, 'if-none-match');
      if (asked !== undefined && asked.split(',').some((t) => issued.has(t.trim()))) return { status: 304, headers: { etag: asked.split(',')[0]!.trim() }, body: undefined };
      return { ...answer, headers: { ...answer.headers, etag: tag } };
    });
  }),
  target('not-modified-carries-other-etag', true, 'ETags are computed by the response-writing filter over the bytes it writes, so a 304 carries the tag of its empty body, not the tag of the 200 it stands for (RFC 9110 §15.4.5: a 304 carries the ETag the 200 would have; decision conditional-requests)', () =>
    serveAppRaw((answer, request) => {
      if (answer.status !== 200 || !isRead(request)) return answer;
      const tag = etagOf(answer.body ?? '');
      if (header(request, 'if-none-match')?.split(',').some((t) => t.trim() === tag)) return { status: 304, headers: { etag: etagOf('') }, body: undefined };
      return { ...answer, headers: { ...answer.headers, etag: tag } };
    }),
  ),
  target('secret-marked-public-cacheable', true, 'The OIDC settings answer carries `Cache-Control: public, max-age=300` and no Vary (a blanket CDN rule for GETs under /api/admin/auth/): a shared cache may store the secret and serve it to requests without a key (RFC 9111 §3.5: `public` lets a shared cache reuse an answer to an authenticated request)', () =>
    serveApp({ after: (answer, request) => (answer.status === 200 && operationOf(request)?.operationId === 'getOidcSettings' ? { ...answer, headers: { ...answer.headers, 'cache-control': 'public, max-age=300' } } : answer) }),
  ),
  target('delete-replayed-by-idempotency-cache', true, 'An idempotency middleware replays a DELETE\'s answer for the same URL and key for 1.5 s: the second delete of a token right after the first gets 200 again (decision token-deletion-transition: the same delete again gets 404)', () => {
    const replay = new Map<string, { answer: Answer; until: number }>();
    return serveFlow((store, request) => {
      if (request.method !== 'DELETE') return handle(store, faithfulParts, request);
      const id = `${request.url} ${faithfulParts.presentedKey(request) ?? ''}`;
      const hit = replay.get(id);
      if (hit && hit.until > Date.now()) return hit.answer;
      const answer = handle(store, faithfulParts, request);
      if (answer.status === 200) replay.set(id, { answer, until: Date.now() + 1500 });
      return answer;
    });
  }),

  // ---- broken: routing ----
  target('slash-redirect-to-upstream-origin', true, 'Behind a proxy, the trailing-slash redirect is built from the app\'s own listening address: `/api/admin/auth/oidc/settings/` gets 301 `Location: http://localhost:3000/api/admin/auth/oidc/settings`, another origin (decision trailing-slash: a redirect to the path without the slash, on this server)', () =>
    serveApp({
      after: (answer, request) => {
        const path = pathOf(request.url);
        return path.length > 1 && path.endsWith('/') && routeOf(path.slice(0, -1)).kind === 'operation' ? { status: 301, headers: { location: `http://localhost:3000${path.slice(0, -1)}` }, body: undefined } : answer;
      },
    }),
  ),
  target('ids-accent-insensitive-collation', true, 'Ids are looked up in a column with an accent-insensitive, case-sensitive collation (Postgres ICU `und-u-ks-level1-kc-true`): `d%C3%A9fault` (défault) or `m%C3%B6bile-app` names the project (decision project-id-compared-exactly)', () =>
    serveApp({ parts: { sameId: (presented, stored) => stripMarks(presented) === stored } }),
  ),
  target('ids-zero-width-characters-stripped', true, 'A sanitizer strips invisible characters (U+200B…U+200D, U+2060, U+FEFF) from path parameters: `default%E2%80%8B` is default, and `1/token/3%EF%BB%BF` deletes token 3 (decisions project-id-compared-exactly, token-ids-compared-exactly)', () =>
    serveApp({ parts: { sameId: (presented, stored) => presented.replace(/[\u200B-\u200D\u2060\uFEFF]/g, '') === stored } }),
  ),
  target('account-id-compared-as-number', true, 'The service account is loaded with `findByPk(Number(id))` while the token id is compared as a string: `01/token/3`, `1.0/token/3` or `+1/token/3` deletes token 1/3 (decision token-ids-compared-exactly: both ids are compared exactly)', () =>
    serveFlow((store, request) => {
      const route = operationOf(request);
      if (route?.operationId === 'deleteServiceAccountToken' && request.method === 'DELETE' && route.params[0]!.trim() !== '') {
        const account = [...store.tokens.keys()].find((a) => Number(a) === Number(route.params[0]));
        if (account !== undefined) return flowOn(store, faithfulParts, request, { ...route, params: [account, route.params[1]!] });
      }
      return handle(store, faithfulParts, request);
    }),
  ),

  // ---- broken: bodies ----
  target('duplicate-keys-from-defaults', true, 'The OIDC answer is written by concatenating a defaults object with the stored settings as text: `{"enabled":false,"autoCreate":false,"enableGroupSyncing":false,"enabled":true,…}`; JSON.parse keeps the last, a first-wins parser reads OIDC as off (RFC 8259 §4, RFC 7493 §2.3: member names must be unique)', () =>
    serveApp({
      after: (answer, request) =>
        answer.status === 200 && operationOf(request)?.operationId === 'getOidcSettings' && isJson(answer) ? { ...answer, body: `{"enabled":false,"autoCreate":false,"enableGroupSyncing":false,${answer.body!.slice(1)}` } : answer,
    }),
  ),
  target('json-in-utf-16', true, 'An ASP.NET writer configured with Encoding.Unicode: JSON bodies in UTF-16LE with a byte order mark, `Content-Type: application/json; charset=utf-16` (RFC 8259 §8.1: JSON exchanged between systems MUST be UTF-8)', () =>
    serveAppRaw((answer) =>
      isJson(answer) ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/json; charset=utf-16' }, body: undefined, raw: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(answer.body!, 'utf16le')]) } : answer,
    ),
  ),
  target('empty-collections-as-null', true, 'An ORM maps empty collections to null and the serializer writes nulls: `constraints: null`, `variants: null`, `segments: null` in default strategies without them (API §2.1: arrays; null is not an empty array)', () =>
    serveApp({
      after: (answer, request) => {
        if (answer.status !== 200 || operationOf(request)?.operationId !== 'getProjectEnvironments' || !isJson(answer)) return answer;
        const body = JSON.parse(answer.body!);
        for (const e of body.environments) {
          const s = e.defaultStrategy as Record<string, unknown> | undefined;
          if (s) for (const f of ['constraints', 'variants', 'segments']) if (Array.isArray(s[f]) && (s[f] as unknown[]).length === 0) s[f] = null;
        }
        return { ...answer, body: JSON.stringify(body) };
      },
    }),
  ),

  // ---- broken: the connection ----
  target('sixth-request-on-connection-reset', true, 'A keep-alive request cap implemented on arrival: the sixth request on a connection is not answered, the socket is destroyed instead (decision requests-independent: every request gets exactly one answer; closing is allowed after an answer, not instead of one)', () => {
    const store = new Store();
    const counts = new WeakMap<object, number>();
    return serve((req, res) => {
      const n = (counts.get(req.socket) ?? 0) + 1;
      counts.set(req.socket, n);
      if (n >= 6) {
        // After the earlier answers on the connection have gone out (a pipelined sixth waits for them).
        setTimeout(() => req.socket.destroy(), 30);
        return;
      }
      send(res, handle(store, faithfulParts, toApiRequest(req)));
    });
  }),
  target('delete-answered-twice', true, 'node:net: after a successful delete an audit hook fails and the error handler writes a second answer (500 JSON) on the same connection, so the connection\'s next request is answered by that stale 500 or the client sees bytes nobody asked for (decision requests-independent: exactly one answer per request)', () =>
    serveNet9((answer, request) => {
      const bytes = plainBytes(answer, request);
      if (request.method !== 'DELETE' || answer.status !== 200) return bytes;
      return Buffer.concat([bytes, plainBytes(json(500, { error: 'audit log unavailable' }), request)]);
    }),
  ),
  target('chunked-without-final-crlf', true, 'node:net: chunked bodies end with `0\\r\\n` and no final CRLF (the empty trailer section is not terminated), so the next answer on the connection is read as trailer fields; an idle connection is ended after 300 ms (RFC 9112 §7.1: last-chunk, trailer section, CRLF)', () =>
    serveNet9((answer, request) => chunkedBytes(answer, request, { chunkSize: 64, terminator: '0\r\n' }), 300),
  ),

  // ---- conformant ----
  target('numbers-in-exponent-form', false, 'A serializer that writes numbers in the shortest exponent form: `sortOrder: 1e2`, `version: 1E0`, `weight: 5e2`, `defaultRootRoleId: 2e0`; JSON numbers with an exponent are numbers, and these are integers (RFC 8259 §6)', () =>
    serveApp({
      after: (answer, request) => {
        if (answer.status !== 200 || !isJson(answer) || !isRead(request)) return answer;
        return { ...answer, body: answer.body!.replace(/"(version|sortOrder|weight|defaultRootRoleId)":(\d+)(?=[,}])/g, (_, f: string, n: string) => `"${f}":${n === '0' ? '0e0' : `${Number(n) / 10 ** (n.length - 1)}E${n.length - 1}`}`) };
      },
    }),
  ),
  target('php-escaped-slashes-and-unicode', false, 'PHP json_encode defaults: every `/` written `\\/`, every non-ASCII character and `<`, `>`, `&`, `\'` written as \\u escapes (JSON_HEX_*); the parsed values are the same strings (RFC 8259 §7)', () =>
    serveApp({
      after: (answer) =>
        isJson(answer) ? { ...answer, body: answer.body!.replace(/\//g, '\\/').replace(/[<>&'\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) } : answer,
    }),
  ),
  target('media-type-mixed-case-quoted-charset', false, 'Content-Type written `Application/JSON; Charset="UTF-8"`: type, subtype and parameter names are case-insensitive and a parameter value may be quoted (RFC 9110 §8.3.1, §5.6.6)', () =>
    serveApp({ after: (answer) => (isJson(answer) ? { ...answer, headers: { ...answer.headers, 'content-type': 'Application/JSON; Charset="UTF-8"' } } : answer) }),
  ),
  target('vary-star-no-store', false, 'Every answer says `Cache-Control: no-store, private`, `Pragma: no-cache`, `Vary: *` and `Expires: 0` (a security header middleware): nothing may be cached, which the contract allows (RFC 9111 §5.2.2.5, RFC 9110 §12.5.5)', () =>
    serveApp({ after: (answer) => ({ ...answer, headers: { ...answer.headers, 'cache-control': 'no-store, private', pragma: 'no-cache', vary: '*', expires: '0' } }) }),
  ),
  target('repeated-list-header-lines', false, 'List-valued headers written as several field lines: `Cache-Control: no-cache` and `Cache-Control: private`, `Vary: Accept-Encoding` and `Vary: Authorization`, two `Set-Cookie` lines (RFC 9110 §5.3: a list may be split over lines)', () => {
    const store = new Store();
    return serve((req, res) => {
      const answer = handle(store, faithfulParts, toApiRequest(req));
      res.setHeader('cache-control', ['no-cache', 'private']);
      res.setHeader('vary', ['Accept-Encoding', 'Authorization']);
      res.setHeader('set-cookie', ['lb=a1; Path=/; HttpOnly', 'region=eu; Path=/; HttpOnly']);
      send(res, answer);
    });
  }),
  target('http-1.0-answers-and-close', false, 'node:net: a server that speaks HTTP/1.0 (an old proxy in front): every answer is `HTTP/1.0 …` with Content-Length and `Connection: close`, and the connection is closed after it (RFC 9110 §2.5: a server may answer in a lower minor version; RFC 9112 §9.3)', () =>
    serveNet9Conformant((answer, request) => ({ bytes: plainBytes(answer, request, { statusLine: statusLine(answer.status).replace('HTTP/1.1', 'HTTP/1.0'), close: true }), close: true })),
  ),
  target('chunked-with-trailers', false, 'node:net: every body chunked in 64-byte chunks, with a `Trailer: Server-Timing` announcement and a `Server-Timing: app;dur=1` trailer field after the last chunk (RFC 9112 §7.1.2: a recipient may ignore trailer fields)', () =>
    // RFC 9112 §6.1: never Transfer-Encoding to a request that does not indicate HTTP/1.1: an HTTP/1.0 one gets Content-Length (changed after round ten).
    serveNet9Conformant((answer, request) =>
      request.version === 'HTTP/1.0' ? plainBytes(answer, request) : chunkedBytes(answer, request, { chunkSize: 64, terminator: '0\r\nServer-Timing: app;dur=1\r\n\r\n', extra: ['Trailer: Server-Timing'] }),
    ),
  ),
  target('route-literals-case-insensitive', false, 'ASP.NET Core routing: the literal segments of a route match in any case, so `/API/Admin/Auth/OIDC/Settings` is the OIDC operation with the same auth (401, 403 first) and answer; ids stay exact (`DEFAULT` is no project). No decision forbids answering another spelling of the path, as with the trailing slash', () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const path = pathOf(request.url);
      // Literal segments folded to lower case; the id segments (where the spec's templates hold a parameter) kept as sent.
      const segments = path.split('/');
      const environments = segments.length === 6 && segments[3]?.toLowerCase() === 'environments';
      const token = segments.length === 7 && segments[3]?.toLowerCase() === 'service-account';
      const literal = (i: number) => !((environments && i === 5) || (token && (i === 4 || i === 6)));
      const folded = segments.map((s, i) => (literal(i) ? s.toLowerCase() : s)).join('/');
      send(res, handle(store, faithfulParts, { ...request, url: folded + request.url.slice(path.length) }));
    });
  }),
  target('options-401-before-cors', false, 'Auth runs before the CORS layer: every OPTIONS (plain or preflight) without a valid key gets the JSON 401, with a key the preflight gets 204 with the CORS headers and a plain one 204 with Allow (decision options-requests: a refusal such as 401 that reveals no more than without a key)', () =>
    serveFlow((store, request) => {
      const route = operationOf(request);
      if (!route || request.method !== 'OPTIONS') return handle(store, faithfulParts, request);
      const key = faithfulParts.presentedKey(request);
      if (key === undefined || !store.keys.has(key)) return errorAnswer(faithfulParts, 401, request);
      const allow = methodAnswer(route, 'OPTIONS')!.headers.allow!;
      const origin = header(request, 'origin');
      return { status: 204, headers: origin ? { allow, 'access-control-allow-origin': origin, 'access-control-allow-methods': allow, 'access-control-allow-headers': 'Authorization', vary: 'Origin' } : { allow }, body: undefined };
    }),
  ),
  target('json-405-method-not-allowed', false, 'A framework\'s JSON 405 for methods a path does not route: `{"id":…,"name":"MethodNotAllowed","message":…}` with Allow (decision unlisted-methods: 405 with Allow; the error names are fixed for 400, 401, 403 and 404 only)', () =>
    serveApp({ after: (answer) => (answer.status === 405 ? json(405, { id: randomUUID(), name: 'MethodNotAllowed', message: 'This method is not allowed on this path.' }, { allow: answer.headers.allow! }) : answer) }),
  ),
  target('oidc-refresh-450ms-every-2s', false, 'The OIDC settings are re-read from the identity provider\'s admin API when older than 2 s, which takes 450 ms: now and then an OIDC read is slow, far inside any reasonable time-out, with the same answer (decision no-declared-limits)', () => {
    let fresh = 0;
    return serveFlow(async (store, request) => {
      if (operationOf(request)?.operationId === 'getOidcSettings' && Date.now() - fresh > 2000) {
        await sleep(450);
        fresh = Date.now();
      }
      return handle(store, faithfulParts, request);
    });
  }),
  target('default-project-without-enabled-environments', false, 'This instance\'s `default` project has every environment switched off, so its list is empty (`{"version":1,"environments":[]}`); mobile-app is as in the fixtures (API §4.1: only enabled environments are listed; an empty array is an array)', () =>
    serveFlow((store, request) => {
      for (const e of store.projects.get('default')!) e.enabled = false;
      return handle(store, faithfulParts, request);
    }),
  ),
];
