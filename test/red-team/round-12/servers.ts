// Red team round twelve: held-out servers for issue 18, written from API.md, spec/openapi.yaml and
// its decisions (docs/decisions.md) without reading the suite (see BASELINE.md). Each target is the
// faithful app (../app.ts) with one part replaced: 24 broken (a defect the suite must report) and
// 8 conformant (unusual behaviour the contract allows, which the suite must pass).
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { deflateRawSync, gzipSync } from 'node:zlib';
import {
  ERROR_NAMES,
  FIXTURES,
  Store,
  errorAnswer,
  faithfulParts,
  handle,
  json,
  lookup,
  methodAnswer,
  operate,
  pathOf,
  routeOf,
  send,
  serve,
  serveApp,
  toApiRequest,
  type Answer,
  type ApiRequest,
  type OperationId,
  type Parts,
  type Route,
  type RunningTarget,
} from '../app.ts';
import type { RedTeamTarget } from '../servers.ts';
import { chunkedBytes, plainBytes, serveNet } from '../net-server.ts';

function target(name: string, broken: boolean, description: string, start: () => Promise<RunningTarget>): RedTeamTarget {
  return { name, broken, description, start };
}

type Operation = Extract<Route, { kind: 'operation' }>;

/** Replaceable steps of the faithful flow (app.ts `handle`), in its order: route, method, auth, lookup, operation. */
interface Hooks {
  /** After the key is known valid and permitted: an answer here replaces the lookup and the operation. */
  afterAuth?(store: Store, key: string, route: Operation, request: ApiRequest): Answer | undefined;
  /** The key presented and found invalid (or absent): the answer. */
  unauthenticated?(key: string | undefined, request: ApiRequest): Answer;
  /** The lookup (404 when it finds nothing) and the operation. */
  lookupAndOperate?(store: Store, parts: Parts, route: Operation, request: ApiRequest): Answer | Promise<Answer>;
}

async function flow(store: Store, parts: Parts, request: ApiRequest, hooks: Hooks): Promise<Answer> {
  const route = routeOf(pathOf(request.url));
  if (route.kind === 'no-route') return errorAnswer(parts, 404, request);
  const byMethod = methodAnswer(route, request.method);
  if (byMethod) return byMethod;
  const key = parts.presentedKey(request);
  if (key === undefined || !store.keys.has(key)) return hooks.unauthenticated ? hooks.unauthenticated(key, request) : errorAnswer(parts, 401, request);
  if (!store.permits(key, route.operationId)) return errorAnswer(parts, 403, request);
  const early = hooks.afterAuth?.(store, key, route, request);
  if (early) return early;
  if (hooks.lookupAndOperate) return hooks.lookupAndOperate(store, parts, route, request);
  const found = lookup(store, parts, route.operationId, route.params);
  if (!found.found) return errorAnswer(parts, 404, request, route.params.join('/'));
  return operate(store, parts, route.operationId, found);
}

/** The faithful app with some steps of its flow replaced. */
function serveFlow(hooks: Hooks, parts: Partial<Parts> = {}): Promise<RunningTarget> {
  const store = new Store();
  const all = { ...faithfulParts, ...parts };
  return serve(async (req, res) => send(res, await flow(store, all, toApiRequest(req), hooks)));
}

/** The faithful app whose answer is written by `write` (headers, framing, codings). */
function serveWriter(write: (res: ServerResponse, answer: Answer, request: ApiRequest, req: IncomingMessage) => void): Promise<RunningTarget> {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    write(res, handle(store, faithfulParts, request), request, req);
  });
}

/** Rewrites a JSON body (a 200 of a read), leaving other answers alone. */
function rewriteJson(answer: Answer, change: (body: any) => unknown): Answer {
  if (answer.body === undefined || !answer.headers['content-type']?.startsWith('application/json')) return answer;
  return { ...answer, body: JSON.stringify(change(JSON.parse(answer.body))) };
}

const isRead = (request: ApiRequest) => {
  const route = routeOf(pathOf(request.url));
  return route.kind === 'operation' && route.method === 'GET';
};

/** IMF-fixdate (RFC 9110 §5.6.7) of a time in milliseconds. */
const httpDate = (ms: number) => new Date(ms).toUTCString();

