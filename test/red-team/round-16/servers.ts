// Round sixteen of the red team (issue 18): 24 broken and 8 conformant servers, written from
// /work/shared/API.md, spec/openapi.yaml and its x-decisions (docs/decisions.md) alone, without
// reading the suite. Each is the faithful app of ../app.ts with ONE part replaced: an `after` hook
// on the answer, a layer in front of `handle`, the store, a `Parts` member, or the byte writer of
// ../net-server.ts. BASELINE.md beside this file cites the rule each one breaks or keeps.
import { createHash, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  afterRoute,
  type Answer,
  type ApiRequest,
  errorAnswer,
  faithfulParts,
  handle,
  header,
  json,
  type Parts,
  pathOf,
  type RedTeamTarget,
  routeOf,
  type RunningTarget,
  send,
  serve,
  serveApp,
  sleep,
  Store,
  target,
  toApiRequest,
} from '../app.ts';
import { plainBytes, serveNet } from '../net-server.ts';

/** The faithful app with a layer in front of `handle` (the layer may call it, or not). */
function serveFlow(flow: (store: Store, parts: Parts, request: ApiRequest) => Answer | Promise<Answer>, write: (res: ServerResponse, answer: Answer, request: ApiRequest) => void | Promise<void> = (res, answer) => send(res, answer)): Promise<RunningTarget> {
  const store = new Store();
  const parts: Parts = { ...faithfulParts };
  return serve(async (req, res) => {
    const request = toApiRequest(req);
    const answer = await flow(store, parts, request);
    await write(res, answer, request);
  });
}

/** The operation a request's path names, or undefined. */
function operationOf(request: ApiRequest) {
  const route = routeOf(pathOf(request.url));
  return route.kind === 'operation' ? route : undefined;
}

/** A JSON answer's body rewritten (the answer as is when it has no JSON body). */
function rewriteJson(answer: Answer, change: (body: any) => unknown): Answer {
  if (answer.body === undefined || !String(answer.headers['content-type'] ?? '').includes('json')) return answer;
  return { ...answer, body: JSON.stringify(change(JSON.parse(answer.body))) };
}

const isEnvironmentsRead = (request: ApiRequest, answer: Answer) => answer.status === 200 && operationOf(request)?.operationId === 'getProjectEnvironments';
const isRead = (request: ApiRequest, answer: Answer) => answer.status === 200 && operationOf(request)?.method === 'GET';

/** A strong entity tag over a body (RFC 9110 §8.8.3). */
const strongTag = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** Whether an If-None-Match value holds `tag` (weak comparison, RFC 9110 §13.1.2), or is `*`. */
function noneMatchHolds(value: string | undefined, tag: string): boolean {
  if (value === undefined) return false;
  if (value.trim() === '*') return true;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  return value.split(',').some((t) => opaque(t) === opaque(tag));
}

// ---------------------------------------------------------------------------------------------
// Broken: what the API names
// ---------------------------------------------------------------------------------------------

const deleteIdsSwapped = target(
  'delete-ids-swapped',
  true,
  'A Django re_path with unnamed groups passes the two ids positionally to a view declared `delete(request, token_id, account_id)`: the delete looks up token <account> of account <token>, so 1/2 and 2/4 get 404 (only 1/1 still works)',
  () =>
    serveFlow((store, parts, request) => {
      const route = routeOf(pathOf(request.url));
      if (route.kind === 'operation' && route.operationId === 'deleteServiceAccountToken') return afterRoute(store, parts, request, { ...route, params: [route.params[1]!, route.params[0]!] });
      return afterRoute(store, parts, request, route);
    }),
);

const deleteDecrementsApiTokenCount = target(
  'delete-decrements-api-token-count',
  true,
  'A token-deletion service written for project API tokens is reused for service-account tokens and also runs `UPDATE project_environments SET api_token_count = api_token_count - 1 WHERE api_token_count > 0`: every delete lowers projectApiTokenCount in every project',
  () =>
    serveFlow((store, parts, request) => {
      const answer = handle(store, parts, request);
      if (answer.status === 200 && request.method === 'DELETE') {
        for (const entries of store.projects.values()) {
          for (const entry of entries) if (typeof entry.projectApiTokenCount === 'number' && entry.projectApiTokenCount > 0) entry.projectApiTokenCount -= 1;
        }
      }
      return answer;
    }),
);

