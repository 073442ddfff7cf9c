// Round eleven of the red team: servers written from /work/shared/API.md, spec/openapi.yaml and its
// x-decisions (docs/decisions.md) without reading the suite (conformance/), its docs, or earlier
// rounds' servers and witnesses (only their names and one-line descriptions, so none is repeated).
// Each is the faithful app (../app.ts) with one part replaced, the way real backends and what stands
// in front of them (ORMs, caches, proxies, compression filters, request-context code, hand-written
// HTTP/1.1 writers) go wrong (broken: true) or behave unusually but within the contract
// (broken: false). witnesses.ts shows each on the wire with plain requests.
import { createHash, randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import {
  type Answer,
  type ApiRequest,
  errorAnswer,
  FIXTURES,
  faithfulParts,
  handle,
  lookup,
  methodAnswer,
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
import { chunkedBytes, closeRequested, type NetRequest, type NetWrite, plainBytes, serveNet, toOriginForm } from '../net-server.ts';

export type { RedTeamTarget };

type Operation = Extract<Route, { kind: 'operation' }>;
const operationOf = (url: string): Operation | undefined => {
  const route = routeOf(pathOf(url));
  return route.kind === 'operation' ? route : undefined;
};
const keyOf = (request: ApiRequest) => faithfulParts.presentedKey(request);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The operation a request reaches with a key that holds its permission (the faithful route, method and auth order), or undefined. */
function authorizedOperation(store: Store, request: ApiRequest): Operation | undefined {
  const route = operationOf(request.url);
  if (!route || methodAnswer(route, request.method)) return undefined;
  const key = keyOf(request);
  return key !== undefined && store.keys.has(key) && store.permits(key, route.operationId) ? route : undefined;
}

/** The faithful app on a fresh store, its handler written by `make` (which may await: a database, a policy service). */
function serveWith(make: (store: Store, parts: Parts) => (request: ApiRequest) => Answer | Promise<Answer>, parts: Partial<Parts> = {}, onClose?: () => void): Promise<RunningTarget> {
  const store = new Store();
  const handler = make(store, { ...faithfulParts, ...parts });
  return serve(
    async (req, res) => {
      const answer = await handler(toApiRequest(req));
      const bytes = (answer as Binary).bytes;
      if (bytes === undefined) return send(res, answer);
      res.writeHead(answer.status, { ...answer.headers, 'content-length': String(bytes.length) });
      res.end(req.method === 'HEAD' ? undefined : bytes);
    },
    undefined,
    onClose,
  );
}

/** An answer whose content is bytes (a compressed body) rather than text. */
type Binary = Answer & { bytes?: Buffer };

// The framing targets run on ../net-server.ts as round eleven's server ran: strict parsing (400, 431),
// chunked request bodies, node's reading of repeated fields, absolute-form targets as their origin form,
// a close after HTTP/1.0 or `Connection: close` requests, and Content-Length on every answer (204 too).
const plain = (answer: Answer, request: NetRequest, close: boolean) => plainBytes(answer, request, { close, lengthAlways: true });

function serveNet11(write: NetWrite, options: { rewrite?: (request: NetRequest) => NetRequest; parts?: Partial<Parts> } = {}): Promise<RunningTarget> {
  const { rewrite } = options;
  return serveNet(write, {
    strict: true,
    requireHost: true,
    duplicates: 'node',
    closeWhen: (request) => request.version === 'HTTP/1.0' || closeRequested(request),
    rewrite: rewrite ? (request) => rewrite(toOriginForm(request)) : toOriginForm,
    parts: options.parts,
  });
}

// ---- broken targets whose handlers need a few lines of their own ----

/** Environments listed when they are enabled in any project (a query that forgot the project in its WHERE on the enablement join). */
function enabledAnywhere(): Promise<RunningTarget> {
  const names = new Set(FIXTURES.projects.flatMap((p) => p.environments.filter((e) => e.enabled).map((e) => e.name)));
  return serveApp({ parts: { listed: (entry) => names.has(entry.name) } });
}

/** `findOrFail(account)` then `DELETE ... WHERE id = :tokenId AND account = :id` without checking the affected row count. */
function missingTokenIn200(): Promise<RunningTarget> {
  return serveWith((store, parts) => (request) => {
    const answer = handle(store, parts, request);
    const route = authorizedOperation(store, request);
    if (answer.status === 404 && route?.operationId === 'deleteServiceAccountToken' && store.find(store.tokens.keys(), route.params[0]!, parts.sameId) !== undefined) {
      return { status: 200, headers: {}, body: undefined };
    }
    return answer;
  });
}

/** An ORM relation declared the wrong way round: removing a token cascades to the account that owns it, with its other tokens. */
function deleteCascades(): Promise<RunningTarget> {
  return serveWith((store, parts) => (request) => {
    const route = authorizedOperation(store, request);
    const answer = handle(store, parts, request);
    if (answer.status === 200 && route?.operationId === 'deleteServiceAccountToken') {
      const account = store.find(store.tokens.keys(), route.params[0]!, parts.sameId);
      if (account !== undefined) store.tokens.delete(account);
    }
    return answer;
  });
}

/** The delete answers from a write-behind cache; the database transaction behind it times out and rolls back 300 ms later, and the token is reloaded. */
function deleteRolledBack(): Promise<RunningTarget> {
  const timers = new Set<NodeJS.Timeout>();
  return serveWith(
    (store, parts) => (request) => {
      const route = authorizedOperation(store, request);
      const found = route?.operationId === 'deleteServiceAccountToken' ? lookup(store, parts, route.operationId, route.params) : undefined;
      const answer = handle(store, parts, request);
      if (answer.status === 200 && found?.found) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          store.tokens.get(found.account!)?.add(found.token!);
        }, 300);
        timers.add(timer);
      }
      return answer;
    },
    {},
    () => {
      for (const t of timers) clearTimeout(t);
    },
  );
}

