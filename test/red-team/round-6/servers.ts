// Red team, round six: servers `flag-admin check` has never seen, written from /work/shared/API.md
// and the x-decisions of spec/openapi.yaml only (nothing under conformance/ was read, nor round
// five's servers.ts). Each is the faithful app of ../app.ts with one part replaced: a defect a real
// backend plausibly has (broken: true), or a behaviour the contract allows that a too-strict suite
// would flag (broken: false). witnesses.ts shows each one on the wire with plain requests.
//
// Delays stay under the suite's default --settle-ms (500 ms): every defect here is visible to a
// client that looks within that time.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import { posix } from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
import {
  type Answer,
  type ApiRequest,
  errorAnswer,
  faithfulParts,
  handle,
  json,
  lookup,
  methodAnswer,
  operate,
  type Parts,
  pathOf,
  type RunningTarget,
  routeOf,
  Store,
  send,
  serve,
  serveApp,
  sleep,
  toApiRequest,
} from '../app.ts';

export interface RedTeamTarget {
  name: string;
  broken: boolean;
  description: string;
  start(): Promise<RunningTarget>;
}

/** A target whose whole request flow is `flow` over a fresh store and the faithful parts. */
function serveFlow(flow: (store: Store, parts: Parts, request: ApiRequest, req: IncomingMessage, res: ServerResponse) => Answer | undefined | Promise<Answer | undefined>, parts: Partial<Parts> = {}): Promise<RunningTarget> {
  const store = new Store();
  const all = { ...faithfulParts, ...parts };
  return serve(async (req, res) => {
    const request = toApiRequest(req);
    const answer = await flow(store, all, request, req, res);
    if (answer) send(res, answer);
  });
}

const OIDC_PATH = '/api/admin/auth/oidc/settings';

/** Writes a compressed (binary) body: `send` takes text. */
function sendBytes(res: ServerResponse, answer: Answer, extra: Record<string, string>, bytes: Buffer): void {
  res.writeHead(answer.status, { ...answer.headers, ...extra, 'content-length': String(bytes.length) });
  res.end(bytes);
}

/** The key a request presents, if it is one the store holds (the faithful reading). */
function validKey(store: Store, parts: Parts, request: ApiRequest): string | undefined {
  const key = parts.presentedKey(request);
  return key !== undefined && store.keys.has(key) ? key : undefined;
}

/** The faithful flow with the path (no query) replaced by `path` for routing only. */
function handleAt(store: Store, parts: Parts, request: ApiRequest, path: string): Answer {
  const q = request.url.indexOf('?');
  return handle(store, parts, { ...request, url: q < 0 ? path : path + request.url.slice(q) });
}

/** Answers the operation without any auth (used by the auth-bypass defects). */
function withoutAuth(store: Store, parts: Parts, request: ApiRequest, path: string): Answer {
  const route = routeOf(path);
  if (route.kind === 'no-route') return errorAnswer(parts, 404, request);
  const byMethod = methodAnswer(route, request.method);
  if (byMethod) return byMethod;
  const found = lookup(store, parts, route.operationId, route.params);
  if (!found.found) return errorAnswer(parts, 404, request);
  return operate(store, parts, route.operationId, found);
}

const keyOf = (request: ApiRequest) => {
  const value = request.headers.authorization;
  return value === undefined ? undefined : value.replace(/^[ \t]+|[ \t]+$/g, '');
};