const jsonPayloadValueParsed = target(
  'json-payload-value-parsed',
  true,
  'The ORM maps variant payloads with a JSON-aware column type that parses the value when payload.type is "json": production\'s treatment variant carries `"value": {"checkout":"one-page"}`, an object, not the string API §2.1 names',
  () =>
    serveApp({
      after: (answer, request) =>
        isEnvironmentsRead(request, answer)
          ? rewriteJson(answer, (body) => {
              for (const e of body.environments) {
                for (const v of e.defaultStrategy?.variants ?? []) if (v.payload?.type === 'json' && typeof v.payload.value === 'string') v.payload.value = JSON.parse(v.payload.value);
              }
              return body;
            })
          : answer,
    }),
);

const environmentsAsMapByName = target(
  'environments-as-map-by-name',
  true,
  'The entity holds its environments in a Map<String, Environment> keyed by name (Jackson writes a Map as an object): `"environments": {"development": {...}, "production": {...}}` instead of an array',
  () =>
    serveApp({
      after: (answer, request) =>
        isEnvironmentsRead(request, answer) ? rewriteJson(answer, (body) => ({ ...body, environments: Object.fromEntries(body.environments.map((e: { name: string }) => [e.name, e])) })) : answer,
    }),
);

const invalidKey401NamedNoAccess = target(
  'invalid-key-401-named-no-access',
  true,
  'The key lookup throws NoAccessError("unknown API key") with statusCode 401: a missing key gets 401 AuthenticationRequired, but a present, unknown key gets 401 with `"name": "NoAccessError"`',
  () =>
    serveApp({
      after: (answer, request) => {
        const presented = faithfulParts.presentedKey(request);
        if (answer.status === 401 && presented !== undefined && presented !== '') return rewriteJson(answer, (body) => ({ ...body, name: 'NoAccessError', message: 'Unknown API key.' }));
        return answer;
      },
    }),
);

const oidcFirstReadBeforeLoad = target(
  'oidc-first-read-before-load',
  true,
  'The OIDC settings are loaded lazily and the first authorised read does not await the loader (a missing `await`): it answers the empty defaults `{"enabled": false}`, every later read the stored settings',
  () => {
    let loaded = false;
    return serveApp({
      after: (answer, request) => {
        if (answer.status !== 200 || operationOf(request)?.operationId !== 'getOidcSettings') return answer;
        if (loaded) return answer;
        loaded = true;
        return json(200, { enabled: false });
      },
    });
  },
);

const bearerPrefixStrippedWithoutSpace = target(
  'bearer-prefix-stripped-without-space',
  true,
  'The scheme is removed with `value.replace(/^bearer\\s*/i, "")`: `\\s*` also matches no space, so `Bearermock-admin-key` (a key with six characters more) is the admin key',
  () =>
    serveApp({
      parts: {
        presentedKey(request) {
          const value = request.headers.authorization;
          if (value === undefined) return undefined;
          return value.replace(/^[ \t]+|[ \t]+$/g, '').replace(/^bearer\s*/i, '');
        },
      },
    }),
);

const templatedJsonTrailingComma = target(
  'templated-json-trailing-comma',
  true,
  'The environments answer is rendered by a template loop that writes `{{ env | tojson }},` after every entry: the array ends `...},]`, which is not JSON (RFC 8259 §5)',
  () =>
    serveApp({
      after: (answer, request) => {
        if (!isEnvironmentsRead(request, answer)) return answer;
        const body = JSON.parse(answer.body!) as { version: number; environments: unknown[] };
        const rendered = `{"version":${body.version},"environments":[${body.environments.map((e) => `${JSON.stringify(e)},`).join('')}]}`;
        return { ...answer, body: rendered };
      },
    }),
);

