// Red team round seventeen: 22 broken and 10 conformant servers, written from API.md, the spec and
// its decisions (docs/decisions.md) without reading the suite. Each is the faithful app of ../app.ts
// with one part replaced; the description says what, in one line. BASELINE.md cites the rule each
// breaks (or the rule that allows the unusual behaviour of a conformant one).
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants as zlib, gzipSync } from 'node:zlib';
import {
  type Answer,
  type ApiRequest,
  afterRoute,
  errorAnswer,
  faithfulParts,
  handle,
  header,
  json,
  lookup,
  type Parts,
  pathOf,
  type RedTeamTarget,
  type Route,
  type RunningTarget,
  routeOf,
  send,
  serve,
  serveApp,
  Store,
  target,
  toApiRequest,
} from '../app.ts';
import { chunkedBytes, type NetRequest, plainBytes, serveNet, statusLine } from '../net-server.ts';

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

/** Whether the request reaches the operation of `route`: a valid key that holds its permission. */
function admitted(store: Store, request: ApiRequest, route: Extract<Route, { kind: 'operation' }>): boolean {
  const key = validKey(store, request);
  return key !== undefined && store.permits(key, route.operationId);
}

/** A node:http target whose handler gets the store and the parsed request, and answers with `send`. */
function serveWith(answer: (store: Store, request: ApiRequest) => Answer | Promise<Answer>, store = new Store(), configure?: Parameters<typeof serve>[1]): Promise<RunningTarget> {
  return serve(async (req: IncomingMessage, res: ServerResponse) => {
    send(res, await answer(store, toApiRequest(req)));
  }, configure);
}

/** An answer written exactly as given: status, header fields (a list makes several lines), the bytes (none on HEAD). */
interface Written {
  status: number;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

function serveWritten(write: (store: Store, request: ApiRequest) => Written | Promise<Written>): Promise<RunningTarget> {
  const store = new Store();
  return serve(async (req: IncomingMessage, res: ServerResponse) => {
    const request = toApiRequest(req);
    const w = await write(store, request);
    res.writeHead(w.status, w.headers);
    res.end(request.method === 'HEAD' ? undefined : w.body);
  });
}

/** The ordinary bytes of an answer as a Written (Content-Length in bytes; none on 204 and 304). */
function written(answer: Answer): Written {
  const body = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body, 'utf8');
  const bodiless = answer.status === 204 || answer.status === 304;
  return { status: answer.status, headers: bodiless ? { ...answer.headers } : { ...answer.headers, 'content-length': String(body.length) }, body: bodiless ? undefined : body };
}

/** Whether Accept-Encoding accepts `coding` (q > 0, by name or `*`; RFC 9110 §12.5.3). */
function accepts(request: ApiRequest, coding: string): boolean {
  const value = header(request, 'accept-encoding');
  if (value === undefined) return false;
  let named: number | undefined;
  let star: number | undefined;
  for (const item of value.split(',')) {
    const [name = '', ...params] = item.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (name.trim() === coding) named = q;
    else if (name.trim() === '*') star = q;
  }
  return (named ?? star ?? 0) > 0;
}

/** Whether an answer is a read's 200 (GET or HEAD of a read operation). */
function readSuccess(request: ApiRequest, answer: Answer): boolean {
  const route = operationOf(request);
  return route !== undefined && route.method === 'GET' && answer.status === 200 && answer.body !== undefined;
}

/** A JSON body, parsed, or undefined. */
function bodyOf(answer: Answer): any {
  if (answer.body === undefined) return undefined;
  try {
    return JSON.parse(answer.body);
  } catch {
    return undefined;
  }
}

/** The entity tags of an If-None-Match value, or '*' (RFC 9110 §13.1.2). */
function ifNoneMatch(request: ApiRequest): string[] | '*' | undefined {
  const value = header(request, 'if-none-match');
  if (value === undefined) return undefined;
  if (value.trim() === '*') return '*';
  return value.split(',').map((t) => t.trim()).filter((t) => t !== '');
}