export const TARGETS: RedTeamTarget[] = [
  // ---- methods ------------------------------------------------------------------------------
  {
    name: 'head-on-token-path-deletes',
    broken: true,
    description: 'The router maps HEAD onto any handler of the path (as some do for GET); HEAD on the token path runs the delete, so HEAD /service-account/1/token/3 deletes token 3 (decision head-requests: HEAD on the token path gets 405 or 404).',
    start: () =>
      serveFlow((store, parts, request) => {
        const route = routeOf(pathOf(request.url));
        if (request.method === 'HEAD' && route.kind === 'operation' && route.method === 'DELETE') return handle(store, parts, { ...request, method: 'DELETE' });
        return handle(store, parts, request);
      }),
  },
  {
    name: 'unknown-method-skips-auth',
    broken: true,
    description: 'A catch-all read handler registered before the auth middleware (which is bound to GET, HEAD and DELETE only) answers any other method (PATCH, PROPFIND, FOO) on the read paths with the data, without a key: PATCH /auth/oidc/settings with no Authorization returns the OIDC secret (API §5: all operations require the key).',
    start: () =>
      serveFlow((store, parts, request) => {
        const route = routeOf(pathOf(request.url));
        if (route.kind === 'operation' && route.method === 'GET' && !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(request.method)) {
          const found = lookup(store, parts, route.operationId, route.params);
          return found.found ? operate(store, parts, route.operationId, found) : errorAnswer(parts, 404, request);
        }
        return handle(store, parts, request);
      }),
  },
  // ---- the key ------------------------------------------------------------------------------
  {
    name: 'any-auth-scheme-stripped',
    broken: true,
    description: 'The key is read as "the last word of Authorization", so any scheme is dropped: `Basic mock-admin-key` or `Token mock-admin-key` is accepted (decision key forms: another scheme such as Basic makes it invalid, 401).',
    start: () =>
      serveApp({
        parts: {
          presentedKey: (request) => {
            const value = keyOf(request);
            return value === undefined ? undefined : value.split(/[ \t]+/).pop();
          },
        },
      }),
  },
  {
    name: 'key-compared-on-stored-length',
    broken: true,
    description: 'timingSafeEqual over the stored key\'s length only: the presented key is cut to the stored key\'s length before comparing, so `mock-admin-key-anything` is the admin key (decision: a key with a character more is invalid, 401).',
    start: () =>
      serveFlow((store, parts, request) => {
        const presented = parts.presentedKey(request);
        const stored = presented === undefined ? undefined : [...store.keys.keys()].find((k) => presented.slice(0, k.length) === k);
        return handle(store, { ...parts, presentedKey: () => stored ?? presented }, request);
      }),
  },
  {
    name: 'key-compared-case-insensitively',
    broken: true,
    description: 'Keys are looked up in a case-insensitive column (MySQL utf8mb4_general_ci): `MOCK-ADMIN-KEY` is the admin key (decision: a key in another case is invalid, 401).',
    start: () =>
      serveFlow((store, parts, request) => {
        const presented = parts.presentedKey(request);
        const stored = presented === undefined ? undefined : [...store.keys.keys()].find((k) => k.toLowerCase() === presented.toLowerCase());
        return handle(store, { ...parts, presentedKey: () => stored ?? presented }, request);
      }),
  },
  {
    name: 'bearer-stripped-repeatedly',
    broken: true,
    description: 'A `while (/^bearer /i)` loop strips the scheme as often as it appears: `Bearer Bearer mock-admin-key` is accepted (decision key forms: a scheme twice makes the key invalid, 401).',
    start: () =>
      serveApp({
        parts: {
          presentedKey: (request) => {
            let value = keyOf(request);
            while (value !== undefined && /^bearer[ \t]+/i.test(value)) value = value.replace(/^bearer[ \t]+/i, '');
            return value;
          },
        },
      }),
  },
  {
    name: 'authorization-percent-decoded',
    broken: true,
    description: 'The Authorization value is passed through decodeURIComponent (code shared with cookie parsing): `mock%2Dadmin%2Dkey` is the admin key (decision: a key is compared exactly).',
    start: () =>
      serveApp({
        parts: {
          presentedKey: (request) => {
            const value = faithfulParts.presentedKey(request);
            try {
              return value === undefined ? undefined : decodeURIComponent(value);
            } catch {
              return value;
            }
          },
        },
      }),
  },
  {
    name: 'forwarded-localhost-skips-auth',
    broken: true,
    description: 'Requests "from the host itself" skip auth, and the address is read from X-Forwarded-For / X-Real-IP when present: `X-Forwarded-For: 127.0.0.1` with no key gets the OIDC secret (decision: no address a request claims is a credential).',
    start: () =>
      serveFlow((store, parts, request) => {
        const claimed = String(request.headers['x-forwarded-for'] ?? request.headers['x-real-ip'] ?? '').split(',')[0]!.trim();
        if (claimed === '127.0.0.1' || claimed === '::1') return withoutAuth(store, parts, request, pathOf(request.url));
        return handle(store, parts, request);
      }),
  },
  {
    name: 'ajax-401-becomes-200',
    broken: true,
    description: 'A single-page-app convention: a request with `X-Requested-With: XMLHttpRequest` and no valid key is answered 200 {"loginUrl": ...} instead of 401, so the browser code can redirect (API §5: missing credentials get 401 AuthenticationRequired; decision: X-Requested-With changes no answer).',
    start: () =>
      serveFlow((store, parts, request) => {
        const answer = handle(store, parts, request);
        if (answer.status === 401 && String(request.headers['x-requested-with']).toLowerCase() === 'xmlhttprequest') return json(200, { loginUrl: '/login', authenticated: false });
        return answer;
      }),
  },
  // ---- permissions and ordering --------------------------------------------------------------
  {
    name: 'restricted-key-gets-redacted-settings',
    broken: true,
    description: 'A key without the OIDC permission gets 200 with the settings minus the secret ("a reduced view") instead of 403 NoAccessError (API §4.2, §5).',
    start: () =>
      serveFlow((store, parts, request) => {
        const route = routeOf(pathOf(request.url));
        const key = validKey(store, parts, request);
        if (route.kind === 'operation' && route.operationId === 'getOidcSettings' && ['GET', 'HEAD'].includes(request.method) && key && !store.permits(key, 'getOidcSettings')) {
          const { secret: _secret, ...rest } = store.oidc;
          return json(200, rest);
        }
        return handle(store, parts, request);
      }),
  },
  {
    name: 'secret-in-403-body',
    broken: true,
    description: 'The settings are loaded before the permission check and the error middleware attaches the request context to the 403: the restricted key\'s 403 carries `context.settings` with the OIDC secret (API §5: a key without the permission gets NoAccessError, not the data).',
    start: () =>
      serveFlow((store, parts, request) => {
        const answer = handle(store, parts, request);
        const route = routeOf(pathOf(request.url));
        if (answer.status === 403 && route.kind === 'operation' && route.operationId === 'getOidcSettings') {
          return json(403, { ...JSON.parse(answer.body!), context: { operation: 'getOidcSettings', settings: store.oidc } });
        }
        return answer;
      }),
  },
  {
    name: 'permission-checked-after-delete',
    broken: true,
    description: 'The delete runs first and the permission is checked by an after-hook that turns the answer into 403: the restricted key gets 403 but the token is gone (API §5: a key without the permission is refused; the operation must not happen).',
    start: () =>
      serveFlow((store, parts, request) => {
        const route = routeOf(pathOf(request.url));
        const key = validKey(store, parts, request);
        if (route.kind === 'operation' && route.operationId === 'deleteServiceAccountToken' && request.method === 'DELETE' && key && !store.permits(key, route.operationId)) {
          const found = lookup(store, parts, route.operationId, route.params);
          if (found.found) operate(store, parts, route.operationId, found);
          return errorAnswer(parts, 403, request);
        }
        return handle(store, parts, request);
      }),
  },
  // ---- resources and ids ---------------------------------------------------------------------
  {
    name: 'token-looked-up-by-id-only',
    broken: true,
    description: '`DELETE FROM tokens WHERE id = $2` after checking the account exists: the account in the path only has to exist, so DELETE /service-account/2/token/1 deletes token 1 of accounts 1 and 12 (API §4.3: the token is identified by both ids).',
    start: () =>
      serveFlow((store, parts, request) => {
        const route = routeOf(pathOf(request.url));
        if (route.kind === 'operation' && route.operationId === 'deleteServiceAccountToken' && request.method === 'DELETE') {
          const key = validKey(store, parts, request);
          if (!key) return errorAnswer(parts, 401, request);
          if (!store.permits(key, route.operationId)) return errorAnswer(parts, 403, request);
          const [account, token] = route.params as [string, string];
          if (!store.tokens.has(account)) return errorAnswer(parts, 404, request);
          // Every row with that token id goes, whichever account holds it.
          let deleted = false;
          for (const tokens of store.tokens.values()) deleted = tokens.delete(token) || deleted;
          return deleted ? { status: 200, headers: {} } : errorAnswer(parts, 404, request);
        }
        return handle(store, parts, request);
      }),
  },
  {
    name: 'project-id-nfkc-normalized',
    broken: true,
    description: 'Ids are NFKC-normalized on input ("Unicode hygiene"): the fullwidth `ｄｅｆａｕｌｔ` names project `default` (decision project-id-compared-exactly: it names no project, 404).',
    start: () => serveApp({ parts: { sameId: (presented, stored) => presented.normalize('NFKC') === stored } }),
  },
  {
    name: 'format-suffix-stripped-from-id',
    broken: true,
    description: 'A Rails/Express-style `:id.:format` route: `/environments/project/default.json` is project `default` with format json (decision: ids compared exactly; `default.json` names no project, 404).',
    start: () => serveApp({ parts: { sameId: (presented, stored) => presented.replace(/\.(json|xml)$/, '') === stored } }),
  },
  {
    name: 'non-ascii-id-500',
    broken: true,
    description: 'The project lookup runs on a latin1 column and the driver throws on characters outside it: `/environments/project/%E6%97%A5` (日) gets 500 (decision: malformed input may get 400, 414 or 431; a 500 never).',
    start: () =>
      serveFlow((store, parts, request) => {
        const route = routeOf(pathOf(request.url));
        if (route.kind === 'operation' && validKey(store, parts, request) && route.params.some((p) => /[^\u0000-\u00ff]/.test(p))) throw new Error('ER_CANT_AGGREGATE_2COLLATIONS');
        return handle(store, parts, request);
      }),
  },
  {
    name: 'cache-ignores-project-param',
    broken: true,
    description: 'A response cache keyed by (key, operation) but not by the path parameters, 250 ms TTL: right after reading `default`, any project id (even one that does not exist) gets default\'s environments (API §4.1: a missing project gets 404; each project its own list).',
    start: () => {
      const cache = new Map<string, { at: number; answer: Answer }>();
      return serveFlow((store, parts, request) => {
        const route = routeOf(pathOf(request.url));
        const key = validKey(store, parts, request);
        if (route.kind === 'operation' && route.method === 'GET' && request.method === 'GET' && key) {
          const id = `${key} ${route.operationId}`;
          const hit = cache.get(id);
          if (hit && Date.now() - hit.at < 250) return hit.answer;
          const answer = handle(store, parts, request);
          if (answer.status === 200) cache.set(id, { at: Date.now(), answer });
          return answer;
        }
        return handle(store, parts, request);
      });
    },
  },
  {
    name: 'version-per-project',
    broken: true,
    description: '`version` is read from each project\'s configuration row: `default` answers 1, `mobile-app` 2 (decision environments-version-constant: one integer for every project).',
    start: () =>
      serveApp({
        after: (answer, request) => {
          if (answer.status !== 200 || !pathOf(request.url).endsWith('/mobile-app') || answer.body === undefined) return answer;
          return json(200, { ...JSON.parse(answer.body), version: 2 });
        },
      }),
  },
  {
    name: 'join-duplicates-environment',
    broken: true,
    description: 'The environments query LEFT JOINs the default strategy\'s segments, one row per segment: `production` (segments [1, 3]) is listed twice in default\'s answer (decision: names are unique in a project\'s list).',
    start: () =>
      serveApp({
        after: (answer, request) => {
          if (answer.status !== 200 || !pathOf(request.url).includes('/environments/project/') || answer.body === undefined) return answer;
          const body = JSON.parse(answer.body) as { version: number; environments: { defaultStrategy?: { segments?: number[] } }[] };
          const rows = body.environments.flatMap((e) => Array.from({ length: Math.max(1, e.defaultStrategy?.segments?.length ?? 0) }, () => e));
          return json(200, { ...body, environments: rows });
        },
      }),
  },
  // ---- paths ---------------------------------------------------------------------------------
  {
    name: 'double-slash-bypasses-auth',
    broken: true,
    description: 'The auth middleware guards paths starting with `/api/admin/`; the router collapses repeated slashes afterwards: `//api/admin/auth/oidc/settings` with no key returns the secret (API §5).',
    start: () =>
      serveFlow((store, parts, request) => {
        const path = pathOf(request.url);
        const collapsed = path.replace(/\/{2,}/g, '/');
        if (!path.startsWith('/api/admin/')) return withoutAuth(store, parts, request, collapsed);
        return handleAt(store, parts, request, collapsed);
      }),
  },
  {
    name: 'path-case-bypasses-auth',
    broken: true,
    description: 'The router matches literal segments case-insensitively (Express\'s default), the auth guard compares the prefix `/api/admin/` case-sensitively: `/API/ADMIN/auth/oidc/settings` with no key returns the secret (API §5).',
    start: () =>
      serveFlow((store, parts, request) => {
        const path = pathOf(request.url);
        const segments = path.split('/');
        // Literal positions of the three templates (API §4); parameters keep their case.
        const literal = { environments: [1, 2, 3, 4], auth: [1, 2, 3, 4, 5], 'service-account': [1, 2, 3, 5] }[segments[3]?.toLowerCase() ?? ''] ?? [1, 2];
        const lowered = segments.map((s, i) => (literal.includes(i) ? s.toLowerCase() : s)).join('/');
        if (!path.startsWith('/api/admin/')) return withoutAuth(store, parts, request, lowered);
        return handleAt(store, parts, request, lowered);
      }),
  },
  {
    name: 'dot-segment-bypasses-auth',
    broken: true,
    description: 'The guard checks the raw path\'s prefix, the router resolves dot segments (path.posix.normalize): `/public/../api/admin/auth/oidc/settings` sent as is, with no key, returns the secret (API §5).',
    start: () =>
      serveFlow((store, parts, request) => {
        const path = pathOf(request.url);
        const normalized = posix.normalize(path);
        if (!path.startsWith('/api/admin/')) return withoutAuth(store, parts, request, normalized);
        return handleAt(store, parts, request, normalized);
      }),
  },
  // ---- error bodies and leaks -----------------------------------------------------------------
  {
    name: 'error-name-translated',
    broken: true,
    description: 'Errors go through the i18n catalogue, `name` included: with `Accept-Language: de` a 401 is named `AuthentifizierungErforderlich` (decision: `name` is fixed per status; Accept-Language changes no answer).',
    start: () =>
      serveApp({
        after: (answer, request) => {
          if (answer.status !== 401 || !/^de\b/i.test(String(request.headers['accept-language'] ?? ''))) return answer;
          return json(401, { ...JSON.parse(answer.body!), name: 'AuthentifizierungErforderlich', message: 'Sie müssen einen gültigen API-Schlüssel angeben.' }, { 'content-language': 'de' });
        },
      }),
  },
  {
    name: 'not-found-echoes-authorization',
    broken: true,
    description: 'The 404 message dumps the request for debugging, Authorization included: a 404 carries the caller\'s API key in its body (secrets never in any output; API §2.3 message is a description of what went wrong).',
    start: () =>
      serveApp({
        parts: {
          message: (status, request, detail) =>
            status === 404 ? `Not found: ${detail ?? request.url} (request ${request.method} ${request.url}, authorization=${String(request.headers.authorization)})` : faithfulParts.message(status, request, detail),
        },
      }),
  },
  {
    name: 'error-body-latin1-bytes',
    broken: true,
    description: 'The 404 echoes the id, and the body is written with res.end(text, "latin1") under `charset=utf-8`: an id with `é` yields a body that is not valid UTF-8 (RFC 8259 §8.1: JSON is UTF-8; the label says utf-8).',
    start: () =>
      serveFlow((store, parts, request, _req, res) => {
        const answer = handle(store, { ...parts, message: (status, r, detail) => (status === 404 && detail ? `No such resource: ${detail}` : parts.message(status, r, detail)) }, request);
        if (answer.status === 404 && answer.body !== undefined && /[^\u0000-\u007f]/.test(answer.body)) {
          const bytes = Buffer.from(answer.body, 'latin1');
          res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) });
          res.end(bytes);
          return undefined;
        }
        return answer;
      }),
  },
  {
    name: 'long-user-agent-500',
    broken: true,
    description: 'The access log writes User-Agent into a VARCHAR(255) column inside the request transaction: a 300-character User-Agent (ordinary for some browsers and SDKs) gets 500 (decision: User-Agent changes no answer; 431 only for oversized header fields, and a 500 never).',
    start: () =>
      serveFlow((store, parts, request) => {
        if (String(request.headers['user-agent'] ?? '').length > 255) throw new Error('value too long for type character varying(255)');
        return handle(store, parts, request);
      }),
  },
  // ---- conditional requests, caching, encodings ----------------------------------------------
  {
    name: 'if-modified-since-any-date-304',
    broken: true,
    description: 'Reads carry Last-Modified (the start time) and any parseable If-Modified-Since gets 304, even a date before Last-Modified (decision conditional-requests: 304 only when Last-Modified is no later than the date; RFC 9110 §13.1.3).',
    start: () => {
      const started = new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString();
      return serveFlow((store, parts, request) => {
        const answer = handle(store, parts, request);
        if (answer.status !== 200 || request.method === 'DELETE') return answer;
        const since = request.headers['if-modified-since'];
        if (since !== undefined && !Number.isNaN(Date.parse(since))) return { status: 304, headers: { 'last-modified': started } };
        return { ...answer, headers: { ...answer.headers, 'last-modified': started } };
      });
    },
  },
  {
    name: 'not-modified-with-body',
    broken: true,
    description: 'Reads carry an ETag and a matching If-None-Match gets 304, but the 304 is written with the body and its Content-Length (RFC 9110 §15.4.5: a 304 has no content): the body bytes are read as the start of the next answer on the connection.',
    start: () =>
      serveFlow((store, parts, request, _req, res) => {
        const answer = handle(store, parts, request);
        if (answer.status !== 200 || request.method === 'DELETE' || answer.body === undefined) return answer;
        const etag = `"${createHash('sha1').update(answer.body).digest('hex').slice(0, 16)}"`;
        if (request.headers['if-none-match'] === etag) {
          const bytes = Buffer.from(answer.body);
          res.writeHead(304, { etag, 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) });
          // Node drops a 304's body; this server's own writer does not (the defect).
          (res as unknown as { _hasBody: boolean })._hasBody = true;
          res.end(bytes);
          return undefined;
        }
        return { ...answer, headers: { ...answer.headers, etag } };
      }),
  },
  {
    name: 'gzip-despite-q-zero',
    broken: true,
    description: 'Compression is chosen by `acceptEncoding.includes("gzip")`: `Accept-Encoding: gzip;q=0, identity` (gzip refused) still gets a gzip body (RFC 9110 §12.5.3: q=0 means not acceptable).',
    start: () =>
      serveFlow((store, parts, request, _req, res) => {
        const answer = handle(store, parts, request);
        if (answer.body === undefined || !String(request.headers['accept-encoding'] ?? '').includes('gzip')) return answer;
        sendBytes(res, answer, { 'content-encoding': 'gzip', vary: 'Accept-Encoding' }, gzipSync(answer.body));
        return undefined;
      }),
  },
  // ---- HEAD -----------------------------------------------------------------------------------
  {
    name: 'head-content-length-zero',
    broken: true,
    description: 'HEAD is answered like GET but with `Content-Length: 0` (the HEAD route sends no body and the framework counts it): RFC 9110 §8.6 forbids a Content-Length on HEAD other than what GET would send; decision head-requests: the same headers as GET.',
    start: () =>
      serveFlow((store, parts, request, _req, res) => {
        const answer = handle(store, parts, request);
        if (request.method !== 'HEAD' || answer.body === undefined) return answer;
        res.writeHead(answer.status, { ...answer.headers, 'content-length': '0' });
        res.end();
        return undefined;
      }),
  },
  {
    name: 'head-ignores-lookup',
    broken: true,
    description: 'A generic HEAD handler checks the key and the permission and answers 200 without looking the resource up: HEAD of a project that does not exist gets 200 where GET gets 404 (decision head-requests: HEAD gets what GET gets).',
    start: () =>
      serveFlow((store, parts, request) => {
        const route = routeOf(pathOf(request.url));
        if (request.method === 'HEAD' && route.kind === 'operation' && route.method === 'GET') {
          const key = validKey(store, parts, request);
          if (!key) return errorAnswer(parts, 401, request);
          if (!store.permits(key, route.operationId)) return errorAnswer(parts, 403, request);
          if (!lookup(store, parts, route.operationId, route.params).found) return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } };
        }
        return handle(store, parts, request);
      }),
  },
  // ---- framing and connections ------------------------------------------------------------------
  {
    name: 'content-length-and-chunked',
    broken: true,
    description: 'A framework sets Content-Length, a compression-less "streaming" layer then adds Transfer-Encoding: chunked: reads are sent with both (RFC 9112 §6.1: a server MUST NOT send Content-Length with Transfer-Encoding; strict clients reject the answer).',
    start: () =>
      serveFlow((store, parts, request, _req, res) => {
        const answer = handle(store, parts, request);
        if (answer.status !== 200 || answer.body === undefined) return answer;
        res.writeHead(200, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)), 'transfer-encoding': 'chunked' });
        res.end(answer.body);
        return undefined;
      }),
  },
  {
    name: 'pipelined-answers-in-completion-order',
    broken: true,
    description: 'A hand-written HTTP/1.1 server runs pipelined requests concurrently and writes each answer when it is ready: the OIDC read takes 40 ms, so a pipelined OIDC read then environments read get their answers swapped (RFC 9112 §9.3.2: answers in the order of the requests; decision: an answer depends only on its own request).',
    start: () => servePipelineUnordered(),
  },
  // ---- state over time -------------------------------------------------------------------------
  {
    name: 'delete-applied-asynchronously',
    broken: true,
    description: 'The delete answers 200 and enqueues the removal, applied 150 ms later: the same delete again within that time answers 200 a second time (decision: a deletion is final; the same delete again gets 404). 150 ms is within the default --settle-ms.',
    start: () => {
      const timers = new Set<NodeJS.Timeout>();
      const store = new Store();
      return serve(
        (req, res) => {
          const request = toApiRequest(req);
          const route = routeOf(pathOf(request.url));
          const key = faithfulParts.presentedKey(request);
          if (route.kind === 'operation' && route.operationId === 'deleteServiceAccountToken' && request.method === 'DELETE' && key && store.permits(key, route.operationId)) {
            const found = lookup(store, faithfulParts, route.operationId, route.params);
            if (found.found) {
              const timer = setTimeout(() => {
                timers.delete(timer);
                store.tokens.get(found.account!)!.delete(found.token!);
              }, 150);
              timers.add(timer);
              return send(res, { status: 200, headers: {} });
            }
          }
          send(res, handle(store, faithfulParts, request));
        },
        undefined,
        () => timers.forEach((t) => clearTimeout(t)),
      );
    },
  },

  // ==== conformant but unusual ===================================================================
  {
    name: 'secret-masked-and-fields-omitted',
    broken: false,
    description: 'The OIDC answer masks the secret as `********` and omits unset fields (acrValues, groupJsonPath, defaultRootRoleId): no field is required and the secret is any string (API §2.2).',
    start: () =>
      serveApp({
        after: (answer, request) => {
          if (answer.status !== 200 || pathOf(request.url) !== OIDC_PATH || answer.body === undefined) return answer;
          const { acrValues: _a, groupJsonPath: _g, defaultRootRoleId: _d, ...rest } = JSON.parse(answer.body) as Record<string, unknown>;
          return json(200, { ...rest, secret: '********' });
        },
      }),
  },
  {
    name: 'unknown-methods-501',
    broken: false,
    description: 'Methods the server does not implement at all (PATCH, PUT, POST, PROPFIND, TRACE, anything) get 501 Not Implemented in plain text before auth (RFC 9110 §15.6.2); HEAD is answered like GET but without Content-Length (RFC 9110 §8.6: MAY).',
    start: () =>
      serveFlow((store, parts, request, _req, res) => {
        if (!['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(request.method)) return { status: 501, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Implemented' };
        const answer = handle(store, parts, request);
        if (request.method !== 'HEAD') return answer;
        res.writeHead(answer.status, answer.headers);
        res.end();
        return undefined;
      }),
  },
  {
    name: 'deflate-vary-and-security-headers',
    broken: false,
    description: 'Bodies are deflate-compressed when asked (Accept-Encoding: deflate), with Vary: Accept-Encoding, Authorization, Cache-Control: private, no-store, X-Content-Type-Options, Strict-Transport-Security, Content-Security-Policy, X-Request-Id and a RateLimit header on every answer (RFC 9110 §8.4: compression when asked).',
    start: () =>
      serveFlow((store, parts, request, _req, res) => {
          const answer = handle(store, parts, request);
          const headers = {
            ...answer.headers,
            vary: 'Accept-Encoding, Authorization',
            'cache-control': 'private, no-store',
            'x-content-type-options': 'nosniff',
            'strict-transport-security': 'max-age=63072000; includeSubDomains',
            'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
            'x-request-id': createHash('sha1').update(String(Math.random())).digest('hex').slice(0, 12),
            'ratelimit-policy': '1000;w=60',
          };
          if (answer.body !== undefined && /\bdeflate\b(?!;q=0(\.0*)?\b)/.test(String(request.headers['accept-encoding'] ?? ''))) {
            sendBytes(res, answer, { ...headers, 'content-encoding': 'deflate' }, deflateSync(answer.body));
            return undefined;
          }
          return { ...answer, headers };
      }),
  },
  {
    name: 'connection-close-after-errors',
    broken: false,
    description: 'Kept-alive connections for 2xx; every 4xx is sent with `Connection: close` and the connection closed after it (as some proxies do to shed unauthenticated clients; decision: a server may close after any answer).',
    start: () =>
      serveFlow((store, parts, request) => {
        const answer = handle(store, parts, request);
        return answer.status >= 400 ? { ...answer, headers: { ...answer.headers, connection: 'close' } } : answer;
      }),
  },
  {
    name: 'ids-echoed-with-ascii-escapes',
    broken: false,
    description: '404 messages quote the ids in full, however long (thousands of characters) or Unicode, and the JSON is written ASCII-only with \\uXXXX escapes (RFC 8259 §7: any character may be escaped).',
    start: () =>
      serveFlow((store, parts, request, _req) => {
        const answer = handle(store, { ...parts, message: (status, r, detail) => (status === 404 && detail ? `Nothing is stored under "${detail}".` : parts.message(status, r, detail)) }, request);
        if (answer.body === undefined) return answer;
        return { ...answer, body: answer.body.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) };
      }),
  },
  {
    name: 'problem-details-error-fields',
    broken: false,
    description: 'Error bodies carry RFC 9457 problem fields besides id, name and message (type, title, status, detail, instance), ids are ULID-like, messages span two lines and hold an emoji; still application/json (API §2.3 plus decision: extra fields allowed).',
    start: () => {
      let n = 0;
      return serveApp({
        parts: {
          errorId: () => `01JD${(Date.now() * 1000 + n++).toString(36).toUpperCase().padStart(22, '0')}`,
          message: (status) => `${{ 400: 'Bad request', 401: 'No valid API key 🔑', 403: 'Not allowed ⛔', 404: 'Not found 🔍' }[status] ?? 'Error'}\nSee the documentation.`,
        },
        after: (answer, request) => {
          if (answer.status < 400 || answer.body === undefined || !answer.headers['content-type']?.startsWith('application/json')) return answer;
          const body = JSON.parse(answer.body) as { id: string; name: string; message: string };
          return json(answer.status, { type: `https://errors.example.com/${body.name}`, title: body.name, status: answer.status, detail: body.message, instance: pathOf(request.url), ...body });
        },
      });
    },
  },
  {
    name: 'sparse-entries-version-2',
    broken: false,
    description: 'Environment entries carry only what is set (the disabled-by-default fields left out, `type` omitted), extra fields (`requiredApprovals: null`, `visible`), reverse order, and `version` 2 on every project (decisions: only `name` required; version any constant integer).',
    start: () =>
      serveApp({
        parts: { version: () => 2 },
        after: (answer, request) => {
          if (answer.status !== 200 || !pathOf(request.url).includes('/environments/project/') || answer.body === undefined) return answer;
          const body = JSON.parse(answer.body) as { version: number; environments: Record<string, unknown>[] };
          return json(200, {
            version: body.version,
            environments: body.environments.reverse().map(({ type: _t, projectApiTokenCount: _p, ...e }) => ({ ...e, requiredApprovals: null, visible: true })),
          });
        },
      }),
  },
  {
    name: 'options-200-with-text-body',
    broken: false,
    description: 'OPTIONS on any path, plain or preflight, with or without a key, gets 200 with Allow, the CORS headers for the request\'s Origin and a short text body naming the methods (decision: 200 or 204, no body of the operation).',
    start: () =>
      serveFlow((store, parts, request) => {
        if (request.method !== 'OPTIONS') return handle(store, parts, request);
        const route = routeOf(pathOf(request.url));
        const allow = route.kind === 'operation' ? (route.method === 'GET' ? 'GET, HEAD, OPTIONS' : 'DELETE, OPTIONS') : 'OPTIONS';
        return {
          status: 200,
          headers: {
            allow,
            'access-control-allow-origin': String(request.headers.origin ?? '*'),
            'access-control-allow-methods': allow,
            'access-control-allow-headers': 'Authorization, Content-Type',
            'access-control-max-age': '600',
            vary: 'Origin',
            'content-type': 'text/plain; charset=utf-8',
          },
          body: `Allowed: ${allow}`,
        };
      }),
  },
  {
    name: 'trailing-slash-301-absolute',
    broken: false,
    description: 'A path with one trailing slash gets 301 with an absolute Location (http://127.0.0.1:PORT/... without the slash, query kept), for every method and before auth (decision trailing-slash: a redirect 301 or 308 is conformant).',
    start: () =>
      serveFlow((store, parts, request) => {
        const path = pathOf(request.url);
        if (path.length > 1 && path.endsWith('/') && !path.endsWith('//') && routeOf(path.slice(0, -1)).kind === 'operation') {
          const location = `http://${request.headers.host}${path.slice(0, -1)}${request.url.slice(path.length)}`;
          return { status: 301, headers: { location, 'content-type': 'text/plain; charset=utf-8' }, body: `Moved Permanently. Redirecting to ${location}` };
        }
        return handle(store, parts, request);
      }),
  },
  {
    name: 'last-modified-and-304',
    broken: false,
    description: 'Reads carry Last-Modified (the start time, whole seconds) and answer 304 with no body to If-Modified-Since at or after it, after auth; an older date gets 200 (RFC 9110 §13.1.3; decision conditional-requests).',
    start: () => {
      const startedMs = Math.floor(Date.now() / 1000) * 1000;
      const started = new Date(startedMs).toUTCString();
      return serveFlow((store, parts, request) => {
        const answer = handle(store, parts, request);
        if (answer.status !== 200 || request.method === 'DELETE') return answer;
        // RFC 9110 §13.1.3, which the description cites: an If-Modified-Since that is no HTTP-date is
        // ignored. Until 28 Nov this read any Date.parse form (an ISO 8601 time got 304), a defect
        // round twelve's broken `if-modified-since-parsed-leniently` has; see BASELINE.md.
        const value = String(request.headers['if-modified-since'] ?? '');
        const since = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value) ? Date.parse(value) : Number.NaN;
        // RFC 9110 §15.4.5: the 304 carries the Cache-Control its 200 carries. Until 28 Nov it carried Last-Modified alone, a
        // defect round thirteen's broken `not-modified-without-etag` has; see BASELINE.md.
        if (!Number.isNaN(since) && since >= startedMs && request.headers['if-none-match'] === undefined) return { status: 304, headers: { 'last-modified': started, 'cache-control': 'private, no-cache' } };
        return { ...answer, headers: { ...answer.headers, 'last-modified': started, 'cache-control': 'private, no-cache' } };
      });
    },
  },
  {
    name: 'answers-80ms-late',
    broken: false,
    description: 'Every answer, error or not, comes 80 ms after its request (a remote database), so overlapping requests are in flight together (decision: no time limit is declared).',
    start: () =>
      serveFlow(async (store, parts, request) => {
        await sleep(80);
        return handle(store, parts, request);
      }),
  },
  {
    name: 'connection-close-after-ten-requests',
    broken: false,
    description: 'Like nginx\'s keepalive_requests: the tenth answer on a connection carries `Connection: close` and the connection is closed after it (decision: a server may close after any answer).',
    start: () => {
      const counts = new WeakMap<Socket, number>();
      return serveFlow((store, parts, request) => {
        const n = (counts.get(request.socket) ?? 0) + 1;
        counts.set(request.socket, n);
        const answer = handle(store, parts, request);
        return n % 10 === 0 ? { ...answer, headers: { ...answer.headers, connection: 'close' } } : answer;
      });
    },
  },
  {
    name: 'dot-segments-and-slashes-normalized',
    broken: false,
    description: 'The path is normalized before routing and before auth: dot segments resolved and repeated slashes collapsed (RFC 3986 §6.2.2.3), so `/api/admin/x/../auth/oidc/settings` and `//api//admin/...` are the operation, with its auth.',
    start: () =>
      serveFlow((store, parts, request) => {
        const path = pathOf(request.url);
        const normalized = posix.normalize(path.replace(/\/{2,}/g, '/'));
        return handleAt(store, parts, request, normalized === '.' ? '/' : normalized);
      }),
  },
  {
    name: 'error-ids-sequential-counter',
    broken: false,
    description: 'Error ids are a per-process counter as decimal strings ("1", "2", ...): unique per instance, just not UUIDs (decision error-ids-unique: format not fixed).',
    start: () => {
      let n = 0;
      return serveApp({ parts: { errorId: () => String(++n) } });
    },
  },
];