const errorIdsPerClassCounter = target(
  'error-ids-per-class-counter',
  true,
  'Each error class numbers its instances with a static counter of its own (`static #next = 1` in every subclass): the first 401, the first 403 and the first 404 all carry `"id": "1"`',
  () => {
    const next = new Map<number, number>();
    return serveApp({
      after: (answer) => {
        if (answer.status < 400 || answer.body === undefined) return answer;
        const n = next.get(answer.status) ?? 1;
        next.set(answer.status, n + 1);
        return rewriteJson(answer, (body) => ({ ...body, id: String(n) }));
      },
    });
  },
);

const entryNameAsEnvironmentMember = target(
  'entry-name-as-environment-member',
  true,
  'The environments query selects `environment_name AS environment` (a column alias from the join table) and the DTO copies it through: every entry carries `"environment": "development"` and no `name`',
  () =>
    serveApp({
      after: (answer, request) =>
        isEnvironmentsRead(request, answer)
          ? rewriteJson(answer, (body) => ({
              ...body,
              environments: body.environments.map(({ name, ...rest }: { name: string }) => ({ environment: name, ...rest })),
            }))
          : answer,
    }),
);

const authzDecisionCachedByPath = target(
  'authz-decision-cached-by-path',
  true,
  'Authorization decisions are cached for 2 s keyed by method and path only (the policy engine\'s cache key leaves the subject out): right after the environments-only key is refused on a path, the full key gets 403 there too',
  () => {
    const denied = new Map<string, number>();
    return serveFlow((store, parts, request) => {
      const route = routeOf(pathOf(request.url));
      const cacheKey = `${request.method} ${pathOf(request.url)}`;
      const key = parts.presentedKey(request);
      if (route.kind === 'operation' && key !== undefined && store.keys.has(key) && (denied.get(cacheKey) ?? 0) > Date.now()) return errorAnswer(parts, 403, request);
      const answer = handle(store, parts, request);
      if (answer.status === 403) denied.set(cacheKey, Date.now() + 2000);
      return answer;
    });
  },
);

const wildcardExcludesProtectedAccount = target(
  'wildcard-excludes-protected-account',
  true,
  'Service account 2 (analytics-exporter) is flagged protected, and deleting its tokens needs an explicit `deleteProtectedServiceAccountToken` grant that the wildcard "*" leaves out: the full key gets 403 on DELETE /service-account/2/token/4',
  () =>
    serveFlow((store, parts, request) => {
      const route = operationOf(request);
      const key = parts.presentedKey(request);
      if (route?.operationId === 'deleteServiceAccountToken' && request.method === 'DELETE' && route.params[0] === '2' && key !== undefined && store.permits(key, 'deleteServiceAccountToken')) {
        if (!store.keys.get(key)!.has('deleteProtectedServiceAccountToken')) return errorAnswer(parts, 403, request);
      }
      return handle(store, parts, request);
    }),
);

// ---------------------------------------------------------------------------------------------
// Broken: what the API leaves to HTTP
// ---------------------------------------------------------------------------------------------

const cdnCacheControlPublic = target(
  'cdn-cache-control-public',
  true,
  'A Cloudflare-style rule adds `CDN-Cache-Control: public, max-age=300` to every GET 200 under /api/ (beside the app\'s `Cache-Control: private, no-cache`): the CDN, which obeys the targeted field (RFC 9213), stores keyed answers, the OIDC secret included',
  () =>
    serveApp({
      after: (answer, request) =>
        isRead(request, answer) ? { ...answer, headers: { ...answer.headers, 'cache-control': 'private, no-cache', 'cdn-cache-control': 'public, max-age=300' } } : answer,
    }),
);