/** The q-value an Accept-Encoding value gives a coding (RFC 9110 §12.5.3), 0 when not listed. */
function qualityOf(acceptEncoding: string | undefined, coding: string): number {
  for (const item of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = item.trim().split(';');
    if (name!.trim().toLowerCase() !== coding) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)).find(Boolean);
    return q ? Number(q[1]) : 1;
  }
  return 0;
}

// ---------------------------------------------------------------- broken: what the API names

/** Environment names enabled in at least one project of the instance. */
const ENABLED_ANYWHERE = new Set(FIXTURES.projects.flatMap((p) => p.environments.filter((e) => e.enabled).map((e) => e.name)));

const enabledElsewhere = target(
  'listed-when-enabled-in-any-project',
  true,
  'The "enabled" filter joins project_environments without the project id: an environment is listed when some project enables it, so default lists its own disabled staging entry (`enabled: false`) because mobile-app enables staging (API §4.1: only environments enabled in the project\'s configuration)',
  () => serveApp({ parts: { listed: (entry) => ENABLED_ANYWHERE.has(entry.name) } }),
);

const duplicatedByJoin = target(
  'environments-duplicated-by-join',
  true,
  'The environments query joins the enabling projects to count them and forgets the GROUP BY: an environment enabled in two projects comes back twice, so default lists `production` twice (decision environments-unique: no name appears twice in one answer)',
  () =>
    serveApp({
      after: (answer, request) =>
        answer.status !== 200 || !pathOf(request.url).includes('/environments/project/')
          ? answer
          : rewriteJson(answer, (body) => ({
              ...body,
              environments: body.environments.flatMap((e: { name: string }) => {
                const rows = FIXTURES.projects.filter((p) => p.environments.some((x) => x.name === e.name && x.enabled)).length;
                return Array.from({ length: Math.max(1, rows) }, () => e);
              }),
            })),
    }),
);

const tokenAnyAccount = target(
  'token-found-in-any-account',
  true,
  'The delete checks that the service account exists, then runs `DELETE FROM tokens WHERE id = :tokenId LIMIT 1` without the account: DELETE /service-account/2/token/1 answers 200 (deleting 1/1), and deleting 1/1 twice answers 200 twice (the second deletes 12/1) (API §4.3: the token identified by both ids; decision token-deletion-transition: the same delete again gets 404)',
  () =>
    serveFlow({
      lookupAndOperate(store, parts, route, request) {
        if (route.operationId !== 'deleteServiceAccountToken') {
          const found = lookup(store, parts, route.operationId, route.params);
          return found.found ? operate(store, parts, route.operationId, found) : errorAnswer(parts, 404, request);
        }
        const account = store.find(store.tokens.keys(), route.params[0]!, parts.sameId);
        const owner = account === undefined ? undefined : [...store.tokens.entries()].find(([, tokens]) => tokens.has(route.params[1]!));
        if (!owner) return errorAnswer(parts, 404, request, route.params.join('/'));
        owner[1].delete(route.params[1]!);
        return { status: 200, headers: {}, body: undefined };
      },
    }),
);

const wholeAccount = target(
  'delete-removes-every-token-of-account',
  true,
  'The delete statement is `DELETE FROM tokens WHERE service_account_id = :id` (the token id only checked for existence): deleting 1/1 deletes 1/2 and 1/3 too, which then answer 404 (API §4.3: deletes the token identified by both ids, nothing else)',
  () =>
    serveFlow({
      lookupAndOperate(store, parts, route, request) {
        const found = lookup(store, parts, route.operationId, route.params);
        if (!found.found) return errorAnswer(parts, 404, request, route.params.join('/'));
        if (route.operationId !== 'deleteServiceAccountToken') return operate(store, parts, route.operationId, found);
        store.tokens.get(found.account!)!.clear();
        return { status: 200, headers: {}, body: undefined };
      },
    }),
);

const projectAcl = target(
  'restricted-key-limited-to-default-project',
  true,
  'A project ACL left from the key\'s creation: keys without "*" may read environments of the project `default` only; the environments-only key gets 403 on mobile-app (decision permissions-per-operation: a key that may call an operation may on every resource)',
  () =>
    serveFlow({
      afterAuth(store, key, route, request) {
        const projectScoped = route.operationId === 'getProjectEnvironments' && !store.keys.get(key)!.has('*');
        return projectScoped && route.params[0] !== 'default' ? errorAnswer(faithfulParts, 403, request) : undefined;
      },
    }),
);