/** Token sets stored as one JSON column per account, read, changed and written back around a 20 ms round trip, without a lock or a version. */
function lostUpdate(): Promise<RunningTarget> {
  return serveWith((store, parts) => async (request) => {
    const route = authorizedOperation(store, request);
    if (route?.operationId === 'deleteServiceAccountToken') {
      const found = lookup(store, parts, route.operationId, route.params);
      if (found.found) {
        const column = new Set(store.tokens.get(found.account!)!);
        await sleep(20);
        column.delete(found.token!);
        store.tokens.set(found.account!, column);
        return { status: 200, headers: {}, body: undefined };
      }
    }
    return handle(store, parts, request);
  });
}

/** The caller's key kept in a module-level variable (not AsyncLocalStorage) and read after a 15 ms session lookup. */
function keyInModuleGlobal(): Promise<RunningTarget> {
  let currentKey: string | undefined;
  return serveWith(
    (store, parts) => async (request) => {
      currentKey = keyOf(request);
      await sleep(15);
      return handle(store, { ...parts, presentedKey: () => currentKey }, request);
    },
  );
}

/** Connection-based auth (as NTLM/Negotiate work): a key that authenticated once is remembered for its socket and used when a later request on it carries none. */
function authPerConnection(): Promise<RunningTarget> {
  const remembered = new WeakMap<Socket, string>();
  return serveWith((store, parts) => (request) => {
    const presented = keyOf(request);
    if (presented !== undefined && store.keys.has(presented)) remembered.set(request.socket, presented);
    const key = presented ?? remembered.get(request.socket);
    return handle(store, { ...parts, presentedKey: () => key }, request);
  });
}

/** A reverse-proxy cache in front keyed by the URL alone: GET 200s are kept for 1 s and served before the request reaches the app. */
function sharedCacheIgnoresAuthorization(): Promise<RunningTarget> {
  const cache = new Map<string, { answer: Answer; until: number }>();
  return serveWith((store, parts) => (request) => {
    if (request.method === 'GET') {
      const hit = cache.get(request.url);
      if (hit && hit.until > Date.now()) return { ...hit.answer, headers: { ...hit.answer.headers, 'x-cache': 'HIT' } };
    }
    const answer = handle(store, parts, request);
    if (request.method === 'GET' && answer.status === 200) cache.set(request.url, { answer, until: Date.now() + 1000 });
    return { ...answer, headers: { ...answer.headers, 'x-cache': 'MISS' } };
  });
}

const etagOf = (body: string | undefined) => `"${createHash('sha1').update(body ?? '').digest('hex').slice(0, 16)}"`;