/**
 * A minimal HTTP/1.1 server on node:net that answers pipelined requests as each completes
 * (the pipelined-answers-in-completion-order defect). Requests are parsed up to the blank line; a
 * Content-Length body is skipped. The OIDC read is delayed 40 ms, every other answer is immediate.
 */
async function servePipelineUnordered(): Promise<RunningTarget> {
  const store = new Store();
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = Buffer.alloc(0);
    let closing = false;
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const [method = 'GET', url = '/'] = head[0]!.split(' ');
        const headers: Record<string, string> = {};
        const rawHeaders: string[] = [];
        for (const line of head.slice(1)) {
          const colon = line.indexOf(':');
          if (colon < 0) continue;
          const name = line.slice(0, colon).trim();
          // RFC 9110 §5.5: only spaces and tabs around a field value are not part of it (String.trim would also drop U+00A0).
          const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
          rawHeaders.push(name, value);
          const lower = name.toLowerCase();
          if (!(lower in headers)) headers[lower] = value;
        }
        const length = Number(headers['content-length'] ?? 0) || 0;
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.subarray(end + 4 + length);
        const close = (headers.connection ?? '').toLowerCase() === 'close';
        const request: ApiRequest = { method, url, headers, rawHeaders, socket };
        const answer = handle(store, faithfulParts, request);
        const delay = pathOf(url) === OIDC_PATH ? 40 : 0;
        setTimeout(() => {
          if (socket.destroyed || closing) return;
          const body = answer.body === undefined || method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(answer.body);
          const length = answer.body === undefined ? 0 : Buffer.byteLength(answer.body);
          const lines = [`HTTP/1.1 ${answer.status} ${STATUS_TEXT[answer.status] ?? 'Status'}`, `Date: ${new Date().toUTCString()}`, ...Object.entries(answer.headers).map(([k, v]) => `${k}: ${v}`), `Content-Length: ${length}`, `Connection: ${close ? 'close' : 'keep-alive'}`];
          socket.write(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
          if (close) {
            closing = true;
            socket.end();
          }
        }, delay);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 204: 'No Content', 301: 'Moved Permanently', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 500: 'Internal Server Error' };