const emptyListForUnknown = target(
  'unknown-project-empty-list',
  true,
  'The environments query is a plain SELECT whose empty result is returned as is: a project that does not exist gets 200 `{"version":1,"environments":[]}` instead of 404 NotFoundError (API §4.1: 404 when the resource is not found)',
  () =>
    serveFlow({
      lookupAndOperate(store, parts, route, request) {
        const found = lookup(store, parts, route.operationId, route.params);
        if (!found.found && route.operationId === 'getProjectEnvironments') return json(200, { version: parts.version(), environments: [] });
        if (!found.found) return errorAnswer(parts, 404, request, route.params.join('/'));
        return operate(store, parts, route.operationId, found);
      },
    }),
);

const unknownKey403 = target(
  'unknown-key-403',
  true,
  'The auth middleware answers 401 only when Authorization is absent; a key it does not know gets 403 NoAccessError "invalid API key" (API §5: missing or invalid credentials get 401 AuthenticationRequired)',
  () => serveFlow({ unauthenticated: (key, request) => errorAnswer(faithfulParts, key === undefined || key === '' ? 401 : 403, request) }),
);

const keyDecoded = target(
  'key-percent-decoded',
  true,
  'The key is passed through decodeURIComponent (code shared with the query-string key reader): `mock%2Dadmin%2Dkey` is the admin key (decision keys-compared-exactly: a key with characters replaced is invalid)',
  () =>
    serveApp({
      parts: {
        presentedKey(request) {
          const key = faithfulParts.presentedKey(request);
          try {
            return key === undefined ? undefined : decodeURIComponent(key);
          } catch {
            return key;
          }
        },
      },
    }),
);

const prefixMatch = target(
  'ids-matched-as-prefix',
  true,
  'Lookups reuse the admin UI\'s search query, `WHERE id LIKE :id || \'%\'` (first row): `def` or `d` names default, `mobile` names mobile-app (decision project-id-compared-exactly: `defaul` names no project)',
  () => serveApp({ parts: { sameId: (presented, stored) => stored.startsWith(presented) } }),
);

const forbiddenNoMessage = target(
  'forbidden-message-missing',
  true,
  'Messages come from a catalog whose 403 entry is misspelled (`errors.forbiden`): the lookup yields undefined and JSON.stringify drops the member, so every 403 body is `{"id":…,"name":"NoAccessError"}` (decision error-body: id, name and message are required strings)',
  () => serveApp({ parts: { message: (status, request, detail) => (status === 403 ? (undefined as unknown as string) : faithfulParts.message(status, request, detail)) } }),
);

/** What `this.constructor.name` becomes once a bundler minifies the error classes. */
const MINIFIED: Record<string, string> = { ValidationError: 'i', AuthenticationRequired: 's', NoAccessError: 'a', NotFoundError: 'o' };

const minifiedNames = target(
  'error-names-minified',
  true,
  'Error bodies take `name` from `this.constructor.name`, and the production bundle is minified (esbuild --minify): 401 says `"name":"s"`, 403 `"a"`, 404 `"o"` (API §2.3, §7; decision error-body: name is fixed per status)',
  () => serveApp({ after: (answer) => (answer.status >= 400 && answer.status in ERROR_NAMES ? rewriteJson(answer, (b) => ({ ...b, name: MINIFIED[b.name] ?? b.name })) : answer) }),
);

const lockLeak = target(
  'account-lock-leaked-on-404',
  true,
  'Deletes take a per-account lock (a promise chain) and the early return for a missing token skips the release: after one 404 on an existing account (e.g. the same delete again), every later delete on that account waits forever (decision requests-independent: an answer never depends on earlier requests)',
  () => {
    const locks = new Map<string, Promise<void>>();
    return serveFlow({
      async lookupAndOperate(store, parts, route, request) {
        const found = lookup(store, parts, route.operationId, route.params);
        if (route.operationId !== 'deleteServiceAccountToken') {
          return found.found ? operate(store, parts, route.operationId, found) : errorAnswer(parts, 404, request);
        }
        const account = store.find(store.tokens.keys(), route.params[0]!, parts.sameId);
        if (account === undefined) return errorAnswer(parts, 404, request, route.params.join('/'));
        const before = locks.get(account) ?? Promise.resolve();
        let release!: () => void;
        const mine = new Promise<void>((resolve) => (release = resolve));
        locks.set(account, before.then(() => mine));
        await before;
        const again = lookup(store, parts, route.operationId, route.params);
        if (!again.found) return errorAnswer(parts, 404, request, route.params.join('/'));
        const answer = operate(store, parts, route.operationId, again);
        release();
        return answer;
      },
    });
  },
);