const errorsLabelledIso88591 = target(
  'errors-labelled-iso-8859-1',
  true,
  'Error bodies are built as a String and written by Spring\'s StringHttpMessageConverter, whose default charset is ISO-8859-1: every error says `Content-Type: application/json;charset=ISO-8859-1`',
  () =>
    serveApp({
      after: (answer) => (answer.status >= 400 && answer.body !== undefined ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/json;charset=ISO-8859-1' } } : answer),
    }),
);

const rangeSuffixReadAsPrefix = target(
  'range-suffix-read-as-prefix',
  true,
  'Reads honour `Range: bytes=a-b` with a correct 206 (and ignore it under an If-Range), but the parser reads a suffix range `bytes=-N` (the last N bytes) as `0-N`: it answers the first N+1 bytes with `Content-Range: bytes 0-N/len`',
  () =>
    serveApp({
      after: (answer, request) => {
        if (!isRead(request, answer) || request.method !== 'GET') return answer;
        const headers = { ...answer.headers, 'accept-ranges': 'bytes' };
        // No validator is sent, so an If-Range never matches and the Range is ignored (RFC 9110 §13.1.5).
        const range = header(request, 'if-range') === undefined ? header(request, 'range') : undefined;
        const m = range === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(range.trim());
        if (!m) return { ...answer, headers };
        const bytes = Buffer.from(answer.body!);
        const first = parseInt(m[1]!, 10) || 0;
        const last = Math.min(m[2] === '' ? bytes.length - 1 : parseInt(m[2]!, 10), bytes.length - 1);
        if (first >= bytes.length || last < first) return { status: 416, headers: { 'content-range': `bytes */${bytes.length}` }, body: undefined };
        return { status: 206, headers: { ...headers, 'content-range': `bytes ${first}-${last}/${bytes.length}` }, body: bytes.subarray(first, last + 1).toString('latin1') };
      },
    }),
);

const acceptVendorTypeEchoed = target(
  'accept-vendor-type-echoed',
  true,
  'An output formatter registered for `application/vnd.api+json` wins negotiation when the Accept list names it first: generated clients\' `application/vnd.api+json, application/json` get every answer (errors too) labelled `application/vnd.api+json`',
  () =>
    serveApp({
      after: (answer, request) => {
        const first = (header(request, 'accept') ?? '').split(',')[0]!.split(';')[0]!.trim().toLowerCase();
        if (answer.body === undefined || !first.endsWith('+json')) return answer;
        return { ...answer, headers: { ...answer.headers, 'content-type': `${first}; charset=utf-8` } };
      },
    }),
);

const keyEchoedInSetCookie = target(
  'key-echoed-in-set-cookie',
  true,
  'For the admin UI\'s server-side rendering, every answer to a valid key sets `Set-Cookie: flag_admin_key=<the key>; Path=/; HttpOnly` (the cookie is never read back): the API key is in the answer',
  () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const answer = handle(store, faithfulParts, request);
      const key = faithfulParts.presentedKey(request);
      const valid = key !== undefined && store.keys.has(key);
      send(res, valid ? { ...answer, headers: { ...answer.headers, 'set-cookie': `flag_admin_key=${encodeURIComponent(key!)}; Path=/; HttpOnly; SameSite=Lax` } } : answer);
    });
  },
);

const revalidationDropsAuthorization = target(
  'revalidation-drops-authorization',
  true,
  'A caching gateway keeps GET 200s per URL and Authorization for 2 s; a request with `Cache-Control: no-cache` (or `Pragma: no-cache`) makes it revalidate with a request it builds from the URL alone, without Authorization: the full key gets the upstream 401',
  () => {
    const cache = new Map<string, { answer: Answer; until: number }>();
    return serveFlow((store, parts, request) => {
      const cacheKey = `${request.url} ${request.headers.authorization ?? ''}`;
      const noCache = /no-cache|max-age=0/i.test(`${header(request, 'cache-control') ?? ''} ${header(request, 'pragma') ?? ''}`);
      if (request.method === 'GET' && noCache) {
        const upstream: ApiRequest = { ...request, headers: { host: request.headers.host } };
        const answer = handle(store, parts, upstream);
        if (answer.status === 200) cache.set(cacheKey, { answer, until: Date.now() + 2000 });
        return answer;
      }
      const hit = request.method === 'GET' ? cache.get(cacheKey) : undefined;
      if (hit && hit.until > Date.now()) return hit.answer;
      const answer = handle(store, parts, request);
      if (request.method === 'GET' && answer.status === 200) cache.set(cacheKey, { answer, until: Date.now() + 2000 });
      return answer;
    });
  },
);