const opaque = (tag: string) => tag.replace(/^W\//, '');

// ---------------------------------------------------------------- broken: what the API names

const brokenOnTheApi: RedTeamTarget[] = [
  target(
    'unknown-query-parameter-400',
    true,
    "express-openapi-validator with its default allowUnknownQueryParameters: false: once the key is accepted, any query parameter the spec does not declare (a cache-buster `?_=1700000000000`) gets 400 ValidationError \"Unknown query parameter '_'\", on every operation",
    () =>
      serveWith((store, request) => {
        const route = operationOf(request);
        const q = request.url.indexOf('?');
        if (route && q >= 0 && admitted(store, request, route)) {
          const unknown = [...new URLSearchParams(request.url.slice(q + 1)).keys()][0];
          if (unknown !== undefined) return json(400, { id: randomUUID(), name: 'ValidationError', message: `Unknown query parameter '${unknown}'` });
        }
        return handle(store, parts, request);
      }),
  ),
  target(
    'error-names-camel-cased',
    true,
    'ASP.NET Core with JsonStringEnumConverter(JsonNamingPolicy.CamelCase): the error kind is an enum and is written camel-cased, so a 401 says `"name": "authenticationRequired"`, a 403 `noAccessError`, a 404 `notFoundError`',
    () =>
      serveApp({
        after: (answer) => {
          const body = bodyOf(answer);
          if (answer.status < 400 || typeof body?.name !== 'string') return answer;
          return { ...answer, body: JSON.stringify({ ...body, name: body.name[0].toLowerCase() + body.name.slice(1) }) };
        },
      }),
  ),
  target(
    'proto3-mapper-drops-version',
    true,
    'The environments answer is rendered from a proto3 message whose `schema_version` field the mapper never fills; proto3 JSON omits fields at their default (0), so every environments 200 lacks the required `version` (and its entries lack false, 0 and empty members)',
    () =>
      serveApp({
        after: (answer, request) => {
          if (!readSuccess(request, answer) || operationOf(request)?.operationId !== 'getProjectEnvironments') return answer;
          const { version: _unmapped, ...rest } = bodyOf(answer);
          return { ...answer, body: JSON.stringify(omitDefaults(rest)) };
        },
      }),
  ),
  target(
    'xssi-prefix-on-json',
    true,
    "Google-style XSSI protection left on for the API: every JSON body (200s and errors) starts with `)]}'` and a newline, under Content-Type: application/json, so no JSON parser reads it",
    () =>
      serveApp({
        after: (answer) => (answer.body === undefined || !String(answer.headers['content-type']).includes('json') ? answer : { ...answer, body: `)]}',\n${answer.body}` }),
      }),
  ),
  target(
    'json-single-quote-escaped',
    true,
    "Error bodies are written by a hand-made serializer that escapes for JavaScript string literals: the messages' apostrophes come out as `\\'` (`can\\'t`, `haven\\'t`), an escape JSON does not have, so no 401, 403 or 404 body parses",
    () =>
      serveApp({
        after: (answer) => {
          const body = bodyOf(answer);
          if (answer.status < 400 || typeof body?.id !== 'string') return answer;
          const message = APOSTROPHE_MESSAGES[answer.status] ?? body.message;
          const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/'/g, "\\'");
          return { ...answer, body: `{"id":"${esc(body.id)}","name":"${esc(body.name)}","message":"${esc(message)}"}` };
        },
      }),
  ),
  target(
    'not-found-cached-by-token-id',
    true,
    'A negative-lookup cache for deletes keyed by the token id alone (token ids were assumed global): after a 404 for `/service-account/2/token/1`, a delete of an existing token 1 in any account (1/1) gets 404 for 2 s and is not deleted',
    () => {
      const missing = new Map<string, number>();
      return serveWith((store, request) => {
        const route = operationOf(request);
        if (route?.operationId !== 'deleteServiceAccountToken' || !admitted(store, request, route)) return handle(store, parts, request);
        const tokenId = route.params[1]!;
        if ((missing.get(tokenId) ?? 0) > Date.now()) return errorAnswer(parts, 404, request);
        const answer = handle(store, parts, request);
        if (answer.status === 404) missing.set(tokenId, Date.now() + 2000);
        return answer;
      });
    },
  ),
  target(
    'constraint-values-masked-for-viewer',
    true,
    'Field-level masking for keys without admin rights (constraint values are user ids, treated as PII): the environments-only key reads `"values": ["****","****"]` in every constraint where the full key reads the ids',
    () =>
      serveWith((store, request) => {
        const answer = handle(store, parts, request);
        const key = validKey(store, request);
        if (!readSuccess(request, answer) || operationOf(request)?.operationId !== 'getProjectEnvironments' || key === undefined || store.keys.get(key)!.has('*')) return answer;
        const body = bodyOf(answer);
        for (const e of body.environments) for (const c of e.defaultStrategy?.constraints ?? []) c.values = c.values.map(() => '****');
        return { ...answer, body: JSON.stringify(body) };
      }),
  ),
  target(
    'environments-embed-instance-settings',
    true,
    'The project entity eagerly loads its instance relation and the serializer writes it: every environments 200 carries `instance: {id, oidc: {...}}`, so the environments-only key (403 on the OIDC read) gets the OIDC secret there',
    () =>
      serveWith((store, request) => {
        const answer = handle(store, parts, request);
        if (!readSuccess(request, answer) || operationOf(request)?.operationId !== 'getProjectEnvironments') return answer;
        return { ...answer, body: JSON.stringify({ ...bodyOf(answer), instance: { id: 'flag-admin-eu-1', oidc: store.oidc } }) };
      }),
  ),
  target(
    'account-cache-refill-window-404',
    true,
    "Cache-aside on each account's token list: a delete evicts it and a background refill takes 800 ms, during which lookups see an empty placeholder list: deleting 1/1 and then 1/2 gets 404 for 1/2 (which stays), 1 s later 200",
    () => {
      const refilling = new Map<string, number>();
      return serveWith((store, request) => {
        const route = operationOf(request);
        if (route?.operationId !== 'deleteServiceAccountToken' || !admitted(store, request, route)) return handle(store, parts, request);
        if ((refilling.get(route.params[0]!) ?? 0) > Date.now()) return errorAnswer(parts, 404, request);
        const answer = handle(store, parts, request);
        if (answer.status === 200) refilling.set(route.params[0]!, Date.now() + 800);
        return answer;
      });
    },
  ),
  target(
    'spring-default-error-404',
    true,
    "The controller throws ResponseStatusException(NOT_FOUND) for an unknown project, which the app's @ControllerAdvice does not map: Spring Boot's default error JSON `{timestamp, status, error, path}` (no id, name or message) answers the environments 404",
    () =>
      serveApp({
        after: (answer, request) => {
          if (answer.status !== 404 || operationOf(request)?.operationId !== 'getProjectEnvironments') return answer;
          const timestamp = new Date().toISOString().replace('Z', '+00:00');
          return json(404, { timestamp, status: 404, error: 'Not Found', path: pathOf(request.url) });
        },
      }),
  ),
  target(
    'strategy-json-column-unparsed',
    true,
    'Default strategies live in a JSON column that the driver hands back as text (SQLite TEXT, MySQL without typeCast): every `defaultStrategy` is a string holding JSON (`"{\\"name\\":\\"flexibleRollout\\",…}"`), not an object',
    () =>
      serveApp({
        after: (answer, request) => {
          if (!readSuccess(request, answer) || operationOf(request)?.operationId !== 'getProjectEnvironments') return answer;
          const body = bodyOf(answer);
          for (const e of body.environments) if (e.defaultStrategy !== undefined) e.defaultStrategy = JSON.stringify(e.defaultStrategy);
          return { ...answer, body: JSON.stringify(body) };
        },
      }),
  ),
];

const APOSTROPHE_MESSAGES: Record<number, string> = {
  400: "The request data doesn't match what we expect.",
  401: "You haven't sent a valid API key in the Authorization header.",
  403: "This API key can't call this operation.",
  404: "We couldn't find the requested resource.",
};

/** proto3 JSON mapping: fields at their default (false, 0, '', empty list or map) are left out. */
function omitDefaults(value: any): any {
  if (Array.isArray(value)) return value.map(omitDefaults);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === false || v === 0 || v === '' || v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[k] = omitDefaults(v);
  }
  return out;
}