// ---------------------------------------------------------------- broken: what the contract leaves to HTTP

/** Writes an answer whose body is already bytes (a coding applied), Content-Length in bytes. */
function sendBytes(res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer | undefined): void {
  res.writeHead(status, { ...headers, 'content-length': String(body?.length ?? 0) });
  res.end(body);
}

const gzipQZero = target(
  'gzip-despite-q-zero',
  true,
  'The compression middleware tests `acceptEncoding.includes("gzip")`: `Accept-Encoding: gzip;q=0, identity` (gzip refused) still gets a gzip body (RFC 9110 §12.5.3: q=0 means not acceptable; decision required-request-headers: only in a coding the request accepts)',
  () =>
    serveWriter((res, answer, request) => {
      const accept = String(request.headers['accept-encoding'] ?? '');
      if (answer.body === undefined || !accept.includes('gzip')) return send(res, answer);
      sendBytes(res, answer.status, { ...answer.headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding' }, gzipSync(answer.body));
    }),
);

const deflateRaw = target(
  'deflate-sent-raw',
  true,
  'Compression prefers deflate when accepted, and writes it with zlib.deflateRawSync: `Content-Encoding: deflate` on a raw DEFLATE stream without the zlib wrapper, which zlib-format decoders reject (RFC 9110 §8.4.1.2: "deflate" is the zlib format of RFC 1950); gzip alone is sent correctly',
  () =>
    serveWriter((res, answer, request) => {
      const accept = request.headers['accept-encoding'];
      // HEAD gets the GET's headers (node:http drops the body itself).
      if (answer.body === undefined) return send(res, answer);
      if (qualityOf(accept, 'deflate') > 0) return sendBytes(res, answer.status, { ...answer.headers, 'content-encoding': 'deflate', vary: 'Accept-Encoding' }, deflateRawSync(answer.body));
      if (qualityOf(accept, 'gzip') > 0) return sendBytes(res, answer.status, { ...answer.headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding' }, gzipSync(answer.body));
      send(res, answer);
    }),
);

const rangeNoContentRange = target(
  'range-206-without-content-range',
  true,
  'A hand-rolled Range support slices the body of a read\'s 200 for `Range: bytes=a-b` and answers 206 with the slice, but without Content-Range (RFC 9110 §15.3.7.1: a single-part 206 MUST carry Content-Range)',
  () =>
    serveWriter((res, answer, request) => {
      const range = /^bytes=(\d*)-(\d*)$/.exec(String(request.headers.range ?? '').trim());
      if (!range || answer.status !== 200 || answer.body === undefined || request.method !== 'GET') return send(res, answer);
      const bytes = Buffer.from(answer.body);
      const first = range[1] === '' ? Math.max(0, bytes.length - Number(range[2])) : Number(range[1]);
      const last = range[1] !== '' && range[2] !== '' ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
      if (first > last) return send(res, answer);
      sendBytes(res, 206, { ...answer.headers, 'accept-ranges': 'bytes' }, bytes.subarray(first, last + 1));
    }),
);

const lenientIms = target(
  'if-modified-since-parsed-leniently',
  true,
  'Reads carry Last-Modified, and If-Modified-Since is read with `new Date(value)`, which takes what is no HTTP-date (`2099-01-01`, an ISO time, `2099`): such a value later than Last-Modified gets 304 (RFC 9110 §13.1.3: a recipient MUST ignore an If-Modified-Since that is not a valid HTTP-date); a valid one is honoured correctly',
  () => {
    const lastModified = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    return serveWriter((res, answer, request) => {
      if (answer.status !== 200 || !isRead(request)) return send(res, answer);
      const since = request.headers['if-modified-since'];
      const date = since === undefined ? NaN : new Date(since).getTime();
      if (!Number.isNaN(date) && date >= lastModified) return sendBytes(res, 304, { 'last-modified': httpDate(lastModified) }, undefined);
      send(res, { ...answer, headers: { ...answer.headers, 'last-modified': httpDate(lastModified) } });
    });
  },
);

const userAgentRequired = target(
  'user-agent-required-400',
  true,
  'An API gateway policy copied from GitHub\'s API: a request without User-Agent gets 400 ValidationError "User-Agent header is required", before auth (decision required-request-headers: no header besides Authorization is required)',
  () =>
    serveWriter((res, answer, request) => {
      if (request.headers['user-agent'] === undefined) return send(res, errorAnswer(faithfulParts, 400, request));
      send(res, answer);
    }),
);

const xhrEnvelope = target(
  'xhr-errors-as-200-envelope',
  true,
  'An old jQuery-era convention: when X-Requested-With is XMLHttpRequest, errors are answered 200 `{"success":false,"status":401,"error":{id,name,message}}` so that $.ajax success handlers see them (decision required-request-headers: X-Requested-With changes no answer)',
  () =>
    serveWriter((res, answer, request) => {
      const xhr = String(request.headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest';
      if (!xhr || answer.status < 400 || answer.body === undefined || !answer.headers['content-type']?.startsWith('application/json')) return send(res, answer);
      send(res, json(200, { success: false, status: answer.status, error: JSON.parse(answer.body) }));
    }),
);

const fieldsQuery = target(
  'fields-query-selects-members',
  true,
  'Sparse fieldsets: a `fields` query parameter (`?fields=name,type`) keeps only those members in every environment entry and in the OIDC settings (decision required-request-headers: a query the spec does not name, `fields` among them, changes no answer)',
  () =>
    serveWriter((res, answer, request) => {
      const fields = new URLSearchParams(request.url.split('?')[1] ?? '').get('fields');
      if (!fields || answer.status !== 200) return send(res, answer);
      const keep = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => fields.split(',').includes(k)));
      send(res, rewriteJson(answer, (b) => ('environments' in b ? { ...b, environments: b.environments.map(keep) } : keep(b))));
    }),
);

const headLengthZero = target(
  'head-content-length-zero',
  true,
  'HEAD is answered like GET but the writer computes Content-Length from the bytes it actually sends, none: `Content-Length: 0` where the GET sends hundreds (RFC 9110 §8.6: a HEAD answer MUST NOT carry a Content-Length other than the GET\'s)',
  () =>
    serveWriter((res, answer, request) => {
      if (request.method !== 'HEAD') return send(res, answer);
      res.writeHead(answer.status, { ...answer.headers, 'content-length': '0' });
      res.end();
    }),
);

const dateToString = target(
  'date-header-from-tostring',
  true,
  'A logging middleware sets the Date header itself with `new Date().toString()`: `Date: Sat Nov 28 2026 08:00:00 GMT+0000 (Coordinated Universal Time)` (RFC 9110 §5.6.7, §6.6.1: Date is an HTTP-date, IMF-fixdate when generated)',
  () =>
    serveWriter((res, answer) => {
      res.setHeader('date', new Date().toString());
      send(res, answer);
    }),
);

const lastModifiedLocal = target(
  'last-modified-local-time-as-gmt',
  true,
  'Reads carry Last-Modified, the update time formatted from local wall-clock fields (UTC+2, a server in Berlin in summer) followed by "GMT": it lies two hours after the answer\'s Date (RFC 9110 §8.8.2.1: Last-Modified no later than Date)',
  () =>
    serveWriter((res, answer, request) => {
      if (answer.status !== 200 || !isRead(request)) return send(res, answer);
      send(res, { ...answer, headers: { ...answer.headers, 'last-modified': httpDate(Date.now() + 2 * 3600_000) } });
    }),
);

const lowerCaseMethod = target(
  'method-names-case-folded',
  true,
  'A hand-written HTTP/1.1 server upper-cases the request line\'s method before routing: `delete /api/admin/service-account/1/token/1` deletes the token and `get` reads (RFC 9110 §9.1: method names are case-sensitive; decision unlisted-methods: `delete` is never the operation)',
  () => serveNet((answer, request, close) => plainBytes(answer, request, { close }), { strict: true, requireHost: true, rewrite: (request) => ({ ...request, method: request.method.toUpperCase() }) }),
);

const decimalChunks = target(
  'chunk-sizes-in-decimal',
  true,
  'A hand-written HTTP/1.1 server sends bodies chunked (64-byte chunks) but writes each chunk size with `String(n)`, in decimal, where RFC 9112 §7.1 says hexadecimal: a 64-byte chunk is announced as 0x64 = 100 bytes',
  // An HTTP/1.0 client gets Content-Length (RFC 9112 §7: chunked is HTTP/1.1 only): the defect is the size line alone.
  () => serveNet((answer, request, close) => (request.version === 'HTTP/1.0' ? plainBytes(answer, request, { close }) : chunkedBytes(answer, request, { chunkSize: 64, size: (length) => String(length), close }))),
);

// ---------------------------------------------------------------- conformant: unusual but allowed

const keepAliveMax = target(
  'keep-alive-max-three-then-close',
  false,
  'Each connection serves three requests: the third answer on a connection says `Connection: close` and the server closes the connection after it, so clients open a new one (RFC 9112 §9.6: a server may close after any answer, signalling it with close; decision requests-independent)',
  () => {
    const store = new Store();
    const served = new WeakMap<object, number>();
    return serve((req, res) => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      const answer = handle(store, faithfulParts, toApiRequest(req));
      // node:http writes `Connection: keep-alive` and `Keep-Alive: timeout=5` on the others, and closes after a close.
      send(res, count >= 3 ? { ...answer, headers: { ...answer.headers, connection: 'close' } } : answer);
    });
  },
);

const secretOmitted = target(
  'oidc-secret-never-returned',
  false,
  'The OIDC settings answer every other field but never the `secret` (a server that does not hand secrets out, even to admins) (API §2.2: no field is marked required)',
  () =>
    serveApp({
      after: (answer, request) =>
        answer.status === 200 && pathOf(request.url).endsWith('/auth/oidc/settings') ? rewriteJson(answer, ({ secret: _secret, ...rest }) => rest) : answer,
    }),
);

const extraFields = target(
  'extra-fields-in-every-object',
  false,
  'Every object carries members the description does not list: a top-level `project`, an `id` and `createdAt` per environment entry, `id` and `featureName: null` in default strategies, `id` in constraints, `overrides: []` in variants, `updatedAt` in the OIDC settings (decision additional-properties: allowed in every object)',
  () => {
    const createdAt = '2026-01-15T09:30:00.000Z';
    return serveApp({
      after: (answer, request) => {
        if (answer.status !== 200 || !isRead(request)) return answer;
        return rewriteJson(answer, (body) => {
          if (!('environments' in body)) return { ...body, updatedAt: createdAt };
          const project = decodeURIComponent(pathOf(request.url).split('/').pop()!);
          return {
            ...body,
            project,
            environments: body.environments.map((e: any) => ({
              ...e,
              id: `${project}:${e.name}`,
              createdAt,
              ...(e.defaultStrategy
                ? {
                    defaultStrategy: {
                      ...e.defaultStrategy,
                      id: `${project}-${e.name}-default`,
                      featureName: null,
                      constraints: (e.defaultStrategy.constraints ?? []).map((c: object, i: number) => ({ ...c, id: `c${i + 1}` })),
                      variants: (e.defaultStrategy.variants ?? []).map((v: object) => ({ ...v, overrides: [] })),
                    },
                  }
                : {}),
            })),
          };
        });
      },
    });
  },
);

/** Drops members whose value is false, 0, an empty array or an empty object (a serializer's "omit defaults"). */
function omitDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(omitDefaults);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const empty = v === false || v === 0 || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
    if (!empty || k === 'name') out[k] = omitDefaults(v);
  }
  return out;
}

