// Round eight of the red team: servers written from /work/shared/API.md, spec/openapi.yaml and its
// x-decisions (docs/decisions.md) without reading the suite (conformance/) or earlier rounds'
// servers and witnesses (only their names). Each is the faithful app (../app.ts) with one plausible
// real-backend defect (broken: true) or one unusual behaviour the contract allows (broken: false);
// the framing targets run the same flow behind a small node:net HTTP/1.1 writer. witnesses.ts
// proves each on the wire.
import { createHash, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { posix } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
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
  type Route,
  routeOf,
  type RunningTarget,
  serve,
  serveApp,
  send,
  sleep,
  Store,
  toApiRequest,
  type RedTeamTarget,
  target,
  header,
} from '../app.ts';
import { chunkedBytes, closeRequested, type NetOptions, type NetWrite, plainBytes, serveNet } from '../net-server.ts';

export type { RedTeamTarget };

type Operation = Extract<Route, { kind: 'operation' }>;
const operationOf = (request: ApiRequest): Operation | undefined => {
  const route = routeOf(pathOf(request.url));
  return route.kind === 'operation' ? route : undefined;
};
const isJson = (answer: Answer) => answer.body !== undefined && (answer.headers['content-type'] ?? '').startsWith('application/json');

/** The faithful flow after routing, for targets that route (or authorize) differently: method, 401, 403, 404, operation. */
function flowOn(store: Store, parts: Parts, request: ApiRequest, route: Operation): Answer {
  const byMethod = methodAnswer(route, request.method);
  if (byMethod) return byMethod;
  const key = parts.presentedKey(request);
  if (key === undefined || !store.keys.has(key)) return errorAnswer(parts, 401, request);
  if (!store.permits(key, route.operationId)) return errorAnswer(parts, 403, request);
  const found = lookup(store, parts, route.operationId, route.params);
  if (!found.found) return errorAnswer(parts, 404, request, route.params.join('/'));
  return operate(store, parts, route.operationId, found);
}

/** The app on a fresh store whose flow is `flow` (which may await); `onClose` stops its timers. */
function serveFlow(flow: (store: Store, request: ApiRequest) => Answer | Promise<Answer>, onClose?: () => void): Promise<RunningTarget> {
  const store = new Store();
  return serve(async (req, res) => send(res, await flow(store, toApiRequest(req))), undefined, onClose);
}

interface WriteOptions {
  /** Content-Length on HEAD answers (default: the GET's, as Node sends it). */
  headLength?: boolean;
  /** The Content-Length line twice on JSON answers. */
  duplicateLength?: boolean;
  /** Error answers without Content-Length, with Connection: close, the socket closed after the body. */
  closeDelimitedErrors?: boolean;
  /** Bodies chunked, sizes in upper-case hex with a chunk extension. */
  chunkedUpperHex?: boolean;
}

const withoutLength = (bytes: Buffer) => Buffer.from(bytes.toString('latin1').replace(/\r\nContent-Length: \d+/, ''), 'latin1');

/** This round's writer: the plain bytes of ../net-server.ts with at most one of `options` changed. */
const writeAnswer =
  (options: WriteOptions): NetWrite =>
  (answer, request) => {
    // A close-delimited body (RFC 9112 §6.3): no Content-Length, the end of the connection ends it.
    if (options.closeDelimitedErrors && answer.status >= 400) return { bytes: withoutLength(plainBytes(answer, request, { close: true })), close: true };
    // RFC 9112 §7.1: hex digits in any case; §7.1.1: unknown chunk extensions are ignored. RFC 9112 §6.1: never Transfer-Encoding to a
    // request that does not indicate HTTP/1.1, so an HTTP/1.0 one gets Content-Length (changed after round ten, see BASELINE.md).
    if (options.chunkedUpperHex && request.version !== 'HTTP/1.0') return chunkedBytes(answer, request, { chunkSize: 26, size: (length, index) => `${length.toString(16).toUpperCase()};seq=${index}`, terminator: '0;last=1\r\n\r\n' });
    const plain = plainBytes(answer, request, { extra: options.duplicateLength && isJson(answer) ? [`Content-Length: ${Buffer.byteLength(answer.body!)}`] : [] });
    return request.method === 'HEAD' && options.headLength === false ? withoutLength(plain) : plain;
  };

/** Round eight's node:net server: lenient parsing, the last of repeated fields, a close only on `Connection: close`. */
const serveNet8 = (options: WriteOptions & Pick<NetOptions, 'ignoreRequestBody' | 'firstRequestPerRead'> = {}) =>
  serveNet(writeAnswer(options), { duplicates: 'last', closeWhen: closeRequested, ignoreRequestBody: options.ignoreRequestBody, firstRequestPerRead: options.firstRequestPerRead });

/**
 * The same server for the conformant framing targets, parsing as node:http does (changed after round ten, see BASELINE.md): an
 * HTTP/1.1 request without Host gets 400 (RFC 9112 §3.2: a server MUST), and of two Authorization lines the flow sees the first, so an
 * invalid key then the full key is refused (spec decision malformed-requests). Each keeps its own point.
 */
const serveNet8Conformant = (options: WriteOptions) => serveNet(writeAnswer(options), { duplicates: 'node', requireHost: true, closeWhen: closeRequested });