/** Reads carry an ETag; the conditional layer runs after auth and answers `If-None-Match: *` with 304 before the resource is looked up. */
function inmStarBeforeLookup(): Promise<RunningTarget> {
  return serveWith((store, parts) => (request) => {
    const route = authorizedOperation(store, request);
    const inm = header(request, 'if-none-match');
    if (route?.method === 'GET' && inm?.trim() === '*') return { status: 304, headers: {}, body: undefined };
    const answer = handle(store, parts, request);
    if (route?.method !== 'GET' || answer.status !== 200) return answer;
    const etag = etagOf(answer.body);
    if (inm !== undefined && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return { status: 304, headers: { etag }, body: undefined };
    return { ...answer, headers: { ...answer.headers, etag } };
  });
}

/**
 * The codings a compression middleware knows, with the preference it gives each; it reads the
 * entry of every coding a request lists, so one it lacks is `undefined` and the read throws.
 */
const CODERS: Record<string, { preference: number; encode: (b: Buffer) => Buffer }> = {
  gzip: { preference: 2, encode: gzipSync },
  deflate: { preference: 1, encode: deflateSync },
  br: { preference: 3, encode: brotliCompressSync },
  identity: { preference: 0, encode: (b) => b },
};
function codingsOf(value: string | undefined): { coding: string; q: number }[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [coding, ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => /^q=/i.test(p));
      return { coding: coding!.toLowerCase(), q: q ? Number(q.slice(2)) : 1 };
    });
}

// ---- the conformant targets' pieces ----

/** The request's X-Request-Id when it is a plain visible-ASCII token (echoed), else a new one. */
const requestIdOf = (request: ApiRequest) => {
  const sent = header(request, 'x-request-id');
  return sent !== undefined && /^[\x21-\x7e]{1,200}$/.test(sent) ? sent : randomUUID();
};

const GERMAN: Record<number, string> = {
  401: 'Sie müssen einen gültigen API-Schlüssel im Authorization-Header angeben.',
  403: 'Diesem API-Schlüssel fehlt die Berechtigung für diese Operation.',
  404: 'Die angeforderte Ressource wurde nicht gefunden.',
};