const sparseEntries = target(
  'environment-entries-omit-defaults',
  false,
  'A protobuf-style serializer omits default values inside environment entries: `protected: false`, counts of 0, `sortOrder: 0`, `disabled: false`, `inverted: false`, empty arrays and `parameters: {}` are left out (decisions: only `name` is required in an entry; none in the strategy, constraint, variant objects)',
  () =>
    serveApp({
      after: (answer, request) =>
        answer.status === 200 && pathOf(request.url).includes('/environments/project/')
          ? rewriteJson(answer, (b) => ({ version: b.version, environments: b.environments.map(omitDefaults) }))
          : answer,
    }),
);

const ALLOWED_ORIGIN = 'https://flags.example.com';

const preflightAllowlist = target(
  'preflight-origin-allow-list-403',
  false,
  'CORS preflights (OPTIONS with Origin and Access-Control-Request-Method) from an origin not on the allow-list get 403 NoAccessError (JSON) before auth, from the listed origin 204 with the CORS headers; other requests are unaffected by Origin (decision options-requests: a refusal such as 403 that reveals no more than without a key)',
  () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const origin = request.headers.origin;
      if (request.method === 'OPTIONS' && origin !== undefined && request.headers['access-control-request-method'] !== undefined) {
        if (origin !== ALLOWED_ORIGIN) return send(res, { ...errorAnswer(faithfulParts, 403, request), headers: { ...errorAnswer(faithfulParts, 403, request).headers, vary: 'Origin' } });
        return send(res, {
          status: 204,
          headers: {
            'access-control-allow-origin': ALLOWED_ORIGIN,
            'access-control-allow-methods': 'GET, HEAD, DELETE, OPTIONS',
            'access-control-allow-headers': 'Authorization, Content-Type',
            'access-control-max-age': '600',
            vary: 'Origin',
          },
          body: undefined,
        });
      }
      send(res, handle(store, faithfulParts, request));
    });
  },
);