/** A tiny XML serializer, as a content-negotiation library's XML converter writes a JSON value. */
function toXml(value: unknown, name: string): string {
  if (Array.isArray(value)) return `<${name}>${value.map((v) => toXml(v, 'item')).join('')}</${name}>`;
  if (value !== null && typeof value === 'object') return `<${name}>${Object.entries(value).map(([k, v]) => toXml(v, k)).join('')}</${name}>`;
  return `<${name}>${String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;')}</${name}>`;
}

/** Accept entries as [type, q], in the order sent. */
function acceptList(accept: string | undefined): [string, number][] {
  if (accept === undefined) return [['*/*', 1]];
  return accept.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    return [type.toLowerCase(), q ? Number(q.slice(2)) : 1];
  });
}

/** An answer whose body is already encoded bytes (compressed), sent as they are. */
type RawAnswer = Answer & { raw?: Buffer };

/**
 * The faithful app with every answer passed through `after`, which may hand back encoded bytes.
 * 204 and 304 go out without Content-Length (RFC 9110 §8.6: never on 204, on 304 only the 200's).
 */
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

const etagOf = (body: string) => `W/"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;

export const TARGETS: RedTeamTarget[] = [
  // ---- broken: the method ----
  target('head-skips-permission', true, 'A generic HEAD handler checks that the key is valid but not its permission: HEAD /auth/oidc/settings with the environments-only key gets 200 with the GET\'s headers where GET gets 403 (decision head-requests: HEAD gets what GET gets, auth order included)', () =>
    serveFlow((store, request) => {
      const route = operationOf(request);
      if (route && request.method === 'HEAD' && route.method === 'GET') {
        const key = faithfulParts.presentedKey(request);
        if (key !== undefined && store.keys.has(key)) {
          const found = lookup(store, faithfulParts, route.operationId, route.params);
          return found.found ? operate(store, faithfulParts, route.operationId, found) : errorAnswer(faithfulParts, 404, request);
        }
      }
      return handle(store, faithfulParts, request);
    }),
  ),
  target('allow-header-lists-app-methods', true, 'The 405 and OPTIONS answers carry the methods the whole app routes (`Allow: GET, HEAD, DELETE, OPTIONS`) instead of the path\'s: the reads claim DELETE and the token path GET (RFC 9110 §10.2.1; decision unlisted-methods: Allow names the methods of the path)', () =>
    serveApp({ after: (answer) => (answer.headers.allow ? { ...answer, headers: { ...answer.headers, allow: 'GET, HEAD, DELETE, OPTIONS' } } : answer) }),
  ),
  target('method-override-after-permission', true, 'The permission middleware maps the request line\'s method to an operation and lets methods it cannot map (POST) through with any valid key; a method-override middleware then turns POST + `X-HTTP-Method-Override: GET|DELETE` into the operation: the environments-only key reads the OIDC secret or deletes a token (decision: the method is the request line\'s, no header grants a permission)', () =>
    serveFlow((store, request) => {
      const route = operationOf(request);
      const override = header(request, 'x-http-method-override');
      if (route && request.method === 'POST' && override) {
        const key = faithfulParts.presentedKey(request);
        if (key === undefined || !store.keys.has(key)) return errorAnswer(faithfulParts, 401, request);
        const method = override.toUpperCase();
        const byMethod = methodAnswer(route, method);
        if (byMethod) return byMethod;
        const found = lookup(store, faithfulParts, route.operationId, route.params);
        return found.found ? operate(store, faithfulParts, route.operationId, found) : errorAnswer(faithfulParts, 404, request);
      }
      return handle(store, faithfulParts, request);
    }),
  ),
  target('options-with-key-runs-read', true, 'OPTIONS with a valid key falls through to the read handler (the CORS layer only answers OPTIONS without credentials), which never checks permissions: OPTIONS /auth/oidc/settings with the environments-only key answers 200 with the settings, secret included (decision options-requests: no data of the operation)', () =>
    serveFlow((store, request) => {
      const route = operationOf(request);
      const key = faithfulParts.presentedKey(request);
      if (route && request.method === 'OPTIONS' && route.method === 'GET' && key !== undefined && store.keys.has(key)) {
        const found = lookup(store, faithfulParts, route.operationId, route.params);
        if (found.found) return operate(store, faithfulParts, route.operationId, found);
      }
      return handle(store, faithfulParts, request);
    }),
  ),
  target('head-token-path-existence-probe', true, 'A HEAD "does it exist?" route for every resource, mounted before auth: HEAD on a token path answers 200 for a token that exists and 404 for one that does not, without a key (decision head-requests: HEAD on the token path gets 405 or 404; auth before lookup)', () =>
    serveFlow((store, request) => {
      const route = operationOf(request);
      if (route && request.method === 'HEAD' && route.operationId === 'deleteServiceAccountToken') {
        const found = lookup(store, faithfulParts, route.operationId, route.params);
        return found.found ? { status: 200, headers: {}, body: undefined } : errorAnswer(faithfulParts, 404, request);
      }
      return handle(store, faithfulParts, request);
    }),
  ),

  // ---- broken: ordinary request headers ----
  target('browser-accept-gets-xml', true, 'Content negotiation with an XML converter registered (Spring/Jackson style): the browser\'s `Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8` prefers application/xml, so browsers get every answer as XML (decision accept-negotiation: any Accept admitting JSON gets the same JSON answer)', () =>
    serveApp({
      after: (answer, request) => {
        if (!isJson(answer)) return answer;
        const accepted = acceptList(header(request, 'accept')).filter(([, q]) => q > 0);
        const rank = (type: string) => Math.max(-1, ...accepted.filter(([t]) => t === type || t === `${type.split('/')[0]}/*` || t === '*/*').map(([t, q]) => q - (t.includes('*') ? 0.001 : 0)));
        if (rank('application/xml') <= rank('application/json')) return answer;
        return { ...answer, headers: { ...answer.headers, 'content-type': 'application/xml; charset=utf-8' }, body: `<?xml version="1.0" encoding="UTF-8"?>${toXml(JSON.parse(answer.body!), 'response')}` };
      },
    }),
  ),
  target('browser-user-agent-needs-csrf-header', true, 'CSRF protection keyed on the User-Agent: a DELETE from a browser User-Agent (`Mozilla/5.0 …`) without an X-CSRF-Token header gets 403 NoAccessError, whatever the key (decision required-request-headers: no header is required, none changes an answer; a key with every permission never gets 403)', () =>
    serveApp({
      after: (answer, request) =>
        request.method === 'DELETE' && /^Mozilla\//.test(header(request, 'user-agent') ?? '') && header(request, 'x-csrf-token') === undefined && operationOf(request)
          ? errorAnswer(faithfulParts, 403, request)
          : answer,
    }),
  ),
  target('x-original-url-rewrites-route', true, 'IIS/Symfony-style rewrite support: the router takes the path from `X-Original-URL` when present, while auth and permissions were decided on the request line\'s path: GET /environments/project/default with the environments-only key and `X-Original-URL: /api/admin/auth/oidc/settings` returns the OIDC secret (decision required-request-headers: no header changes an answer or grants a permission)', () =>
    serveFlow((store, request) => {
      const guarded = operationOf(request);
      const rewritten = header(request, 'x-original-url');
      if (guarded && rewritten) {
        const key = faithfulParts.presentedKey(request);
        if (key === undefined || !store.keys.has(key)) return errorAnswer(faithfulParts, 401, request);
        if (!store.permits(key, guarded.operationId)) return errorAnswer(faithfulParts, 403, request);
        const route = routeOf(pathOf(rewritten));
        if (route.kind !== 'operation') return errorAnswer(faithfulParts, 404, request);
        const byMethod = methodAnswer(route, request.method);
        if (byMethod) return byMethod;
        const found = lookup(store, faithfulParts, route.operationId, route.params);
        return found.found ? operate(store, faithfulParts, route.operationId, found) : errorAnswer(faithfulParts, 404, request);
      }
      return handle(store, faithfulParts, request);
    }),
  ),
  target('forwarded-for-list-500', true, 'The client address is read from X-Forwarded-For and validated with net.isIP, which throws on the list a chain of proxies writes (`203.0.113.9, 127.0.0.1`): 500 for every request through two proxies (decision required-request-headers: X-Forwarded-For claiming any address changes no answer)', () =>
    serveFlow((store, request) => {
      const forwarded = header(request, 'x-forwarded-for');
      if (forwarded !== undefined && isIP(forwarded) === 0) throw new Error(`invalid client address ${forwarded}`);
      return handle(store, faithfulParts, request);
    }),
  ),
  target('cors-origin-rejected-500', true, 'The `cors` middleware with an origin allow-list whose callback errors for other origins (`callback(new Error("Not allowed by CORS"))`): any request carrying an Origin not on the list, preflight or not, gets 500 (decision required-request-headers: Origin changes no answer)', () =>
    serveFlow((store, request) => {
      const origin = header(request, 'origin');
      if (origin !== undefined && origin !== 'https://admin.flags.internal') throw new Error('Not allowed by CORS');
      return handle(store, faithfulParts, request);
    }),
  ),

  // ---- broken: auth ----
  target('key-in-x-api-key-header', true, 'The key is read from `X-API-Key` first and Authorization second (a common Express snippet): a request with no Authorization and `X-API-Key: <admin key>` gets the OIDC secret (decision key-in-header-only: only the Authorization header carries a key)', () =>
    serveApp({ parts: { presentedKey: (request) => header(request, 'x-api-key') ?? faithfulParts.presentedKey(request) } }),
  ),
  target('key-checked-up-to-colon', true, 'Keys have the form `<id>:<suffix>` in the key store\'s newer format, and the middleware compares only the part before the first colon: `mock-admin-key:anything` is the admin key (decision keys-compared-exactly: a key with characters more is invalid)', () =>
    serveApp({ parts: { presentedKey: (request) => faithfulParts.presentedKey(request)?.split(':')[0] } }),
  ),
  target('account-param-loader-before-auth', true, 'The service account is loaded by a router param hook (`app.param("id")`), which runs before the route\'s auth middleware: DELETE /service-account/999/token/1 without a key gets 404, not 401 (decisions: auth before the lookup, 401 before 404)', () =>
    serveFlow((store, request) => {
      const route = operationOf(request);
      if (route?.operationId === 'deleteServiceAccountToken' && request.method === 'DELETE' && store.find(store.tokens.keys(), route.params[0]!, faithfulParts.sameId) === undefined) {
        return errorAnswer(faithfulParts, 404, request);
      }
      return handle(store, faithfulParts, request);
    }),
  ),
  target('conditional-304-before-permission', true, 'Reads carry an ETag, and the conditional-GET middleware sits between authentication and the permission check: the environments-only key with the OIDC answer\'s ETag in If-None-Match gets 304 (confirming the settings unchanged) instead of 403 (decision conditional-requests: 401 and 403 come first)', () =>
    serveFlow((store, request) => {
      const route = operationOf(request);
      const key = faithfulParts.presentedKey(request);
      if (route && route.method === 'GET' && (request.method === 'GET' || request.method === 'HEAD') && key !== undefined && store.keys.has(key)) {
        const found = lookup(store, faithfulParts, route.operationId, route.params);
        if (found.found) {
          const full = operate(store, faithfulParts, route.operationId, found);
          const tag = etagOf(full.body!);
          if (header(request, 'if-none-match')?.split(',').some((t) => t.trim() === tag)) return { status: 304, headers: { etag: tag }, body: undefined };
          const answer = handle(store, faithfulParts, request);
          return answer.status === 200 ? { ...answer, headers: { ...answer.headers, etag: tag } } : answer;
        }
      }
      return handle(store, faithfulParts, request);
    }),
  ),
  target('auth-cache-keyed-by-key-prefix', true, 'A 400 ms auth cache keyed by the key\'s first 10 characters (so that whole keys are never held in memory): right after the admin key is accepted, `mock-admin-key-x` or `mock-admin` is the admin key too (decision keys-compared-exactly)', () => {
    const cache = new Map<string, { key: string; until: number }>();
    return serveApp({
      parts: {
        presentedKey(request) {
          const key = faithfulParts.presentedKey(request);
          if (key === undefined) return undefined;
          const hit = cache.get(key.slice(0, 10));
          if (hit && hit.until > Date.now()) return hit.key;
          if (key === 'mock-admin-key' || key === 'mock-viewer-key') cache.set(key.slice(0, 10), { key, until: Date.now() + 400 });
          return key;
        },
      },
    });
  }),

  // ---- broken: the connection and framing ----
  target('request-body-not-consumed', true, 'A hand-written HTTP/1.1 server that assumes requests carry no body: the bytes a Content-Length announces (`{}` on a PUT or DELETE, as clients send) stay on the connection and become the start of the next request, which is then answered as method `{}GET` (RFC 9112 §6.3: the body is part of the message)', () => serveNet8({ ignoreRequestBody: true })),
  target('pipelined-rest-dropped-and-closed', true, 'A hand-written HTTP/1.1 server treats each read as one request: it answers the first request of a read and closes the connection when the read holds more, so a pipelined second request gets no answer at all (RFC 9112 §9.3.2; decision requests-independent: one answer per request)', () => serveNet8({ firstRequestPerRead: true })),
  target('content-length-sent-twice', true, 'A JSON helper sets Content-Length and the hand-written writer adds its own: every JSON answer carries two Content-Length lines (RFC 9110 §8.6, RFC 9112 §6.3: a repeated Content-Length makes the framing invalid)', () => serveNet8({ duplicateLength: true })),
  target('gzip-applied-twice', true, 'A compression middleware and a reverse-proxy-style compressor both gzip when asked: the body is gzip(gzip(json)) under one `Content-Encoding: gzip`, so a client that decodes once gets binary (RFC 9110 §8.4: the codings listed are the ones applied)', () =>
    serveAppRaw((answer, request) =>
        answer.body !== undefined && /\bgzip\b/.test(header(request, 'accept-encoding') ?? '')
          ? { ...answer, headers: { ...answer.headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding' }, body: undefined, raw: gzipSync(gzipSync(answer.body)) }
          : answer,
    ),
  ),

  // ---- broken: overlap ----
  target('key-batch-results-unordered', true, 'Key lookups are batched per 3 ms (a DataLoader) with `WHERE key IN (…)`, and the rows, which come back in table order and only for keys that exist, are handed out by position: a bad key in flight with the admin key gets the admin\'s permissions, the admin 401 (decision requests-independent: no answer depends on other requests in flight)', () => {
    let pending: { key: string; resolve: (permissions: Set<string> | undefined) => void }[] = [];
    let store: Store;
    const flush = () => {
      const batch = pending;
      pending = [];
      const asked = [...new Set(batch.map((b) => b.key))];
      const rows = [...store.keys.entries()].filter(([k]) => asked.includes(k));
      for (const b of batch) b.resolve(rows[asked.indexOf(b.key)]?.[1]);
    };
    const load = (key: string) =>
      new Promise<Set<string> | undefined>((resolve) => {
        pending.push({ key, resolve });
        if (pending.length === 1) setTimeout(flush, 3);
      });
    return serveFlow(async (s, request) => {
      store = s;
      const route = operationOf(request);
      if (!route || methodAnswer(route, request.method)) return handle(s, faithfulParts, request);
      const key = faithfulParts.presentedKey(request);
      if (key === undefined) return errorAnswer(faithfulParts, 401, request);
      const permissions = await load(key);
      if (permissions === undefined) return errorAnswer(faithfulParts, 401, request);
      if (!permissions.has('*') && !permissions.has(route.operationId)) return errorAnswer(faithfulParts, 403, request);
      const found = lookup(s, faithfulParts, route.operationId, route.params);
      return found.found ? operate(s, faithfulParts, route.operationId, found) : errorAnswer(faithfulParts, 404, request);
    });
  }),
  target('singleflight-keyed-by-path', true, 'Concurrent reads of one path are coalesced (singleflight, a 30 ms database read) and the key is not part of the flight\'s key: a request without a key in flight with an admin read of the same path gets the admin\'s 200, or the admin the other\'s 401, and both share one error id (decision requests-independent)', () => {
    const flights = new Map<string, Promise<Answer>>();
    return serveFlow((store, request) => {
      if (request.method !== 'GET' || !operationOf(request)) return handle(store, faithfulParts, request);
      const path = pathOf(request.url);
      let flight = flights.get(path);
      if (!flight) {
        flight = sleep(30).then(() => handle(store, faithfulParts, request));
        flights.set(path, flight);
        void flight.finally(() => flights.delete(path));
      }
      return flight;
    });
  }),

  target('load-shedding-503', true, 'A concurrency limiter in front of the app (each request holds a database connection for 15 ms, pool of 3): a fourth request in flight gets 503 with Retry-After, whatever it asks (decision no-declared-limits: a server that enforces a limit answers outside this contract)', () => {
    let inFlight = 0;
    return serveFlow(async (store, request) => {
      if (inFlight >= 3) return json(503, { error: 'Service Unavailable', message: 'Too many concurrent requests' }, { 'retry-after': '1' });
      inFlight++;
      try {
        await sleep(15);
        return handle(store, faithfulParts, request);
      } finally {
        inFlight--;
      }
    });
  }),

  // ---- broken: time ----
  target('delete-sweeps-prefix-accounts-later', true, 'A cleanup job, 300 ms after each delete, removes the same token id from "the account and its sub-accounts" with `account_id LIKE $1 || \'%\'`: deleting 1/1 also deletes 12/1 once it settles (decision requests-independent: a delete deletes its own token and nothing else, now and later)', () => {
    const store = new Store();
    const timers = new Set<NodeJS.Timeout>();
    return serve(
      (req, res) => {
        const request = toApiRequest(req);
        const answer = handle(store, faithfulParts, request);
        const route = operationOf(request);
        if (answer.status === 200 && request.method === 'DELETE' && route) {
          const [account, token] = route.params as [string, string];
          const timer = setTimeout(() => {
            timers.delete(timer);
            for (const [id, tokens] of store.tokens) if (id.startsWith(account)) tokens.delete(token);
          }, 300);
          timers.add(timer);
        }
        send(res, answer);
      },
      undefined,
      () => timers.forEach((t) => clearTimeout(t)),
    );
  }),
  target('token-ids-renumbered-after-delete', true, 'Tokens are kept as an array per account and their ids are positions; a compaction 250 ms after a delete renumbers the rest 1..n: once it settles, 1/1 exists again (the former 1/2) and deleting it again answers 200 (decision token-deletion-transition: a deletion is final, the same delete gets 404)', () => {
    const store = new Store();
    const timers = new Set<NodeJS.Timeout>();
    return serve(
      (req, res) => {
        const request = toApiRequest(req);
        const answer = handle(store, faithfulParts, request);
        const route = operationOf(request);
        if (answer.status === 200 && request.method === 'DELETE' && route) {
          const account = route.params[0]!;
          const timer = setTimeout(() => {
            timers.delete(timer);
            const left = store.tokens.get(account)!;
            store.tokens.set(account, new Set([...left].map((_, i) => String(i + 1))));
          }, 250);
          timers.add(timer);
        }
        send(res, answer);
      },
      undefined,
      () => timers.forEach((t) => clearTimeout(t)),
    );
  }),
  target('version-counts-writes', true, '`version` is read from the store\'s change counter (the data version, bumped by every write) instead of the schema version: after a token delete, the environments answer says version 2 (decision environments-version-constant)', () => {
    let writes = 0;
    return serveApp({
      parts: { version: () => 1 + writes },
      after: (answer, request) => {
        if (answer.status === 200 && request.method === 'DELETE') writes++;
        return answer;
      },
    });
  }),
  target('error-ids-pool-of-64', true, 'Error objects come from a preallocated pool of 64 that is reused round-robin, id included: the 65th error answer carries the id of the first (decision error-ids-unique: no two error responses share an id)', () => {
    let next = 0;
    const pool = Array.from({ length: 64 }, (_, i) => `e${i.toString(36).padStart(4, '0')}-${(i * 7919).toString(16)}`);
    return serveApp({ parts: { errorId: () => pool[next++ % pool.length]! } });
  }),

  // ---- broken: identifiers ----
  target('matrix-params-stripped-from-id', true, 'Path parameters lose everything from the first `;` (Tomcat/Spring strip matrix parameters): `/environments/project/default;v=2` and `/service-account/1/token/3;x` name default and token 3 (decisions project-id-compared-exactly, token-ids-compared-exactly)', () =>
    serveApp({ parts: { sameId: (presented, stored) => presented.split(';')[0] === stored } }),
  ),
  target('id-truncated-at-nul', true, 'Ids pass through a C library that reads them as NUL-terminated strings: `default%00x` names default and `/service-account/1/token/3%00junk` deletes token 3 (decision malformed-input-refusals: a NUL makes the id malformed, 400 or 404, never the resource)', () =>
    serveApp({ parts: { sameId: (presented, stored) => presented.split('\0')[0] === stored } }),
  ),
  target('query-merged-over-path-params', true, 'Handlers read `{ ...req.params, ...req.query }`, so query parameters named like path parameters win: `/environments/project/default?projectId=mobile-app` answers mobile-app\'s environments and `/service-account/1/token/1?tokenId=3` deletes token 3 (decision required-request-headers: an unnamed query string changes no answer)', () =>
    serveFlow((store, request) => {
      const route = operationOf(request);
      const q = request.url.indexOf('?');
      if (!route || q < 0) return handle(store, faithfulParts, request);
      const query = new URLSearchParams(request.url.slice(q + 1));
      const names = route.operationId === 'getProjectEnvironments' ? ['projectId'] : route.operationId === 'deleteServiceAccountToken' ? ['id', 'tokenId'] : [];
      const params = route.params.map((p, i) => query.get(names[i]!) ?? p);
      return flowOn(store, faithfulParts, request, { ...route, params });
    }),
  ),

  target('encoded-dot-segments-resolved', true, 'A middleware percent-decodes the whole path and normalizes it (path.posix.normalize) before routing: `/environments/project/x%2F..%2Fdefault` is project default (decision router-refusals: an encoded slash is no route, 404 or 405; decision project-id-compared-exactly)', () =>
    serveFlow((store, request) => {
      const path = pathOf(request.url);
      let decoded: string;
      try {
        decoded = decodeURIComponent(path);
      } catch {
        return handle(store, faithfulParts, request);
      }
      const normalized = posix.normalize(decoded);
      if (normalized === decoded) return handle(store, faithfulParts, request);
      const url = normalized.split('/').map(encodeURIComponent).join('/') + request.url.slice(path.length);
      return handle(store, faithfulParts, { ...request, url });
    }),
  ),
  target('token-id-schema-400-before-auth', true, 'Fastify-style route schema `params: { id: integer, tokenId: integer }`, validated before the auth hook: DELETE /service-account/1/token/abc (or `1.0`, `+1`) gets 400 `params/tokenId must be integer`, without a key too (API §4.3 documents no 400; decisions: auth first, such ids get 404; malformed-input-refusals tolerates 400 only on malformed input)', () =>
    serveFlow((store, request) => {
      const route = operationOf(request);
      if (route?.operationId === 'deleteServiceAccountToken' && request.method === 'DELETE') {
        const bad = (['id', 'tokenId'] as const).find((_, i) => !/^\d+$/.test(route.params[i]!));
        if (bad) return json(400, { id: randomUUID(), name: 'ValidationError', message: `params/${bad} must be integer` });
      }
      return handle(store, faithfulParts, request);
    }),
  ),

  // ---- broken: error bodies ----
  target('forbidden-message-names-key', true, 'The 403 message is written for the log and returned as is: `API key mock-viewer-key (getProjectEnvironments) may not call getOidcSettings`, the caller\'s key in the body (API §2.3; keys are secrets and never appear in any output)', () =>
    serveApp({
      parts: {
        message: (status, request) => {
          if (status !== 403) return faithfulParts.message(status, request);
          const key = faithfulParts.presentedKey(request) ?? '';
          return `API key ${key} (getProjectEnvironments) may not call ${operationOf(request)?.operationId ?? 'this operation'}`;
        },
      },
    }),
  ),
  target('error-trace-base64-carries-secret', true, 'Every error body carries a `trace` field, the base64 of a JSON debug context that includes the service\'s OIDC client settings: a 401 without any key hands out the OIDC secret, base64-encoded (secrets never in any output, however encoded; extra fields are allowed, secrets in them are not)', () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const answer = handle(store, faithfulParts, request);
      if (answer.status >= 400 && isJson(answer)) {
        const trace = Buffer.from(JSON.stringify({ path: pathOf(request.url), at: Date.now(), config: { oidc: { clientId: store.oidc.clientId, secret: store.oidc.secret } } })).toString('base64');
        send(res, { ...answer, body: JSON.stringify({ ...JSON.parse(answer.body!), trace }) });
        return;
      }
      send(res, answer);
    });
  }),
  target('error-id-from-x-request-id', true, 'Error ids are taken from the incoming X-Request-Id when a proxy or client sends one (trace propagation): two requests carrying the same X-Request-Id get error bodies with one id (decision error-ids-unique: no two error responses share an id; decision required-request-headers)', () =>
    serveApp({
      after: (answer, request) => {
        const requestId = header(request, 'x-request-id');
        return requestId !== undefined && answer.status >= 400 && isJson(answer) ? { ...answer, body: JSON.stringify({ ...JSON.parse(answer.body!), id: requestId }) } : answer;
      },
    }),
  ),
  target('fastify-default-404-json', true, 'Paths no route holds get Fastify\'s default not-found JSON, `{"message":"Route GET:/x not found","error":"Not Found","statusCode":404}`: a JSON 404 without id or name (decision router-refusals: a 404 with a JSON body follows the NotFound error schema)', () =>
    serveApp({
      after: (answer, request) =>
        answer.status === 404 && !operationOf(request) ? json(404, { message: `Route ${request.method}:${pathOf(request.url)} not found`, error: 'Not Found', statusCode: 404 }) : answer,
    }),
  ),

  // ---- broken: data ----
  target('environment-booleans-as-tinyint', true, 'The environments query runs on MySQL, whose BOOLEAN is TINYINT(1), and the driver is not told to cast: `enabled: 1`, `protected: 0` (API §2.1: booleans)', () =>
    serveApp({
      after: (answer, request) => {
        if (answer.status !== 200 || operationOf(request)?.operationId !== 'getProjectEnvironments' || !isJson(answer)) return answer;
        const body = JSON.parse(answer.body!);
        body.environments = body.environments.map((e: Record<string, unknown>) => ({ ...e, enabled: e.enabled ? 1 : 0, protected: e.protected ? 1 : 0 }));
        return { ...answer, body: JSON.stringify(body) };
      },
    }),
  ),
  target('discover-url-without-scheme', true, 'The discovery address is stored as the admin typed it, without a scheme: `discoverUrl: "login.example.com/realms/flags/.well-known/openid-configuration"` (API §2.2: a URI; RFC 3986 §3: a URI starts with a scheme)', () =>
    serveApp({
      after: (answer, request) =>
        answer.status === 200 && operationOf(request)?.operationId === 'getOidcSettings' && isJson(answer)
          ? { ...answer, body: JSON.stringify({ ...JSON.parse(answer.body!), discoverUrl: String(JSON.parse(answer.body!).discoverUrl).replace(/^https?:\/\//, '') }) }
          : answer,
    }),
  ),

  // ---- conformant ----
  target('head-without-content-length', false, 'A hand-written HTTP/1.1 server answers HEAD like GET (status, auth order, headers) but without Content-Length, which is computed only while writing the content (RFC 9110 §8.6, §9.3.2: a server MAY omit it on HEAD)', () => serveNet8Conformant({ headLength: false })),
  target('errors-close-delimited', false, 'A hand-written HTTP/1.1 server sends error answers without Content-Length, with `Connection: close`, and ends the connection after the body (RFC 9112 §6.3: a close-delimited body); successes are kept alive with Content-Length', () => serveNet8Conformant({ closeDelimitedErrors: true })),
  target('chunked-upper-hex-with-extensions', false, 'A hand-written HTTP/1.1 server sends every body chunked in 26-byte chunks, sizes in upper-case hex, each with a chunk extension (`1A;seq=0`), the last chunk `0;last=1` (RFC 9112 §7.1: hex digits in any case; §7.1.1: unknown extensions are ignored)', () => serveNet8Conformant({ chunkedUpperHex: true })),
  target('compression-threshold-and-wildcard', false, 'Bodies of 256 bytes or more are compressed when Accept-Encoding allows it (br first, gzip also for `*`), q=0 respected; smaller bodies (the errors) go out as they are; `Vary: Accept-Encoding` on every answer (RFC 9110 §12.5.3)', () =>
    serveAppRaw((answer, request) => {
        const withVary = { ...answer, headers: { ...answer.headers, vary: 'Accept-Encoding' } };
        if (answer.body === undefined || Buffer.byteLength(answer.body) < 256) return withVary;
        const codings = new Map(
          (header(request, 'accept-encoding') ?? '').split(',').map((part) => {
            const [coding = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
            const q = params.find((p) => p.startsWith('q='));
            return [coding, q ? Number(q.slice(2)) : 1] as const;
          }),
        );
        const allowed = (coding: string) => (codings.get(coding) ?? codings.get('*') ?? 0) > 0;
        // br only when named (a client that writes `*` may not decode it), gzip also for `*`.
        if ((codings.get('br') ?? 0) > 0) return { ...withVary, headers: { ...withVary.headers, 'content-encoding': 'br' }, body: undefined, raw: brotliCompressSync(answer.body) };
        if (allowed('gzip')) return { ...withVary, headers: { ...withVary.headers, 'content-encoding': 'gzip' }, body: undefined, raw: gzipSync(answer.body) };
        return withVary;
      }),
  ),
  target('not-acceptable-only-without-json', false, 'Accept is honoured strictly where the decision lets it: 406 (plain text, before auth) only to an Accept that admits no JSON at all (`text/html`, `application/xml`, `application/json;q=0`); anything holding `*/*`, `application/*`, `application/json` or a `+json` type gets JSON (decision accept-negotiation)', () =>
    serveApp({
      after: (answer, request) => {
        const accept = header(request, 'accept')?.trim();
        const route = operationOf(request);
        // Only the reads have a representation to negotiate; an empty Accept is read as none.
        if (!accept || route?.method !== 'GET' || (request.method !== 'GET' && request.method !== 'HEAD')) return answer;
        const admitsJson = acceptList(accept).some(([type, q]) => q > 0 && (type === '*/*' || type === 'application/*' || type === 'application/json' || type.endsWith('+json')));
        return admitsJson ? answer : { status: 406, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Acceptable: this API answers application/json' };
      },
    }),
  ),
  target('malformed-path-400-before-auth', false, 'The router refuses malformed paths before auth with 400 ValidationError (JSON): percent-encoding that does not decode, or a segment holding a C0 control character or DEL (decision malformed-input-refusals: 400 on such input, before any operation runs)', () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const segments = pathOf(request.url).split('/');
      const malformed = segments.some((s) => {
        try {
          return /[\u0000-\u001f\u007f]/.test(decodeURIComponent(s));
        } catch {
          return true;
        }
      });
      send(res, malformed ? errorAnswer(faithfulParts, 400, request) : handle(store, faithfulParts, request));
    });
  }),
  target('affinity-cookie-set-and-ignored', false, 'A load balancer\'s affinity cookie on every answer (`Set-Cookie: lb=<random>; Path=/; HttpOnly; SameSite=Lax`), which the app never reads: requests carrying it get what they get without it (decision key-in-header-only: cookies the server hands out are no credential)', () =>
    serveApp({ after: (answer) => ({ ...answer, headers: { ...answer.headers, 'set-cookie': `lb=${Math.random().toString(36).slice(2, 10)}; Path=/; HttpOnly; SameSite=Lax` } }) }),
  ),
  target('unrouted-methods-404-json', false, 'A router with no method fallback: every method a path does not route (PUT, POST, PATCH, OPTIONS, preflights, GET on the token path, DELETE on the reads, HEAD on the token path) gets the app\'s JSON 404 NotFoundError before auth; HEAD on the reads is answered like GET (decisions unlisted-methods, options-requests, head-requests: 404 is a refusal they allow)', () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const route = operationOf(request);
      if (route && request.method !== route.method && !(request.method === 'HEAD' && route.method === 'GET')) {
        send(res, errorAnswer(faithfulParts, 404, request));
        return;
      }
      send(res, handle(store, faithfulParts, request));
    });
  }),
  target('integers-written-as-floats', false, 'A Python backend whose numbers are floats: integers are written `100.0` (version `1.0`, sortOrder, counts, segments, weights, defaultRootRoleId); JSON has one number type and 100.0 is the integer 100 (RFC 8259 §6; JSON Schema: an integer is a number with no fractional part)', () =>
    serveApp({
      after: (answer, request) => {
        const route = operationOf(request);
        if (answer.status !== 200 || !isJson(answer) || !route || route.operationId === 'deleteServiceAccountToken') return answer;
        const body = answer
          .body!.replace(/"(version|sortOrder|projectApiTokenCount|projectEnabledToggleCount|defaultRootRoleId|weight)":(-?\d+)(?=[,}])/g, '"$1":$2.0')
          .replace(/"segments":\[([\d,]*)\]/g, (_, list: string) => `"segments":[${list ? list.split(',').map((n) => `${n}.0`).join(',') : ''}]`);
        return { ...answer, body };
      },
    }),
  ),
  target('weak-etag-304-head-too', false, 'Reads carry a weak ETag (`W/"…"`) and `Vary: Authorization`; after auth and the permission check, If-None-Match holding that tag in a list, weakly compared, or `*`, gets 304 with the ETag, for GET and HEAD alike; any other tag gets 200 (RFC 9110 §13.1.2, §13.2.1; decision conditional-requests)', () =>
    serveAppRaw((answer, request) => {
        const route = operationOf(request);
        if (answer.status !== 200 || !route || route.method !== 'GET') return answer;
        const full = answer.body ?? '';
        const tag = etagOf(full);
        const weak = (t: string) => t.trim().replace(/^W\//, '');
        const asked = header(request, 'if-none-match');
        const headers = { ...answer.headers, etag: tag, vary: 'Authorization' };
        if (asked !== undefined && (asked.trim() === '*' || asked.split(',').some((t) => weak(t) === weak(tag)))) return { status: 304, headers: { etag: tag, vary: 'Authorization' }, body: undefined };
        return { ...answer, headers };
    }),
  ),
  target('idle-connections-closed-after-100ms', false, 'The server ends kept-alive connections that stay idle for 100 ms after an answer (a short idle time-out, as load balancers set): a client that reuses an idle connection must open a new one (RFC 9112 §9.5: a server may close a connection at any time; decision requests-independent)', () => {
    const store = new Store();
    const idle = new WeakMap<object, NodeJS.Timeout>();
    return serve((req, res) => {
      clearTimeout(idle.get(req.socket));
      res.on('finish', () => idle.set(req.socket, setTimeout(() => req.socket.end(), 100).unref()));
      send(res, handle(store, faithfulParts, toApiRequest(req)));
    });
  }),
  target('first-request-per-connection-slow', false, 'The first request on every new connection waits 300 ms (a database session opened per connection), later ones on it are fast: slow but far inside any reasonable time-out, and an answer is the same whatever its timing (decision no-declared-limits)', () => {
    const store = new Store();
    const seen = new WeakSet<object>();
    return serve(async (req, res) => {
      if (!seen.has(req.socket)) {
        seen.add(req.socket);
        await sleep(300);
      }
      send(res, handle(store, faithfulParts, toApiRequest(req)));
    });
  }),
  target('options-200-json-method-list', false, 'OPTIONS, with or without a key, on any path of the operations, existing resource or not: a plain one gets 200 with Allow and a small JSON body listing the methods (`{"methods":["GET","HEAD","OPTIONS"]}`), a preflight 204 with the CORS headers for its Origin; no data of the operation, nothing changed (decision options-requests)', () =>
    serveAppRaw((answer, request) => {
        if (request.method !== 'OPTIONS' || !operationOf(request)) return answer;
        const allow = answer.headers.allow ?? '';
        if (header(request, 'origin') !== undefined && header(request, 'access-control-request-method') !== undefined) {
          return { status: 204, headers: { allow, 'access-control-allow-origin': header(request, 'origin')!, 'access-control-allow-methods': allow, 'access-control-allow-headers': 'Authorization, Content-Type', 'access-control-max-age': '600', vary: 'Origin' }, body: undefined };
        }
        return json(200, { methods: allow.split(',').map((m) => m.trim()) }, { allow });
    }),
  ),
];