export const TARGETS: readonly RedTeamTarget[] = [
  // ---- The operations' own semantics (API §4) ----
  target(
    'environments-enabled-in-any-project',
    true,
    'The enablement join forgot the project in its WHERE: an environment is listed when it is enabled in any project, so `default` lists `staging`, which is disabled in its own configuration and enabled only in mobile-app (API §1, §4.1: only environments enabled in the project\'s configuration).',
    enabledAnywhere,
  ),
  target(
    'missing-token-in-existing-account-200',
    true,
    'The delete loads the account with findOrFail, then runs `DELETE … WHERE id = :tokenId AND account_id = :id` without reading the affected row count: a token that does not exist in an existing account (`/service-account/1/token/999`, or one already deleted) gets 200 (API §4.3: 404 NotFoundError; decision: the same delete again gets 404).',
    missingTokenIn200,
  ),
  target(
    'delete-cascades-to-account',
    true,
    'An ORM relation declared the wrong way round (onDelete cascade from token to account): deleting token 1/3 removes service account 1 with its other tokens, so 1/1 and 1/2 then get 404 (API §4.3: deletes the token identified by both ids, nothing else).',
    deleteCascades,
  ),
  target(
    'delete-rolled-back-later',
    true,
    'The delete answers from a write-behind cache; the transaction behind it times out and rolls back 300 ms later and the token is reloaded: right after the delete the same delete gets 404, half a second later 200 again (decision: a deletion is final, the same delete again gets 404).',
    deleteRolledBack,
  ),
  target(
    'concurrent-deletes-lost-update',
    true,
    'An account\'s tokens are one JSON column, read, changed and written back around a 20 ms round trip with no lock: two deletes on account 1 at once both answer 200, and the second write restores the token the first deleted, so deleting it again answers 200 (decision: a deletion is final; each delete deletes its own token, now and later).',
    lostUpdate,
  ),
  // ---- Permissions and auth (API §5) ----
  target(
    'forbidden-answered-404-to-hide',
    true,
    'GitHub-style hiding: a valid key without the permission gets 404 NotFoundError instead of 403, so the environments-only key gets 404 on the OIDC settings and on a token that exists (API §5, §7: valid credentials without the permission get 403 NoAccessError).',
    () =>
      serveWith((store, parts) => (request) => {
        const answer = handle(store, parts, request);
        return answer.status === 403 ? errorAnswer(parts, 404, request) : answer;
      }),
  ),
  target(
    'current-key-in-module-global',
    true,
    'The caller\'s key is kept in a module-level variable (not AsyncLocalStorage) and read after a 15 ms session lookup: when the admin key\'s request arrives while the environments-only key\'s is waiting, the latter is served as admin and gets the OIDC secret (decision: an answer never depends on other requests in flight; API §5: 403).',
    keyInModuleGlobal,
  ),
  target(
    'auth-remembered-per-connection',
    true,
    'Connection-based auth as NTLM/Negotiate do it: once a request on a kept-alive connection presented a valid key, later requests on that connection without Authorization act with it, so a keyless read after an admin read on one socket gets the secret (decision: an answer never depends on what the connection carried before; API §5: no key, 401).',
    authPerConnection,
  ),
  target(
    'key-trimmed-with-string-trim',
    true,
    'The key is cleaned with JavaScript\'s String.prototype.trim, which also strips U+00A0 and other Unicode spaces: `mock-admin-key` followed by a no-break space (byte A0) is the admin key (decision key forms: only spaces and tabs around the value are not part of it; U+00A0 makes it invalid, 401).',
    () => serveApp({ parts: { presentedKey: (request) => faithfulParts.presentedKey({ ...request, headers: { ...request.headers, authorization: header(request, 'authorization')?.trim() } }) } }),
  ),
  target(
    'bearer-value-second-word',
    true,
    'The scheme is parsed with `value.split(" ")[1]` after testing for `Bearer `: `Bearer mock-admin-key anything` is the admin key (decision key forms: anything else around the key makes it invalid, 401).',
    () =>
      serveApp({
        parts: {
          presentedKey(request) {
            const value = header(request, 'authorization');
            if (value !== undefined && /^bearer /i.test(value)) return value.split(' ')[1];
            return faithfulParts.presentedKey(request);
          },
        },
      }),
  ),
  // ---- Ids (decisions project-id-compared-exactly, token-ids-compared-exactly) ----
  target(
    'token-id-parseint-prefix',
    true,
    'Numeric ids are read with parseInt, which stops at the first character that is not a digit: `/service-account/1/token/3abc` (or `3.5`, `3%20x`) deletes token 3, and `1x` is account 1 (decision: ids compared exactly as strings; they name no token, 404, nothing deleted).',
    () => serveApp({ parts: { sameId: (presented, stored) => (/^\d+$/.test(stored) && /^\d/.test(presented) ? Number.parseInt(presented, 10) === Number(stored) : presented === stored) } }),
  ),
  // ---- Error bodies (API §2.3, §7) ----
  target(
    'error-id-memoized-per-request-line',
    true,
    'Error objects are memoized per request line (a cache meant for rendering error pages): the same request sent twice, say GET /auth/oidc/settings without a key, gets two 401s with one `id` (decision error-ids-unique: no two error responses carry the same id, even to the same request sent twice).',
    () => {
      const ids = new Map<string, string>();
      return serveApp({
        after(answer, request) {
          if (answer.status < 400 || answer.body === undefined || !answer.headers['content-type']?.includes('json')) return answer;
          const body = JSON.parse(answer.body) as { id: string };
          const line = `${request.method} ${request.url}`;
          if (!ids.has(line)) ids.set(line, body.id);
          return { ...answer, body: JSON.stringify({ ...body, id: ids.get(line) }) };
        },
      });
    },
  ),
  target(
    'orm-error-name-leaks',
    true,
    'The error handler names errors after the exception class: a lookup that finds nothing throws TypeORM\'s EntityNotFoundError, so every 404 of an operation is `{"name":"EntityNotFoundError",…}` (API §2.3, §7: a 404 is kind NotFoundError; decision: `name` is fixed per status).',
    () =>
      serveApp({
        after: (answer, request) =>
          answer.status === 404 && operationOf(request.url) && answer.body !== undefined ? { ...answer, body: JSON.stringify({ ...(JSON.parse(answer.body) as object), name: 'EntityNotFoundError' }) } : answer,
      }),
  ),
  // ---- Caching (RFC 9111; decisions shared-caches and conditional-requests) ----
  target(
    'shared-cache-ignores-authorization',
    true,
    'A reverse-proxy cache in front keys GET 200s by URL alone for 1 s and serves them before the app: right after an admin read of the OIDC settings, the same URL without a key gets the cached 200 with the secret (API §5: no key, 401; RFC 9111 §3.5: a shared cache must not reuse an answer to a request with Authorization).',
    sharedCacheIgnoresAuthorization,
  ),
  target(
    's-maxage-on-keyed-reads',
    true,
    'A CDN-friendly default on every GET answer: `Cache-Control: s-maxage=60, max-age=0` on the keyed 200s of both reads, the OIDC secret included, with no private or no-store (decision shared-caches: no s-maxage unless private or no-store is there too; RFC 9111 §3.5).',
    () => serveApp({ after: (answer, request) => (request.method === 'GET' && answer.status === 200 ? { ...answer, headers: { ...answer.headers, 'cache-control': 's-maxage=60, max-age=0' } } : answer) }),
  ),
  target(
    'if-none-match-star-304-before-lookup',
    true,
    'Reads carry an ETag; the conditional layer runs after auth but before the lookup and answers `If-None-Match: *` with 304 whatever the resource, so a project that does not exist gets 304 instead of 404 (decision conditional-requests: 304 only where the same request without it gets 200; RFC 9110 §13.1.2).',
    inmStarBeforeLookup,
  ),
  // ---- Headers that must change nothing (decision required-request-headers, accept) ----
  target(
    'axios-accept-406',
    true,
    'Content negotiation by string equality: only `Accept: application/json` or `*/*` pass, so axios\'s default `Accept: application/json, text/plain, */*` gets 406 before auth (decision accept: 406 is not allowed to an Accept that admits JSON; the answer is what `application/json` gets).',
    () =>
      serveWith((store, parts) => (request) => {
        const accept = header(request, 'accept');
        if (operationOf(request.url) && accept !== undefined && accept !== 'application/json' && accept !== '*/*') return { status: 406, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Acceptable' };
        return handle(store, parts, request);
      }),
  ),
  target(
    'gzip-body-unlabelled',
    true,
    'A compression filter gzips bodies when Accept-Encoding allows gzip, and a header-cleaning step meant for upstream answers it decompressed drops the Content-Encoding: the body is gzip bytes under `Content-Type: application/json` with no Content-Encoding (RFC 9110 §8.4: a coding applied must be listed; the content is not JSON).',
    () =>
      serveWith((store, parts) => (request): Binary => {
        const answer = handle(store, parts, request);
        const gzip = codingsOf(header(request, 'accept-encoding')).some((c) => (c.coding === 'gzip' || c.coding === '*') && c.q > 0);
        return !gzip || answer.body === undefined ? answer : { ...answer, bytes: gzipSync(Buffer.from(answer.body)) };
      }),
  ),
  target(
    'zstd-accept-encoding-500',
    true,
    'The compression middleware looks each listed coding up in its table of coders and calls it: a coding it does not know, such as the `zstd` that current Chrome lists (`gzip, deflate, br, zstd`), throws and gets 500 (decision: Accept-Encoding changes no answer; a server may compress, never fail).',
    () =>
      serveWith((store, parts) => (request): Binary => {
        const answer = handle(store, parts, request);
        const listed = codingsOf(header(request, 'accept-encoding')).filter((c) => c.q > 0 && c.coding !== '*');
        // The middleware's own bug: it reads the entry of every listed coding, so an unknown one throws (→ 500).
        const ranked = listed.map((c) => ({ coding: c.coding, preference: CODERS[c.coding]!.preference })).sort((x, y) => y.preference - x.preference);
        const best = ranked[0];
        if (best === undefined || best.coding === 'identity' || answer.body === undefined) return answer;
        return { ...answer, headers: { ...answer.headers, 'content-encoding': best.coding, vary: 'Accept-Encoding' }, bytes: CODERS[best.coding]!.encode(Buffer.from(answer.body)) };
      }),
  ),
  // ---- Methods (RFC 9110 §9) ----
  target(
    'lowercase-method-runs-operation',
    true,
    'A hand-written HTTP/1.1 server upper-cases the method before routing: `delete /api/admin/service-account/1/token/3` with the full key deletes the token and `get` reads (RFC 9110 §9.1: the method token is case-sensitive, `delete` is not DELETE; decision unlisted-methods: a refusal that changes nothing).',
    () => serveNet11(plain, { rewrite: (request) => ({ ...request, method: request.method.toUpperCase() }) }),
  ),
  // ---- Framing (RFC 9112) ----
  target(
    'head-answer-carries-body',
    true,
    'A hand-written HTTP/1.1 writer sends the GET body on HEAD answers too: HEAD of the OIDC settings carries the JSON after its headers, which a client reads as the start of the next answer on the connection (RFC 9110 §9.3.2: the server MUST NOT send content in a HEAD response).',
    () =>
      serveNet11((answer, request, close) => plain(answer, { ...request, method: request.method === 'HEAD' ? 'GET' : request.method }, close)),
  ),
  target(
    'content-length-in-utf16-units',
    true,
    'A hand-written writer sets Content-Length to the string\'s length (UTF-16 code units), not its bytes; 404 messages quote the ids, so a missing project `café` gets a Content-Length one short and its last byte becomes the start of the next answer (RFC 9112 §6.3, RFC 9110 §8.6: Content-Length counts octets).',
    () =>
      serveNet11(
        (answer, request, close) => {
          const bytes = plain(answer, request, close);
          if (answer.body === undefined) return bytes;
          return Buffer.from(bytes.toString('latin1').replace(/Content-Length: \d+/, `Content-Length: ${answer.body.length}`), 'latin1');
        },
        { parts: { message: (status, _request, detail) => (status === 404 && detail !== undefined ? `Could not find "${detail}".` : faithfulParts.message(status, _request, detail)) } },
      ),
  ),
  target(
    'chunk-sizes-in-decimal',
    true,
    'A hand-written HTTP/1.1 writer sends every body as one chunk whose size it writes in decimal: a 300-byte body is announced as `300` (0x300, 768 bytes), so the client waits for bytes that never come or reads the next answer as content (RFC 9112 §7.1: chunk-size is hexadecimal).',
    () =>
      serveNet11((answer, request, close) => {
        if (answer.body === undefined || request.method === 'HEAD') return plain(answer, request, close);
        return chunkedBytes(answer, request, { close, size: (length) => String(length) });
      }),
  ),
  target(
    'id-echoed-in-header-crlf-injection',
    true,
    'A hand-written writer adds `X-Missing-Resource: <id>` to 404s with the percent-decoded id as is: `/environments/project/x%0D%0ASet-Cookie:%20sid=attacker` yields a `Set-Cookie` line in the answer (response splitting; RFC 9110 §5.5: CR and LF are not allowed in a field value; decision: a C0 control makes the id malformed input).',
    () =>
      serveNet11((answer, request, close) => {
        const route = operationOf(request.target);
        if (answer.status !== 404 || !route) return plain(answer, request, close);
        return plain({ ...answer, headers: { ...answer.headers, 'x-missing-resource': route.params.join('/') } }, request, close);
      }),
  ),

  // ---- Conformant but unusual ----
  target(
    'early-hints-before-answers',
    false,
    'Every answer is preceded by an interim `103 Early Hints` with a Link preload header (a CDN feature switched on for the whole host); the final answer follows as usual (RFC 9110 §15.2: a client MUST be able to parse 1xx answers it did not expect; RFC 8297).',
    () => {
      const store = new Store();
      return serve((req, res) => {
        // RFC 9110 §15.2: never a 1xx to an HTTP/1.0 client.
        if (req.httpVersion !== '1.0') res.writeEarlyHints({ link: '</static/admin.css>; rel=preload; as=style' });
        send(res, handle(store, faithfulParts, toApiRequest(req)));
      });
    },
  ),
  target(
    'messages-localized-names-kept',
    false,
    'Error messages follow Accept-Language (German for `de`, with Content-Language: de) while `id` stays unique and `name` stays the kind API §7 fixes; status, media type and members are unchanged (decision: the message is free text and may differ per instance; only `name` is fixed per status).',
    () =>
      serveApp({
        parts: { message: (status, request) => (/^de\b/i.test(header(request, 'accept-language') ?? '') ? (GERMAN[status] ?? 'Fehler') : faithfulParts.message(status, request)) },
        after: (answer, request) => (answer.status >= 400 && /^de\b/i.test(header(request, 'accept-language') ?? '') ? { ...answer, headers: { ...answer.headers, 'content-language': 'de' } } : answer),
      }),
  ),
  target(
    'www-authenticate-on-401',
    false,
    'Every 401 carries `WWW-Authenticate: ApiKey realm="flag-admin", header="Authorization"` as RFC 9110 §11.6.1 asks of a 401, and a `Link` to the docs; the body is the usual AuthenticationRequired error (extra headers are allowed; API §5).',
    () => serveApp({ after: (answer) => (answer.status === 401 ? { ...answer, headers: { ...answer.headers, 'www-authenticate': 'ApiKey realm="flag-admin", header="Authorization"', link: '</docs/auth>; rel="help"' } } : answer) }),
  ),
  target(
    'generated-at-in-every-body',
    false,
    'Every JSON body carries fields the description does not list and that change on every answer: `generatedAt` (the time) and `requestId` (a UUID) at the top level of the 200s and the errors (decision: extra fields are allowed and carry no promise; answers are compared only on the fields the schema lists).',
    () =>
      serveApp({
        after(answer) {
          if (answer.body === undefined || !answer.headers['content-type']?.includes('json')) return answer;
          return { ...answer, body: JSON.stringify({ ...(JSON.parse(answer.body) as object), generatedAt: new Date().toISOString(), requestId: randomUUID() }) };
        },
      }),
  ),
  target(
    'head-not-routed-405',
    false,
    'The router registers GET only: HEAD on either read path gets 405 with `Allow: GET, OPTIONS` (as do the other unlisted methods), after nothing else runs (decision head-requests: a server that routes no HEAD may answer 405 with an Allow header instead).',
    () =>
      serveWith((store, parts) => (request) => {
        const route = operationOf(request.url);
        if (route?.method === 'GET' && request.method !== 'GET') {
          const allow = 'GET, OPTIONS';
          if (request.method === 'OPTIONS') return { status: 204, headers: { allow }, body: undefined };
          return { status: 405, headers: { allow, 'content-type': 'text/plain; charset=utf-8' }, body: 'Method Not Allowed' };
        }
        return handle(store, parts, request);
      }),
  ),
  target(
    'trailing-slash-same-operation',
    false,
    'One trailing slash is ignored by the router (Express\'s default, strict routing off): `/api/admin/auth/oidc/settings/` is the OIDC operation with the same auth (401, 403 first) and answer, and `/service-account/1/token/3/` is that token (decision trailing-slash: the answer the path without the slash gets is conformant).',
    () =>
      serveWith((store, parts) => (request) => {
        const path = pathOf(request.url);
        const url = path.length > 1 && path.endsWith('/') && !path.endsWith('//') ? path.slice(0, -1) + request.url.slice(path.length) : request.url;
        return handle(store, parts, { ...request, url });
      }),
  ),
  target(
    'request-id-echoed-in-header',
    false,
    'Every answer carries `X-Request-Id`: the one the request sent, or a new one; it is never used as an error\'s `id`, which stays a new UUID per error (decision error-ids-unique: a server may echo correlation headers elsewhere, never as the error id).',
    () => serveApp({ after: (answer, request) => ({ ...answer, headers: { ...answer.headers, 'x-request-id': requestIdOf(request) } }) }),
  ),
  target(
    's-maxage-with-private',
    false,
    'Every 200 of a read carries `Cache-Control: private, s-maxage=60, max-age=30` and `Vary: Authorization` (a global CDN rule plus the auth middleware\'s `private`): `private` forbids shared caches to store it (RFC 9111 §5.2.2.7; decision shared-caches: s-maxage is allowed when private or no-store is there too).',
    () => serveApp({ after: (answer, request) => (request.method === 'GET' && answer.status === 200 ? { ...answer, headers: { ...answer.headers, 'cache-control': 'private, s-maxage=60, max-age=30', vary: 'Authorization' } } : answer) }),
  ),
];