/** The methods this app implements anywhere; any other gets 501 (RFC 9110 §9.1, §15.6.2). */
const IMPLEMENTED = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE', 'PUT', 'POST', 'PATCH']);

const unknownMethods501 = target(
  'unimplemented-methods-501',
  false,
  'Methods the server implements nowhere (PROPFIND, TRACE, PURGE, LOCK, ...) get 501 Not Implemented in plain text before routing and auth; PUT, POST and PATCH still get 405 with Allow (decision unlisted-methods: 501 for a method the server does not implement)',
  () =>
    serveWriter((res, answer, request) => {
      if (!IMPLEMENTED.has(request.method)) return send(res, { status: 501, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Implemented' });
      send(res, answer);
    }),
);

const authBeforeMethod = target(
  'auth-before-method-check',
  false,
  'Authentication runs before the method is looked at: PUT, POST, PATCH, GET on the token path and DELETE on the reads get the JSON 401 without a valid key and 405 with Allow with one (any valid key); HEAD and OPTIONS as before (decision unlisted-methods: 401 before the method is looked at)',
  () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const route = routeOf(pathOf(request.url));
      const unlisted = route.kind === 'operation' && request.method !== route.method && request.method !== 'HEAD' && request.method !== 'OPTIONS';
      if (unlisted) {
        const key = faithfulParts.presentedKey(request);
        if (key === undefined || !store.keys.has(key)) return send(res, errorAnswer(faithfulParts, 401, request));
      }
      send(res, handle(store, faithfulParts, request));
    });
  },
);