// ---------------------------------------------------------------- broken: what the API leaves to HTTP

const brokenOnHttp: RedTeamTarget[] = [
  target(
    'envoy-426-to-http-1.0',
    true,
    'An Envoy in front with its default `accept_http_10: false`: every HTTP/1.0 request, key or not, gets `426 Upgrade Required` in plain text instead of the answer HTTP/1.1 gets',
    () => {
      const store = new Store();
      return serve((req, res) => {
        if (req.httpVersion === '1.0') {
          res.writeHead(426, { 'content-type': 'text/plain', 'content-length': '16', upgrade: 'HTTP/1.1', connection: 'close' });
          res.end('Upgrade Required');
          return;
        }
        send(res, handle(store, parts, toApiRequest(req)));
      });
    },
  ),
  target(
    'gzip-stream-not-finished',
    true,
    'The compression step flushes its gzip stream with Z_SYNC_FLUSH and never finishes it: bodies sent `Content-Encoding: gzip` lack the final block and the CRC32/size trailer, so gzip decoders stop with "unexpected end of file"',
    () =>
      serveWritten((store, request) => {
        const answer = handle(store, parts, request);
        if (answer.body === undefined || !accepts(request, 'gzip')) return written(answer);
        const body = gzipSync(answer.body, { finishFlush: zlib.Z_SYNC_FLUSH });
        return { status: answer.status, headers: { ...answer.headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'content-length': String(body.length) }, body };
      }),
  ),
  target(
    'head-answer-cached-for-get',
    true,
    "A 2 s micro-cache in front keyed by URL and Authorization but not the method (nginx's proxy_cache_key without $request_method, proxy_cache_convert_head off): a HEAD's 200 is stored with the body it carried, none, and a GET right after gets 200 with an empty body",
    () => {
      const cache = new Map<string, { answer: Answer; until: number }>();
      return serveWith((store, request) => {
        const route = operationOf(request);
        if (route?.method !== 'GET') return handle(store, parts, request);
        const key = `${request.url}\u0000${header(request, 'authorization') ?? ''}`;
        const hit = cache.get(key);
        if (hit && hit.until > Date.now()) return hit.answer;
        const answer = handle(store, parts, request);
        if (answer.status === 200) cache.set(key, { answer: request.method === 'HEAD' ? { ...answer, body: undefined } : answer, until: Date.now() + 2000 });
        return answer;
      });
    },
  ),
  target(
    'path-decoded-before-query-split',
    true,
    'The request target is percent-decoded as a whole before the query is split off: `/environments/project/default%3Fx` is project default (the `?` it decoded starts a query) and `/service-account/1/token/3%3F` deletes token 3',
    () =>
      serveWith((store, request) => {
        let decoded: string;
        try {
          decoded = decodeURIComponent(request.url);
        } catch {
          return handle(store, parts, request);
        }
        // The router decodes each segment; the path is decoded already, so its `%` are handed over escaped.
        return afterRoute(store, parts, request, routeOf(pathOf(decoded).replace(/%/g, '%25')));
      }),
  ),
  target(
    'unknown-method-enum-500',
    true,
    "Methods are mapped onto an enum that knows GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS and TRACE (Spring's HttpMethod before 6.0): PROPFIND, PURGE, SEARCH or any other method node:http passes on throws, 500, before auth",
    () =>
      serveWith((store, request) => {
        if (!['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'].includes(request.method)) throw new Error(`No enum constant HttpMethod.${request.method}`);
        return handle(store, parts, request);
      }),
  ),
  target(
    'ipv6-host-header-500',
    true,
    "Every answer carries `Link: <self URL>; rel=\"self\"`, built from `host.split(':')`: an IPv6 literal Host (`[::1]:PORT`) yields the hostname `[`, `new URL()` throws, and the request gets 500 whatever its key",
    () =>
      serveWith((store, request) => {
        const [hostname = '', port] = (header(request, 'host') ?? '127.0.0.1').split(':');
        const self = new URL(`http://${hostname}${port ? `:${port}` : ''}${pathOf(request.url)}`);
        const answer = handle(store, parts, request);
        return { ...answer, headers: { ...answer.headers, link: `<${self.href}>; rel="self"` } };
      }),
  ),
  target(
    'content-type-sent-twice',
    true,
    "Go-style `Header().Add` in two places: a middleware adds a default `Content-Type: text/plain; charset=utf-8` and the handler adds its JSON type, so every answer with content carries two Content-Type lines (node's client keeps the first, text/plain)",
    () =>
      serveWritten((store, request) => {
        const w = written(handle(store, parts, request));
        const type = w.headers['content-type'];
        if (typeof type === 'string') w.headers['content-type'] = ['text/plain; charset=utf-8', type];
        return w;
      }),
  ),
  target(
    'not-modified-content-length-zero',
    true,
    "Reads carry a strong ETag and a matching If-None-Match gets 304 after auth and lookup, but the writer sets Content-Length from the body it sends, none: `Content-Length: 0` on a 304 whose 200 is hundreds of bytes",
    () =>
      serveWith((store, request) => {
        const answer = handle(store, parts, request);
        if (!readSuccess(request, answer)) return answer;
        const etag = `"${createHash('sha256').update(answer.body!).digest('base64url').slice(0, 20)}"`;
        const tags = ifNoneMatch(request);
        if (tags === '*' || tags?.includes(etag)) return { status: 304, headers: { etag, 'content-length': '0' } };
        return { ...answer, headers: { ...answer.headers, etag } };
      }),
  ),
  target(
    'proxied-body-chunked-twice',
    true,
    "A node gateway copies the upstream's `Transfer-Encoding: chunked` and pipes the upstream's raw chunked bytes into its own response, which node chunks again: a client that decodes once gets `1f4\\r\\n{…}\\r\\n0\\r\\n\\r\\n` as the body",
    () => {
      const store = new Store();
      return serve((req, res) => {
        const request = toApiRequest(req);
        const answer = handle(store, parts, request);
        if (answer.status === 204 || answer.status === 304) return send(res, answer);
        const body = answer.body ?? '';
        const upstream = body === '' ? '0\r\n\r\n' : `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
        res.writeHead(answer.status, { ...answer.headers, 'transfer-encoding': 'chunked' });
        res.end(upstream);
      });
    },
  ),
  target(
    'canonical-host-redirect',
    true,
    "A canonical-host middleware (rack-canonical-host style) set to the listening address: a request whose Host names the server otherwise (`localhost:PORT`) gets 301 to `http://127.0.0.1:PORT/…`, before auth, instead of its answer",
    () =>
      serveWith((store, request) => {
        const host = header(request, 'host');
        const canonical = `127.0.0.1:${request.socket.localPort}`;
        if (host !== undefined && host !== canonical) return { status: 301, headers: { location: `http://${canonical}${request.url}`, 'content-type': 'text/plain' }, body: 'Moved Permanently' };
        return handle(store, parts, request);
      }),
  ),
  target(
    'range-open-ended-416',
    true,
    'Reads honour `Range: bytes=a-b` and suffix ranges `bytes=-n` with correct 206s, but the parser rejects an open-ended `bytes=a-` (what browsers and download managers send) as invalid: 416 `Content-Range: bytes */len` although the range is satisfiable',
    () =>
      serveWritten((store, request) => {
        const answer = handle(store, parts, request);
        const w = written(answer);
        if (!readSuccess(request, answer)) return w;
        w.headers['accept-ranges'] = 'bytes';
        const range = header(request, 'range');
        if (range === undefined || header(request, 'if-range') !== undefined || request.method !== 'GET') return w;
        const body = w.body!;
        const len = body.length;
        const slice = (first: number, last: number): Written => ({
          status: 206,
          headers: { ...answer.headers, 'accept-ranges': 'bytes', 'content-range': `bytes ${first}-${last}/${len}`, 'content-length': String(last - first + 1) },
          body: body.subarray(first, last + 1),
        });
        const unsatisfiable: Written = { status: 416, headers: { 'content-range': `bytes */${len}`, 'content-length': '0' }, body: Buffer.alloc(0) };
        const both = /^bytes=(\d+)-(\d+)$/.exec(range.trim());
        if (both) {
          const first = Number(both[1]);
          const last = Math.min(Number(both[2]), len - 1);
          return first <= Number(both[2]) && first < len ? slice(first, last) : unsatisfiable;
        }
        const suffix = /^bytes=-(\d+)$/.exec(range.trim());
        if (suffix) return Number(suffix[1]) === 0 ? unsatisfiable : slice(Math.max(0, len - Number(suffix[1])), len - 1);
        if (/^bytes=\d+-$/.test(range.trim())) return unsatisfiable;
        return w;
      }),
  ),
];

// ---------------------------------------------------------------- conformant

/** Raw JSON text with a placeholder number replaced (JSON.stringify cannot write an integer beyond 2^53 exactly). */
const LONG_MAX_PLACEHOLDER = -987654321;

const conformant: RedTeamTarget[] = [
  target(
    'names-differing-in-normalisation',
    false,
    'Project default also enables `qa-zürich` twice over: once typed on Linux (NFC, ü) and once imported from a Mac (NFD, u + U+0308), two environments whose names differ only in Unicode normalisation, compared exactly as strings',
    () => {
      const store = new Store();
      for (const [name, count] of [['qa-z\u00fcrich', 3], ['qa-zu\u0308rich', 5]] as const) {
        store.instanceEnvironments.set(name, { name, type: 'qa', protected: false, sortOrder: 400 });
        store.projects.get('default')!.push({ name, enabled: true, projectApiTokenCount: 0, projectEnabledToggleCount: count });
      }
      return serveWith((s, request) => handle(s, parts, request), store);
    },
  ),
  target(
    'server-clock-ahead-40s',
    false,
    "The server's clock runs 40 s ahead (NTP not set up): every Date is 40 s in the client's future, and the reads carry a Last-Modified (the start time by that clock) that is later than the client's now but never later than the answer's own Date",
    () => {
      const skew = 40_000;
      const started = new Date(Date.now() + skew).toUTCString();
      return serveWith((store, request) => {
        const answer = handle(store, parts, request);
        const date = new Date(Date.now() + skew).toUTCString();
        const headers = readSuccess(request, answer) ? { ...answer.headers, date, 'last-modified': started } : { ...answer.headers, date };
        return { ...answer, headers };
      });
    },
  ),
  target(
    'tombstone-404-with-deleted-at',
    false,
    'Deleted tokens leave a tombstone: deleting one again gets the 404 NotFoundError with its own message (`Token 1 of service account 1 was deleted at …`) and an extra `deletedAt` member; ids that never existed get the plain 404',
    () => {
      const tombstones = new Map<string, string>();
      return serveWith((store, request) => {
        const route = operationOf(request);
        if (route?.operationId !== 'deleteServiceAccountToken' || !admitted(store, request, route)) return handle(store, parts, request);
        const [account, token] = route.params as [string, string];
        const deletedAt = tombstones.get(`${account}/${token}`);
        if (deletedAt !== undefined && !lookup(store, parts, route.operationId, route.params).found) {
          return json(404, { id: randomUUID(), name: 'NotFoundError', message: `Token ${token} of service account ${account} was deleted at ${deletedAt}.`, deletedAt });
        }
        const answer = handle(store, parts, request);
        if (answer.status === 200) tombstones.set(`${account}/${token}`, new Date().toISOString());
        return answer;
      });
    },
  ),
  target(
    'etag-from-store-version',
    false,
    'Reads carry `ETag: W/"<n>"`, n the store\'s write counter, the same tag on every resource; a token delete changes every read\'s tag (bodies unchanged), and after auth and lookup If-None-Match holding the current tag gets 304 with ETag and Cache-Control',
    () => {
      let version = 0;
      return serveWith((store, request) => {
        const answer = handle(store, parts, request);
        if (operationOf(request)?.operationId === 'deleteServiceAccountToken' && answer.status === 200) version += 1;
        if (!readSuccess(request, answer)) return answer;
        const etag = `W/"${version}"`;
        const headers = { etag, 'cache-control': 'private, no-cache' };
        const tags = ifNoneMatch(request);
        if (tags === '*' || tags?.some((t) => opaque(t) === opaque(etag))) return { status: 304, headers };
        return { ...answer, headers: { ...answer.headers, ...headers } };
      });
    },
  ),
  target(
    'gzip-in-several-members',
    false,
    'A streaming compressor that gzips each write on its own: bodies sent `Content-Encoding: gzip` (when accepted) are three gzip members one after the other, which RFC 1952 §2.2 makes one gzip file',
    () =>
      serveWritten((store, request) => {
        const answer = handle(store, parts, request);
        if (answer.body === undefined || answer.body === '' || !accepts(request, 'gzip')) return written(answer);
        const raw = Buffer.from(answer.body, 'utf8');
        const third = Math.ceil(raw.length / 3);
        const body = Buffer.concat([0, 1, 2].map((i) => gzipSync(raw.subarray(i * third, (i + 1) * third))));
        return { status: answer.status, headers: { ...answer.headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'content-length': String(body.length) }, body };
      }),
  ),
  target(
    'http-1.0-close-delimited',
    false,
    'A CGI-style front (node:net): HTTP/1.0 requests get `HTTP/1.0` answers without Content-Length, the body ended by closing the connection; HTTP/1.1 requests as usual',
    () =>
      serveNet(
        (answer, request, close) => {
          if (request.version !== 'HTTP/1.0') return plainBytes(answer, request, { close });
          const lines = [statusLine(answer.status).replace('HTTP/1.1', 'HTTP/1.0'), `Date: ${new Date().toUTCString()}`, ...Object.entries(answer.headers).map(([n, v]) => `${n}: ${v}`), 'Connection: close'];
          const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
          const body = request.method === 'HEAD' || answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body, 'utf8');
          return { bytes: Buffer.concat([head, body]), close: true };
        },
        { strict: true, requireHost: true },
      ),
  ),
  target(
    'etag-per-content-coding',
    false,
    "Apache mod_deflate style: reads carry a strong ETag per representation, `\"h\"` for identity and `\"h-gzip\"` for the gzip one sent when accepted, with Vary: Accept-Encoding; If-None-Match matching the representation it would send gets 304 (after auth and lookup)",
    () =>
      serveWritten((store, request) => {
        const answer = handle(store, parts, request);
        if (!readSuccess(request, answer)) return written(answer);
        const h = createHash('sha1').update(answer.body!).digest('hex').slice(0, 16);
        const gzip = accepts(request, 'gzip');
        const etag = gzip ? `"${h}-gzip"` : `"${h}"`;
        const tags = ifNoneMatch(request);
        if (tags === '*' || tags?.includes(etag)) return { status: 304, headers: { etag, vary: 'Accept-Encoding' } };
        const body = gzip ? gzipSync(answer.body!) : Buffer.from(answer.body!, 'utf8');
        const coding: Record<string, string> = gzip ? { 'content-encoding': 'gzip' } : {};
        return { status: 200, headers: { ...answer.headers, ...coding, etag, vary: 'Accept-Encoding', 'content-length': String(body.length) }, body };
      }),
  ),
  target(
    'sort-order-long-max',
    false,
    "A Java service whose unsorted environments take Long.MAX_VALUE as their position: `development` says `\"sortOrder\": 9223372036854775807`, a JSON integer beyond 2^53 (JavaScript reads it as 9223372036854775808, still an integer)",
    () =>
      serveApp({
        after: (answer, request) => {
          if (!readSuccess(request, answer) || operationOf(request)?.operationId !== 'getProjectEnvironments') return answer;
          const body = bodyOf(answer);
          for (const e of body.environments) if (e.name === 'development') e.sortOrder = LONG_MAX_PLACEHOLDER;
          return { ...answer, body: JSON.stringify(body).replace(`"sortOrder":${LONG_MAX_PLACEHOLDER}`, '"sortOrder":9223372036854775807') };
        },
      }),
  ),
  target(
    'max-requests-per-socket-503',
    false,
    "node:http with server.maxRequestsPerSocket = 3: the third answer on a connection says `Connection: close`, and requests pipelined beyond it are not run but answered 503 (node's own behaviour)",
    () => serveWith((store, request) => handle(store, parts, request), new Store(), (server) => (server.maxRequestsPerSocket = 3)),
  ),
  target(
    'transfer-coding-capitalised',
    false,
    'A hand-written HTTP/1.1 writer (node:net) sends bodies chunked under `Transfer-Encoding: Chunked`, capitalised (transfer-coding names are case-insensitive, RFC 9112 §7); HTTP/1.0 requests get Content-Length',
    () =>
      serveNet(
        (answer, request: NetRequest, close) => {
          if (request.version === 'HTTP/1.0') return plainBytes(answer, request, { close });
          const bytes = chunkedBytes(answer, request, { close });
          const text = bytes.toString('latin1');
          const end = text.indexOf('\r\n\r\n');
          return Buffer.from(text.slice(0, end).replace('Transfer-Encoding: chunked', 'Transfer-Encoding: Chunked') + text.slice(end), 'latin1');
        },
        { strict: true, requireHost: true },
      ),
  ),
];

export const TARGETS: readonly RedTeamTarget[] = [...brokenOnTheApi, ...brokenOnHttp, ...conformant];