const headNeedsItsOwnGrant = target(
  'head-needs-its-own-grant',
  true,
  'Permissions are granted per method and operation (`GET:getProjectEnvironments`), and HEAD is checked as a method of its own that only "*" covers: the environments-only key gets 403 on HEAD of environments where its GET gets 200',
  () =>
    serveFlow((store, parts, request) => {
      const route = operationOf(request);
      const key = parts.presentedKey(request);
      if (request.method === 'HEAD' && route?.method === 'GET' && key !== undefined && store.keys.has(key) && !store.keys.get(key)!.has('*')) return errorAnswer(parts, 403, request);
      return handle(store, parts, request);
    }),
);

const contentLengthOnGet400 = target(
  'content-length-on-get-400',
  true,
  'A WAF rule "GET/HEAD/DELETE must not carry a body" tests for a Content-Length or Transfer-Encoding field, not for content: a GET or DELETE with `Content-Length: 0` gets 400 ValidationError before auth',
  () =>
    serveFlow((store, parts, request) => {
      if (['GET', 'HEAD', 'DELETE'].includes(request.method) && (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined)) {
        return errorAnswer(parts, 400, request);
      }
      return handle(store, parts, request);
    }),
);

const noContentTypeWithoutAccept = target(
  'no-content-type-without-accept',
  true,
  'The response formatter takes the media type from the request\'s Accept and, when there is none, writes the JSON with no Content-Type at all (curl without -H Accept, Go\'s and Python\'s defaults)',
  () =>
    serveApp({
      after: (answer, request) => {
        if (header(request, 'accept') !== undefined || answer.body === undefined) return answer;
        const { 'content-type': _dropped, ...headers } = answer.headers;
        return { ...answer, headers };
      },
    }),
);

const sharedHeadersObjectAcrossAwait = target(
  'shared-headers-object-across-await',
  true,
  'The writer fills one module-level headers object (Content-Type, Content-Length) and writes it after an awaited 20 ms access-log call: when answers overlap (other keys, other accounts) one goes out with the other\'s Content-Length',
  () => {
    const store = new Store();
    const shared: Record<string, string> = {};
    return serve(async (req, res) => {
      const request = toApiRequest(req);
      const answer = handle(store, faithfulParts, request);
      const body = answer.body === undefined ? undefined : Buffer.from(answer.body);
      for (const name of Object.keys(shared)) delete shared[name];
      Object.assign(shared, answer.headers, answer.status === 204 ? {} : { 'content-length': String(body?.length ?? 0) });
      await sleep(20);
      res.writeHead(answer.status, shared);
      res.end(answer.status === 204 ? undefined : body);
    });
  },
);

const preconditionFailedOnGet = target(
  'precondition-failed-on-get',
  true,
  'Reads carry a strong ETag, and a generic precondition filter written for PUT answers any matching If-None-Match with 412 Precondition Failed, GET and HEAD included, where RFC 9110 §13.1.2 demands 304 (or the 200)',
  () =>
    serveApp({
      after: (answer, request) => {
        if (!isRead(request, answer)) return answer;
        const tag = strongTag(answer.body!);
        if (noneMatchHolds(header(request, 'if-none-match'), tag)) return json(412, { id: randomUUID(), name: 'PreconditionFailed', message: 'The resource matches If-None-Match.' });
        return { ...answer, headers: { ...answer.headers, etag: tag } };
      },
    }),
);