const contentRefused415 = target(
  'request-content-refused-415',
  false,
  'A request that carries content (any method: the operations take none) gets 415 Unsupported Media Type in plain text before auth, the content read whole; an empty body with Content-Type: application/json is no content and gets the ordinary answer (decision malformed-input-refusals: content gets a refusal, 413 or 415 among them, or the answer without it)',
  () => {
    const store = new Store();
    const received = new WeakMap<IncomingMessage, number>();
    return serve(
      async (req, res) => {
        if (!req.readableEnded) await once(req, 'end');
        if ((received.get(req) ?? 0) > 0) return send(res, { status: 415, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Unsupported Media Type: this operation takes no content' });
        send(res, handle(store, faithfulParts, toApiRequest(req)));
      },
      // Counts the content's bytes from the start (serve() resumes the request before its handler runs).
      (server) =>
        server.prependListener('request', (req: IncomingMessage) => {
          received.set(req, 0);
          req.on('data', (chunk: Buffer) => received.set(req, received.get(req)! + chunk.length));
        }),
    );
  },
);

export const TARGETS: readonly RedTeamTarget[] = [
  enabledElsewhere,
  duplicatedByJoin,
  tokenAnyAccount,
  wholeAccount,
  projectAcl,
  emptyListForUnknown,
  unknownKey403,
  keyDecoded,
  prefixMatch,
  forbiddenNoMessage,
  minifiedNames,
  lockLeak,
  gzipQZero,
  deflateRaw,
  rangeNoContentRange,
  lenientIms,
  userAgentRequired,
  xhrEnvelope,
  fieldsQuery,
  headLengthZero,
  dateToString,
  lastModifiedLocal,
  lowerCaseMethod,
  decimalChunks,
  keepAliveMax,
  secretOmitted,
  extraFields,
  sparseEntries,
  preflightAllowlist,
  unknownMethods501,
  authBeforeMethod,
  contentRefused415,
];