const transferEncodingIdentity = target(
  'transfer-encoding-identity',
  true,
  'A hand-written writer from the RFC 2616 drafts adds `Transfer-Encoding: identity` beside Content-Length on every answer: a Transfer-Encoding without chunked last means "read until close" (RFC 9112 §6.3), and a sender MUST NOT send both (§6.1)',
  () => serveNet((answer, request, close) => plainBytes(answer, request, { close, extra: answer.status === 204 ? [] : ['Transfer-Encoding: identity'] }), { strict: true, requireHost: true }),
);

// ---------------------------------------------------------------------------------------------
// Conformant
// ---------------------------------------------------------------------------------------------

const notModifiedWith200Length = target(
  'not-modified-with-200-length',
  false,
  'Reads carry a strong ETag and `Cache-Control: private, no-cache`; after auth and lookup a matching If-None-Match (a list, weakly compared, or *) gets 304 with the ETag, Cache-Control and the Content-Length the 200 would carry (RFC 9110 §8.6: a server MAY send it in a 304)',
  () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const answer = handle(store, faithfulParts, request);
      if (!isRead(request, answer)) return send(res, answer);
      const tag = strongTag(answer.body!);
      const headers: Record<string, string> = { ...answer.headers, etag: tag, 'cache-control': 'private, no-cache' };
      if (noneMatchHolds(header(request, 'if-none-match'), tag)) {
        const { 'content-type': _type, ...rest } = headers;
        res.writeHead(304, { ...rest, 'content-length': String(Buffer.byteLength(answer.body!)) });
        res.end();
        return;
      }
      send(res, { ...answer, headers });
    });
  },
);

const upgradeH2cAdvertised = target(
  'upgrade-h2c-advertised',
  false,
  'Every answer to an HTTP/1.1 request advertises cleartext HTTP/2 with `Upgrade: h2c` and `Connection: Upgrade` (RFC 9110 §7.8: a server MAY send Upgrade in any response to advertise a protocol); nobody is switched, no 101 is ever sent',
  () => {
    const store = new Store();
    return serve((req, res) => {
      const answer = handle(store, faithfulParts, toApiRequest(req));
      // A request that asked for close keeps it in the answer's Connection: node:http reads the Connection field an app sets as the
      // connection's fate, and `Upgrade` alone would keep alive a connection RFC 9112 §9.6 says MUST close (corrected after first sight).
      const close = /(?:^|[\s,])close(?:$|[\s,])/i.test(String(req.headers.connection ?? ''));
      send(res, req.httpVersion === '1.1' ? { ...answer, headers: { ...answer.headers, upgrade: 'h2c', connection: close ? 'Upgrade, close' : 'Upgrade' } } : answer);
    });
  },
);

const contentLengthFixedWidth = target(
  'content-length-fixed-width',
  false,
  'A hand-written HTTP/1.1 writer formats Content-Length with `%010d`: `Content-Length: 0000000612` (RFC 9110 §8.6: Content-Length = 1*DIGIT, leading zeros included)',
  () =>
    serveNet(
      (answer, request, close) => {
        const bytes = plainBytes(answer, request, { close });
        const end = bytes.indexOf('\r\n\r\n');
        const head = bytes.subarray(0, end).toString('latin1').replace(/\r\nContent-Length: (\d+)/, (_m, n: string) => `\r\nContent-Length: ${n.padStart(10, '0')}`);
        return Buffer.concat([Buffer.from(head, 'latin1'), bytes.subarray(end)]);
      },
      { strict: true, requireHost: true },
    ),
);

const deletesSerializedPerAccount = target(
  'deletes-serialized-per-account',
  false,
  'Deletes take a lock per service account and hold it over a 40 ms audit write: deletes in one account at once are answered one after the other, each 200 with its own token gone (decision requests-independent: a server that serialises them keeps the rule)',
  () => {
    const locks = new Map<string, Promise<void>>();
    return serveFlow(async (store, parts, request) => {
      const route = operationOf(request);
      if (route?.operationId !== 'deleteServiceAccountToken' || request.method !== 'DELETE') return handle(store, parts, request);
      const account = route.params[0]!;
      const before = locks.get(account) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      locks.set(account, before.then(() => mine));
      await before;
      try {
        await sleep(40);
        return handle(store, parts, request);
      } finally {
        release();
      }
    });
  },
);

const unlistedMethods403AfterAuth = target(
  'unlisted-methods-403-after-auth',
  false,
  'A policy engine in front maps (method, route) to a permission and denies pairs it has no entry for: a method the path does not list (PUT, POST, PATCH, GET on the token path, DELETE on the reads; not HEAD or OPTIONS) gets the JSON 401 without a valid key and 403 NoAccessError with any key, even "*"',
  () =>
    serveFlow((store, parts, request) => {
      const route = operationOf(request);
      // OPTIONS and HEAD keep the faithful answers (HEAD on the token path: 405, decision head-requests).
      const listed = route !== undefined && (request.method === route.method || request.method === 'OPTIONS' || request.method === 'HEAD');
      if (route !== undefined && !listed) {
        const key = parts.presentedKey(request);
        return errorAnswer(parts, key !== undefined && store.keys.has(key) ? 403 : 401, request);
      }
      return handle(store, parts, request);
    }),
);

const schemaVersionZero = target(
  'schema-version-zero',
  false,
  'The environments schema is still at version 0 (a pre-1.0 service): every environments answer says `"version": 0`, on every project and every repeat (decision environments-version-constant: one integer, its value not fixed)',
  () => serveApp({ parts: { version: () => 0 } }),
);

const optionsAsterisk200 = target(
  'options-asterisk-200',
  false,
  '`OPTIONS * HTTP/1.1` (the server as a whole, RFC 9110 §9.3.7) gets 200 with `Allow: GET, HEAD, DELETE, OPTIONS` and no content, with or without a key; everything else as usual',
  () =>
    serveFlow((store, parts, request) => {
      if (request.method === 'OPTIONS' && request.url === '*') return { status: 200, headers: { allow: 'GET, HEAD, DELETE, OPTIONS' }, body: undefined };
      return handle(store, parts, request);
    }),
);

const strategySortOrderNegativeZero = target(
  'strategy-sort-order-negative-zero',
  false,
  'A Python service computes a strategy\'s sortOrder as `-priority * 1.0` and json.dumps writes the float: `"sortOrder": -0.0` in every default strategy, a JSON number whose value is the integer 0 (RFC 8259 §6; JSON Schema integer: no fractional part)',
  () =>
    serveApp({
      after: (answer, request) => (isEnvironmentsRead(request, answer) ? { ...answer, body: answer.body!.replace(/"sortOrder":0([,}])/g, '"sortOrder":-0.0$1') } : answer),
    }),
);

export const TARGETS: RedTeamTarget[] = [
  // broken, what the API names
  deleteIdsSwapped,
  deleteDecrementsApiTokenCount,
  jsonPayloadValueParsed,
  environmentsAsMapByName,
  invalidKey401NamedNoAccess,
  oidcFirstReadBeforeLoad,
  bearerPrefixStrippedWithoutSpace,
  templatedJsonTrailingComma,
  errorIdsPerClassCounter,
  entryNameAsEnvironmentMember,
  authzDecisionCachedByPath,
  wildcardExcludesProtectedAccount,
  // broken, what the API leaves to HTTP
  cdnCacheControlPublic,
  errorsLabelledIso88591,
  rangeSuffixReadAsPrefix,
  acceptVendorTypeEchoed,
  keyEchoedInSetCookie,
  revalidationDropsAuthorization,
  headNeedsItsOwnGrant,
  contentLengthOnGet400,
  noContentTypeWithoutAccept,
  sharedHeadersObjectAcrossAwait,
  preconditionFailedOnGet,
  transferEncodingIdentity,
  // conformant
  notModifiedWith200Length,
  upgradeH2cAdvertised,
  contentLengthFixedWidth,
  deletesSerializedPerAccount,
  unlistedMethods403AfterAuth,
  schemaVersionZero,
  optionsAsterisk200,
  strategySortOrderNegativeZero,
];

