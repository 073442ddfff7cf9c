// Round five of held-out targets: the faithful app of ./app.ts with one defect (broken: true) or
// one unusual behaviour the contract allows (broken: false). Written from spec/openapi.yaml and
// its x-decisions only, without reading how the suite checks, the way outside testers write them.
// Most defects sit where the spec names nothing (methods, ordinary headers, connections, overlap,
// time, encodings, caching); a few where it does (statuses, bodies, auth order, id matching).
import { createHash, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import {
  type Answer,
  type ApiRequest,
  type OperationId,
  type Parts,
  type Route,
  type RunningTarget,
  FULL_KEY,
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
  sleep,
  toApiRequest,
  type RedTeamTarget,
  target,
} from './app.ts';

export type { RedTeamTarget };

/** The faithful flow, but the request is first rewritten (a middleware in front of it). */
function serveRewritten(rewrite: (request: ApiRequest) => ApiRequest, parts: Partial<Parts> = {}): Promise<RunningTarget> {
  const store = new Store();
  const all = { ...faithfulParts, ...parts };
  return serve((req, res) => send(res, handle(store, all, rewrite(toApiRequest(req)))));
}

const operationOf = (request: ApiRequest): OperationId | undefined => {
  const route = routeOf(pathOf(request.url));
  return route.kind === 'operation' ? route.operationId : undefined;
};

/**
 * For targets whose defect sits in the delete itself: any other request gets the faithful answer,
 * and so does a DELETE without a valid key (401) or permission (403); an authorized DELETE on a
 * token path returns its route for the target's own lookup and deletion.
 */
function authorizedDelete(store: Store, request: ApiRequest): { answer: Answer } | { route: Extract<Route, { kind: 'operation' }> } {
  const route = routeOf(pathOf(request.url));
  if (route.kind !== 'operation' || route.operationId !== 'deleteServiceAccountToken' || request.method !== 'DELETE') return { answer: handle(store, faithfulParts, request) };
  const key = faithfulParts.presentedKey(request);
  if (key === undefined || !store.keys.has(key)) return { answer: errorAnswer(faithfulParts, 401, request) };
  if (!store.permits(key, route.operationId)) return { answer: errorAnswer(faithfulParts, 403, request) };
  return { route };
}

/** Strong ETag of a body (RFC 9110 §8.8.3). */
const etagOf = (body: string) => `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`;

/** Whether an If-None-Match value lists `etag` or is `*` (RFC 9110 §13.1.2, weak comparison). */
function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

const STARTED = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);

/** If-Modified-Since holds a valid date not later than now and not earlier than Last-Modified (RFC 9110 §13.1.3). */
function notModifiedSince(header: string | undefined): boolean {
  if (header === undefined) return false;
  const date = Date.parse(header);
  return Number.isFinite(date) && date <= Date.now() && date >= STARTED.getTime();
}

// ---------------------------------------------------------------------------------------------
// Broken: methods
// ---------------------------------------------------------------------------------------------

const headHealthCheck = target('head-health-check-before-auth', true, 'A load-balancer health-check middleware answers every HEAD with 200 before routing and auth', () => {
  const store = new Store();
  return serve((req, res) => {
    if (req.method === 'HEAD') return send(res, { status: 200, headers: { 'content-type': 'text/plain' }, body: 'OK' });
    send(res, handle(store, faithfulParts, toApiRequest(req)));
  });
});

const head405NoAllow = target('head-405-without-allow', true, 'HEAD is answered 405 but without the Allow header RFC 9110 §15.5.6 requires', () =>
  serveApp({
    after: (answer, request) => (request.method === 'HEAD' && routeOf(pathOf(request.url)).kind === 'operation' ? { status: 405, headers: { 'content-type': 'text/plain' }, body: 'Method Not Allowed' } : answer),
  }),
);

const tokenRouteAnyMethod = target('token-route-any-method', true, 'The token route is registered with app.all(): GET, POST, PUT, PATCH and HEAD on a token path delete the token', () => {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const route = routeOf(pathOf(request.url));
    const asDelete = route.kind === 'operation' && route.operationId === 'deleteServiceAccountToken' && request.method !== 'OPTIONS';
    send(res, handle(store, faithfulParts, asDelete ? { ...request, method: 'DELETE' } : request));
  });
});

const optionsSkipsAuth = target('options-preflight-falls-through', true, 'Auth lets OPTIONS through as a CORS preflight, and the route handler then runs: OPTIONS without a key reads the OIDC secret or deletes a token', () => {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const route = routeOf(pathOf(request.url));
    if (request.method === 'OPTIONS' && route.kind === 'operation') {
      // The preflight is meant to end here, but `next()` is called instead of `res.end()`.
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-allow-headers', 'Authorization');
      return send(res, handle(store, faithfulParts, { ...request, method: route.method, headers: { ...request.headers, authorization: FULL_KEY } }));
    }
    send(res, handle(store, faithfulParts, request));
  });
});

const methodOverrideEverywhere = target('method-override-on-every-method', true, 'X-HTTP-Method-Override is honoured on every method, not only POST: a GET with "DELETE" deletes a token, a GET on a read path gets 405', () =>
  serveRewritten((request) => {
    const override = request.headers['x-http-method-override'] ?? request.headers['x-method-override'];
    return typeof override === 'string' ? { ...request, method: override.trim().toUpperCase() } : request;
  }),
);

// ---------------------------------------------------------------------------------------------
// Broken: ordinary request headers
// ---------------------------------------------------------------------------------------------

const acceptExact = target('accept-compared-exactly-406', true, 'Content negotiation compares Accept to "application/json" as a string: */*, a charset parameter or a list get 406', () => {
  const store = new Store();
  return serve((req, res) => {
    const accept = req.headers.accept;
    if (accept !== undefined && accept !== 'application/json') return send(res, json(406, { message: 'Not Acceptable' }));
    send(res, handle(store, faithfulParts, toApiRequest(req)));
  });
});

const acceptHtmlRedirect = target('accept-html-redirects-to-login', true, 'A web-app auth guard redirects requests that accept text/html to /login (302) instead of answering 401', () =>
  serveApp({
    after: (answer, request) => (answer.status === 401 && /text\/html/i.test(request.headers.accept ?? '') ? { status: 302, headers: { location: '/login?next=' + encodeURIComponent(request.url) }, body: undefined } : answer),
  }),
);

const acceptLanguage500 = target('accept-language-without-catalog-500', true, 'Error messages are translated, and a language without a message catalog (anything but English) throws: 500', () => {
  const catalogs: Record<string, Record<number, string>> = { en: {} };
  return serveApp({
    parts: {
      message(status, request) {
        const wanted = (request.headers['accept-language'] ?? 'en').split(',')[0]!.split(';')[0]!.trim().toLowerCase().split('-')[0]!;
        const catalog = wanted === '*' ? catalogs.en : catalogs[wanted];
        if (!catalog) throw new Error(`no message catalog for ${wanted}`);
        return faithfulParts.message(status, request);
      },
    },
  });
});

const userAgentWaf = target('user-agent-blocklist-403', true, 'A WAF rule answers 403 NoAccessError to User-Agents of tools and bots (curl, wget, python-requests, Go, Java, *bot*), valid key or not', () => {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    if (/curl|wget|python|go-http-client|java\/|okhttp|libwww|httpie|postman|insomnia|bot|spider|crawl/i.test(req.headers['user-agent'] ?? '')) return send(res, errorAnswer(faithfulParts, 403, request));
    send(res, handle(store, faithfulParts, request));
  });
});

const headerNameCase = target('authorization-name-case-sensitive', true, 'Headers are read as a serverless gateway passes them, names as sent: headers.Authorization ?? headers.authorization, so AUTHORIZATION or aUtHoRiZaTiOn is no key', () =>
  serveApp({
    parts: {
      presentedKey(request) {
        const asSent: Record<string, string> = {};
        for (let i = 0; i < request.rawHeaders.length; i += 2) asSent[request.rawHeaders[i]!] = request.rawHeaders[i + 1]!;
        const value = asSent.Authorization ?? asSent.authorization;
        return value === undefined ? undefined : faithfulParts.presentedKey({ ...request, headers: { authorization: value } });
      },
    },
  }),
);

const conditionalBeforeAuth = target('conditional-get-before-auth', true, 'A conditional-GET layer in front of auth answers 304 to a matching If-None-Match (or *, or a recent If-Modified-Since) without checking the key', () => {
  const store = new Store();
  const etags = new Map<string, string>();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const known = etags.get(pathOf(request.url));
    if ((request.method === 'GET' || request.method === 'HEAD') && known !== undefined && (noneMatchHits(req.headers['if-none-match'], known) || (req.headers['if-none-match'] === undefined && notModifiedSince(req.headers['if-modified-since'])))) {
      return send(res, { status: 304, headers: { etag: known, 'last-modified': STARTED.toUTCString() }, body: undefined });
    }
    const answer = handle(store, faithfulParts, request);
    if (answer.status === 200 && answer.body !== undefined) {
      const etag = etagOf(answer.body);
      etags.set(pathOf(request.url), etag);
      answer.headers = { ...answer.headers, etag, 'last-modified': STARTED.toUTCString() };
    }
    send(res, answer);
  });
});

const anyIfNoneMatch304 = target('any-validator-gets-304', true, 'A hand-written freshness test answers 304 whenever If-None-Match or If-Modified-Since is present, whatever its value', () =>
  serveApp({
    after: (answer, request) => {
      const conditional = request.headers['if-none-match'] !== undefined || request.headers['if-modified-since'] !== undefined;
      const withTag = answer.status === 200 && answer.body !== undefined ? { ...answer, headers: { ...answer.headers, etag: etagOf(answer.body) } } : answer;
      return conditional && withTag.status === 200 && request.method !== 'DELETE' ? { status: 304, headers: { etag: withTag.headers.etag! }, body: undefined } : withTag;
    },
  }),
);

// ---------------------------------------------------------------------------------------------
// Broken: connections (keep-alive)
// ---------------------------------------------------------------------------------------------

const authPerSocket = target('auth-cached-on-connection', true, 'The first accepted key is remembered on the keep-alive socket; later requests on it (no key, a bad key, the restricted key) act as that key', () => {
  const store = new Store();
  const principals = new WeakMap<Socket, string>();
  const parts: Parts = {
    ...faithfulParts,
    presentedKey(request) {
      const remembered = principals.get(request.socket);
      if (remembered !== undefined) return remembered;
      const key = faithfulParts.presentedKey(request);
      if (key !== undefined && store.keys.has(key)) principals.set(request.socket, key);
      return key;
    },
  };
  return serve((req, res) => send(res, handle(store, parts, toApiRequest(req))));
});

const loaderPerSocket = target('token-loader-per-connection', true, 'A DataLoader meant per request is created per connection: a token looked up on a socket stays "found", so deleting it again on that socket answers 200', () => {
  const store = new Store();
  const loaders = new WeakMap<Socket, Map<string, boolean>>();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const step = authorizedDelete(store, request);
    if ('answer' in step) return send(res, step.answer);
    const route = step.route;
    let loader = loaders.get(request.socket);
    if (!loader) loaders.set(request.socket, (loader = new Map()));
    const id = route.params.join('/');
    const exists = loader.get(id) ?? lookup(store, faithfulParts, route.operationId, route.params).found;
    loader.set(id, exists);
    if (!exists) return send(res, errorAnswer(faithfulParts, 404, request));
    store.tokens.get(route.params[0]!)?.delete(route.params[1]!);
    send(res, { status: 200, headers: {}, body: undefined });
  });
});

const headWritesBody = target('head-body-written-to-socket', true, 'A hand-rolled response writer sends the GET body after a HEAD answer too, so the next response on the keep-alive connection starts with stray bytes', () => {
  const store = new Store();
  return serve((req, res) => {
    const answer = handle(store, faithfulParts, toApiRequest(req));
    send(res, answer);
    if (req.method === 'HEAD' && answer.body !== undefined) res.socket?.write(answer.body);
  });
});

const contentLengthUtf16 = target('content-length-in-utf16-units', true, 'Content-Length is the string length, not the byte length: an error message echoing a non-ASCII id is cut short', () => {
  const store = new Store();
  const parts: Parts = { ...faithfulParts, message: (status, request, detail) => (detail ? `No resource ${JSON.stringify(detail)} was found.` : faithfulParts.message(status, request)) };
  return serve((req, res) => {
    const answer = handle(store, parts, toApiRequest(req));
    const bytes = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body);
    const declared = answer.body?.length ?? 0;
    res.writeHead(answer.status, { ...answer.headers, 'content-length': String(declared) });
    res.end(bytes.subarray(0, declared));
  });
});

// ---------------------------------------------------------------------------------------------
// Broken: overlapping requests
// ---------------------------------------------------------------------------------------------

/** The faithful flow with an awaited permission lookup (a role service, a database). */
async function asyncFlow(store: Store, request: ApiRequest, permissionKey: () => string | undefined, beforeCheck: (key: string) => void): Promise<Answer> {
  const route = routeOf(pathOf(request.url));
  if (route.kind === 'no-route') return errorAnswer(faithfulParts, 404, request);
  const byMethod = methodAnswer(route, request.method);
  if (byMethod) return byMethod;
  const key = faithfulParts.presentedKey(request);
  if (key === undefined || !store.keys.has(key)) return errorAnswer(faithfulParts, 401, request);
  beforeCheck(key);
  await sleep(4);
  if (!store.permits(permissionKey()!, route.operationId)) return errorAnswer(faithfulParts, 403, request);
  const found = lookup(store, faithfulParts, route.operationId, route.params);
  if (!found.found) return errorAnswer(faithfulParts, 404, request);
  return operate(store, faithfulParts, route.operationId, found);
}

const sharedCurrentKey = target('module-level-current-key', true, 'The authenticated key is kept in a module-level variable across an awaited role lookup: overlapping requests with other keys get each other\'s permissions', () => {
  const store = new Store();
  let currentKey: string | undefined;
  return serve(async (req, res) =>
    send(
      res,
      await asyncFlow(store, toApiRequest(req), () => currentKey, (key) => {
        currentKey = key;
      }),
    ),
  );
});

const sharedDeleteParams = target('module-level-delete-params', true, 'The delete handler keeps req.params in a module-level variable across an awaited account load: overlapping deletes of different tokens delete the wrong one', () => {
  const store = new Store();
  let params: string[] = [];
  return serve(async (req, res) => {
    const request = toApiRequest(req);
    const step = authorizedDelete(store, request);
    if ('answer' in step) return send(res, step.answer);
    const route = step.route;
    params = route.params;
    await sleep(4);
    const found = lookup(store, faithfulParts, route.operationId, params);
    send(res, found.found ? operate(store, faithfulParts, route.operationId, found) : errorAnswer(faithfulParts, 404, request));
  });
});

const urlKeyedCache = target('response-cache-keyed-by-url', true, 'A micro-cache in front of the app stores GET 200 answers for 3 s keyed by URL only (no Vary: Authorization): other keys and no key get the cached 200', () => {
  const store = new Store();
  const cache = new Map<string, { answer: Answer; until: number }>();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const hit = cache.get(request.url);
    if ((request.method === 'GET' || request.method === 'HEAD') && hit && hit.until > Date.now()) return send(res, { ...hit.answer, headers: { ...hit.answer.headers, 'x-cache': 'HIT' } });
    const answer = handle(store, faithfulParts, request);
    if (request.method === 'GET' && answer.status === 200) cache.set(request.url, { answer, until: Date.now() + 3000 });
    send(res, answer);
  });
});

const checkThenDelete = target('delete-check-then-act', true, 'Delete checks that the token exists, awaits the audit-log write, then deletes: two overlapping deletes of one token both answer 200', () => {
  const store = new Store();
  return serve(async (req, res) => {
    const request = toApiRequest(req);
    const step = authorizedDelete(store, request);
    if ('answer' in step) return send(res, step.answer);
    const route = step.route;
    const found = lookup(store, faithfulParts, route.operationId, route.params);
    if (!found.found) return send(res, errorAnswer(faithfulParts, 404, request));
    await sleep(40);
    send(res, operate(store, faithfulParts, route.operationId, found));
  });
});

// ---------------------------------------------------------------------------------------------
// Broken: state over time
// ---------------------------------------------------------------------------------------------

const tokenResurrects = target('deleted-token-comes-back', true, 'Deletions go to a write-behind cache whose flush fails silently; after 1.2 s the token exists again and can be deleted a second time', () => {
  const store = new Store();
  const pending = new Map<string, number>();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const step = authorizedDelete(store, request);
    if ('answer' in step) return send(res, step.answer);
    const route = step.route;
    const id = route.params.join('/');
    const until = pending.get(id);
    const hidden = until !== undefined && until > Date.now();
    if (hidden || !lookup(store, faithfulParts, route.operationId, route.params).found) return send(res, errorAnswer(faithfulParts, 404, request));
    pending.set(id, Date.now() + 1200);
    send(res, { status: 200, headers: {}, body: undefined });
  });
});

const versionChangesMidRun = target('version-changes-after-rolling-deploy', true, 'A rolling deploy finishes 800 ms after the first request: environments answers switch from version 1 to version 2', () => {
  let first: number | undefined;
  return serveApp({
    parts: {
      version() {
        first ??= Date.now();
        return Date.now() - first < 800 ? 1 : 2;
      },
    },
  });
});

const hotReloadWindow = target('config-hot-reload-empty-window', true, 'A file watcher, started once the app has served its first five requests, reloads keys and projects on every change in the config folder (a log file there changes every 100 ms) by clearing the maps and refilling them 35 ms later; requests in between get 401 and 404', () => {
  const store = new Store();
  const fresh = new Store();
  let served = 0;
  let timer: NodeJS.Timeout | undefined;
  let refill: NodeJS.Timeout | undefined;
  const reload = () => {
    store.keys.clear();
    store.projects.clear();
    refill = setTimeout(() => {
      for (const [k, v] of fresh.keys) store.keys.set(k, v);
      for (const [k, v] of fresh.projects) store.projects.set(k, v);
    }, 35);
  };
  return serve(
    (req, res) => {
      send(res, handle(store, faithfulParts, toApiRequest(req)));
      if (++served === 5) {
        reload();
        timer = setInterval(reload, 100);
      }
    },
    undefined,
    () => {
      clearInterval(timer);
      clearTimeout(refill);
    },
  );
});

const errorIdFromClock = target('error-id-from-clock', true, 'Error ids are the time to the second, as in the log line (err-2026-11-24T21:40:24): two errors in one second share an id', () =>
  serveApp({ parts: { errorId: () => `err-${new Date().toISOString().slice(0, 19)}` } }),
);

// ---------------------------------------------------------------------------------------------
// Broken: auth edge cases
// ---------------------------------------------------------------------------------------------

const unicodeTrim = target('key-trimmed-with-string-trim', true, 'The key is cleaned with String.prototype.trim(), which also strips U+00A0, U+FEFF and other Unicode spaces the decision says make a key invalid', () =>
  serveApp({
    parts: {
      presentedKey(request) {
        const value = request.headers.authorization?.trim();
        if (value === undefined) return undefined;
        return value.replace(/^bearer\s+/i, '').trim();
      },
    },
  }),
);

const PROTECTED = /^\/api\/admin\/(environments\/project\/[^/]+|auth\/oidc\/settings|service-account\/[^/]+\/token\/[^/]+)$/;

const trailingSlashSkipsAuth = target('trailing-slash-bypasses-auth', true, 'The router ignores one trailing slash (as Express does) but the auth guard matches exact paths: /api/admin/auth/oidc/settings/ needs no key', () => {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const path = pathOf(request.url);
    const routed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const guarded = PROTECTED.test(path);
    const headers = guarded ? request.headers : { ...request.headers, authorization: FULL_KEY };
    send(res, handle(store, faithfulParts, { ...request, url: routed, headers }));
  });
});

const encodedPathSkipsAuth = target('encoded-path-bypasses-auth', true, 'The auth guard tests the raw path prefix /api/admin/ while the router decodes the whole path first: /api/%61dmin/... needs no key', () => {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const raw = pathOf(request.url);
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return send(res, errorAnswer(faithfulParts, 404, request));
    }
    const guarded = raw.startsWith('/api/admin/');
    // The router sees the decoded path; re-encode each segment so the app's own decoding is a no-op.
    const routed = decoded.split('/').map(encodeURIComponent).join('/');
    send(res, handle(store, faithfulParts, { ...request, url: routed, headers: guarded ? request.headers : { ...request.headers, authorization: FULL_KEY } }));
  });
});

const sessionCookie = target('session-cookie-is-a-credential', true, 'An authenticated answer sets a session cookie, and the cookie alone (or beside another key) then authenticates as the first key', () => {
  const store = new Store();
  const sessions = new Map<string, string>();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    const session = sid === undefined ? undefined : sessions.get(sid);
    const effective = session === undefined ? request : { ...request, headers: { ...request.headers, authorization: session } };
    const answer = handle(store, faithfulParts, effective);
    const key = faithfulParts.presentedKey(effective);
    if (session === undefined && key !== undefined && store.keys.has(key)) {
      const id = randomUUID();
      sessions.set(id, key);
      answer.headers = { ...answer.headers, 'set-cookie': `sid=${id}; Path=/; HttpOnly; SameSite=Lax` };
    }
    send(res, answer);
  });
});

const lookupBeforePermission = target('lookup-before-permission', true, 'The resource is loaded before the permission check: a restricted key gets 404 for a missing token and 403 only for existing ones', () => {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const route = routeOf(pathOf(request.url));
    if (route.kind === 'no-route') return send(res, errorAnswer(faithfulParts, 404, request));
    const byMethod = methodAnswer(route, request.method);
    if (byMethod) return send(res, byMethod);
    const key = faithfulParts.presentedKey(request);
    if (key === undefined || !store.keys.has(key)) return send(res, errorAnswer(faithfulParts, 401, request));
    const found = lookup(store, faithfulParts, route.operationId, route.params);
    if (!found.found) return send(res, errorAnswer(faithfulParts, 404, request));
    if (!store.permits(key, route.operationId)) return send(res, errorAnswer(faithfulParts, 403, request));
    send(res, operate(store, faithfulParts, route.operationId, found));
  });
});

// ---------------------------------------------------------------------------------------------
// Broken: ids, statuses, bodies (mostly what the spec names), body parsing, shared objects
// ---------------------------------------------------------------------------------------------

const collation = target('ids-in-case-insensitive-pad-space-collation', true, 'Ids are looked up in a MySQL column with a _ci PAD SPACE collation: DEFAULT and "default " find default', () =>
  serveApp({ parts: { sameId: (a, b) => a.toLowerCase().replace(/ +$/, '') === b.toLowerCase().replace(/ +$/, '') } }),
);

const numericIds = target('token-ids-compared-as-numbers', true, 'Account and token ids are compared with Number(): 01, +1, 1.0 and 0x1 name token 1', () =>
  serveApp({ parts: { sameId: (a, b) => (a === b || (/^\d+$/.test(b) && a.trim() !== '' && Number(a) === Number(b))) } }),
);

const delete204 = target('delete-answers-204', true, 'A successful delete answers 204 No Content instead of the documented 200', () => serveApp({ after: (answer, request) => (request.method === 'DELETE' && answer.status === 200 ? { status: 204, headers: {}, body: undefined } : answer) }));

const disabledListed = target('disabled-environments-listed', true, 'Every environment of the project is listed, the disabled ones too (API §4.1 lists only the enabled)', () => serveApp({ parts: { listed: () => true } }));

const errorsAsHtml = target('errors-sent-as-text-html', true, 'Error bodies are JSON text sent with res.send(string), so they carry Content-Type: text/html', () =>
  serveApp({ after: (answer) => (answer.status >= 400 && answer.body !== undefined ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/html; charset=utf-8' } } : answer) }),
);

const gzipLabelOnly = target('gzip-label-without-compression', true, 'When gzip is accepted, Content-Encoding: gzip is set but the body goes out uncompressed (the compression stream is bypassed)', () =>
  serveApp({ after: (answer, request) => (/gzip/i.test(request.headers['accept-encoding'] ?? '') && answer.body !== undefined ? { ...answer, headers: { ...answer.headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding' } } : answer) }),
);

const jsonParserOnEmptyBody = target('json-parser-rejects-empty-body', true, 'A JSON body parser in front of every route answers 400 ValidationError when Content-Type: application/json comes with an empty body (as axios sends on DELETE and GET)', () => {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const empty = req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] ?? '0') === '0';
    if (/^application\/json/i.test(req.headers['content-type'] ?? '') && empty) return send(res, errorAnswer({ ...faithfulParts, message: () => 'Unexpected end of JSON input' }, 400, request));
    send(res, handle(store, faithfulParts, request));
  });
});

const auditRedactsInPlace = target('audit-log-redacts-in-place', true, 'The audit logger redacts the OIDC secret in the settings object it was handed, which is the stored one: every read after the first lacks the secret', () => {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const answer = handle(store, faithfulParts, request);
    send(res, answer);
    if (answer.status === 200 && operationOf(request) === 'getOidcSettings') delete store.oidc.secret;
  });
});

const decodedTwice = target('ids-percent-decoded-twice', true, 'A normalising middleware percent-decodes path parameters the router already decoded: %2564efault names default and %2531 names token 1', () => {
  const decodeAgain = (value: string) => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  };
  return serveApp({ parts: { sameId: (presented, stored) => decodeAgain(presented) === stored } });
});

// ---------------------------------------------------------------------------------------------
// Conformant but unusual
// ---------------------------------------------------------------------------------------------

const earlyHints = target('early-hints-and-no-date', false, 'Every answer to an HTTP/1.1 request is preceded by a 103 Early Hints (Link: preload), and no answer carries a Date header', () => {
  const store = new Store();
  return serve((req, res) => {
    res.sendDate = false;
    // RFC 9110 §15.2: no 1xx to an HTTP/1.0 client. Until 28 Nov this sent it to every request (node:http's writeEarlyHints does
    // not check the version), the defect of round thirteen's broken `early-hints-to-http-1.0`; see BASELINE.md.
    if (req.httpVersionMajor > 1 || req.httpVersionMinor >= 1) res.writeEarlyHints({ link: '</openapi.json>; rel=preload; as=fetch' });
    send(res, handle(store, faithfulParts, toApiRequest(req)));
  });
});

const emptyDeleteTyped = target('empty-delete-with-json-content-type', false, 'A successful delete answers 200 with no body but Content-Type: application/json and Content-Length: 0', () =>
  serveApp({ after: (answer, request) => (request.method === 'DELETE' && answer.status === 200 ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/json; charset=utf-8' } } : answer) }),
);

const extraHeaders = target('extra-headers-odd-case-and-order', false, 'Extra response headers (Server, X-Powered-By, X-Request-Id, HSTS, Cache-Control), names in odd case, in reverse order', () => {
  const store = new Store();
  return serve((req, res) => {
    const answer = handle(store, faithfulParts, toApiRequest(req));
    const body = answer.body === undefined ? undefined : Buffer.from(answer.body);
    const headers: [string, string][] = [
      ['X-Request-Id', randomUUID()],
      ['Strict-Transport-Security', 'max-age=63072000'],
      ['X-Content-Type-Options', 'nosniff'],
      ['Cache-Control', 'no-store'],
      ['X-Powered-By', 'Hand-rolled/1.0'],
      ['Server', 'flags-backend'],
      // RFC 9110 §8.6: no Content-Length on a 204 (the OPTIONS answer) or a 304 (changed on branch wire10, see BASELINE.md).
      ...(answer.status === 204 || answer.status === 304 ? [] : [['CONTENT-LENGTH', String(body?.length ?? 0)] as [string, string]]),
      ...Object.entries(answer.headers).map(([k, v]): [string, string] => [k.toUpperCase(), v]),
    ].reverse() as [string, string][];
    res.writeHead(answer.status, headers.flat());
    res.end(body);
  });
});

const connectionClose = target('connection-close-every-answer', false, 'Every answer carries Connection: close and the server closes the socket (no keep-alive at all)', () =>
  serveApp({ after: (answer) => ({ ...answer, headers: { ...answer.headers, connection: 'close' } }) }),
);

const head405 = target('head-and-options-405-with-allow', false, 'No HEAD or OPTIONS routes: both get 405 with an Allow header (decision head-requests allows it)', () =>
  serveApp({
    after: (answer, request) => {
      const route = routeOf(pathOf(request.url));
      if (route.kind !== 'operation' || (request.method !== 'HEAD' && request.method !== 'OPTIONS')) return answer;
      return { status: 405, headers: { allow: route.method, 'content-type': 'application/json' }, body: JSON.stringify({ message: `Method ${request.method} not allowed` }) };
    },
  }),
);

/** The content codings a request accepts, best first (RFC 9110 §12.5.3). */
function acceptedCoding(header: string | undefined): 'br' | 'gzip' | 'deflate' | undefined {
  if (header === undefined) return undefined;
  const weights = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name, ...params] = item.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name!.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (c: string) => weights.get(c) ?? weights.get('*') ?? 0;
  const best = (['br', 'gzip', 'deflate'] as const).filter((c) => weight(c) > 0).sort((a, b) => weight(b) - weight(a))[0];
  return best;
}

const compression = target('compression-when-asked', false, 'Bodies are compressed (br, gzip or deflate, by q-value) when Accept-Encoding allows it, with Vary: Accept-Encoding', () => {
  const store = new Store();
  return serve((req, res) => {
    const answer = handle(store, faithfulParts, toApiRequest(req));
    const coding = acceptedCoding(req.headers['accept-encoding']);
    if (answer.body === undefined || coding === undefined) return send(res, { ...answer, headers: { ...answer.headers, vary: 'Accept-Encoding' } });
    const raw = Buffer.from(answer.body);
    const body = coding === 'br' ? brotliCompressSync(raw) : coding === 'gzip' ? gzipSync(raw) : deflateSync(raw);
    res.writeHead(answer.status, { ...answer.headers, 'content-encoding': coding, vary: 'Accept-Encoding', 'content-length': String(body.length) });
    res.end(body);
  });
});

const LOCALIZED: Record<string, Record<number, string>> = {
  de: { 401: 'Ein gültiger API-Schlüssel ist erforderlich.', 403: 'Diesem Schlüssel fehlt die Berechtigung.', 404: 'Die Ressource wurde nicht gefunden.' },
  fr: { 401: 'Une clé API valide est requise.', 403: 'Cette clé n’a pas la permission.', 404: 'La ressource est introuvable.' },
};

const errorExtras = target('errors-with-extra-fields-localized', false, 'Error bodies add statusCode, details, requestId and timestamp, and messages follow Accept-Language (de, fr) with Content-Language', () =>
  serveApp({
    parts: {
      message(status, request) {
        const lang = (request.headers['accept-language'] ?? '').slice(0, 2).toLowerCase();
        return LOCALIZED[lang]?.[status] ?? faithfulParts.message(status, request);
      },
    },
    after(answer, request) {
      if (answer.status < 400 || answer.body === undefined || !answer.headers['content-type']?.startsWith('application/json')) return answer;
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      const lang = (request.headers['accept-language'] ?? '').slice(0, 2).toLowerCase();
      return json(answer.status, { ...body, statusCode: answer.status, details: [], requestId: randomUUID(), timestamp: new Date().toISOString() }, LOCALIZED[lang] ? { 'content-language': lang } : {});
    },
  }),
);

const routerPlainText = target('router-plain-text-refusals', false, 'Express-style router: paths no route holds get a plain-text 404 "Cannot GET /x", wrong methods a plain-text 405, malformed percent-encoding a plain-text 400', () => {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const path = pathOf(request.url);
    const plain = (status: number, text: string, headers: Record<string, string> = {}) => send(res, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'x-content-type-options': 'nosniff', ...headers }, body: `<!DOCTYPE html><pre>${text}</pre>` });
    try {
      path.split('/').forEach((s) => decodeURIComponent(s));
    } catch {
      return plain(400, 'Bad Request');
    }
    const route = routeOf(path);
    if (route.kind === 'no-route') return plain(404, `Cannot ${request.method} ${path.replace(/[<>&]/g, '')}`);
    if (request.method !== route.method && !(request.method === 'HEAD' && route.method === 'GET')) {
      if (request.method === 'OPTIONS') return send(res, { status: 200, headers: { allow: route.method === 'GET' ? 'GET,HEAD' : 'DELETE', 'content-type': 'text/html; charset=utf-8' }, body: route.method === 'GET' ? 'GET,HEAD' : 'DELETE' });
      return plain(405, `Cannot ${request.method} ${path}`, { allow: route.method });
    }
    send(res, handle(store, faithfulParts, request));
  });
});

const slowButInTime = target('slow-but-in-time', false, 'Every answer waits 10-60 ms, and every 25th one 1.5 s, far inside the suite\'s 10 s time-out', () => {
  const store = new Store();
  let n = 0;
  return serve(async (req, res) => {
    n++;
    await sleep(n % 25 === 0 ? 1500 : 10 + ((n * 37) % 50));
    send(res, handle(store, faithfulParts, toApiRequest(req)));
  });
});

const shuffledOrder = target('list-and-key-order-change', false, 'The environment list is rotated on every answer and object keys come in a different order each time (the list is keyed by name; JSON key order means nothing, RFC 8259 §4)', () => {
  let n = 0;
  const reorderKeys = (value: unknown, turn: number): unknown => {
    if (Array.isArray(value)) return value.map((v) => reorderKeys(v, turn));
    if (value && typeof value === 'object') {
      const entries = Object.entries(value).map(([k, v]): [string, unknown] => [k, reorderKeys(v, turn)]);
      return Object.fromEntries(turn % 2 ? entries.reverse() : entries.sort(([a], [b]) => a.localeCompare(b)));
    }
    return value;
  };
  return serveApp({
    after(answer) {
      if (answer.status !== 200 || answer.body === undefined) return answer;
      const body = JSON.parse(answer.body) as { environments?: unknown[] };
      n++;
      // Only the environments list turns: its order carries no meaning (spec: x-unique-by name);
      // the order of constraints, values, variants and segments is left as stored.
      if (Array.isArray(body.environments)) {
        const k = body.environments.length ? n % body.environments.length : 0;
        body.environments = [...body.environments.slice(k), ...body.environments.slice(0, k)];
      }
      return { ...answer, body: JSON.stringify(reorderKeys(body, n)) };
    },
  });
});

const etag304 = target('etag-and-conditional-get', false, 'ETag and Last-Modified on 200s; after auth, a matching If-None-Match or a valid If-Modified-Since gets 304 (RFC 9110 §13.1); Vary: Authorization', () =>
  serveApp({
    after(answer, request) {
      if (answer.status !== 200 || answer.body === undefined) return answer;
      const etag = etagOf(answer.body);
      const headers = { ...answer.headers, etag, 'last-modified': STARTED.toUTCString(), 'cache-control': 'private, no-cache', vary: 'Authorization' };
      const inm = request.headers['if-none-match'];
      const fresh = inm !== undefined ? noneMatchHits(inm, etag) : notModifiedSince(request.headers['if-modified-since']);
      if (fresh && (request.method === 'GET' || request.method === 'HEAD')) return { status: 304, headers: { etag, 'last-modified': headers['last-modified'], 'cache-control': headers['cache-control'], vary: 'Authorization' }, body: undefined };
      return { ...answer, headers };
    },
  }),
);

const bearerAndChallenges = target('bearer-challenge-and-own-id-format', false, '401s carry WWW-Authenticate, error ids are short sequential ids (err_000001...), messages name the operation, Bearer in any case is accepted', () => {
  let ulidCounter = 0;
  return serveApp({
    parts: {
      errorId: () => `err_${String(++ulidCounter).padStart(6, '0')}_${randomUUID().slice(0, 4)}`,
      message: (status, request) => `${faithfulParts.message(status, request)} (${request.method} ${pathOf(request.url)})`,
    },
    after: (answer) => (answer.status === 401 ? { ...answer, headers: { ...answer.headers, 'www-authenticate': 'Bearer realm="flags", ApiKey realm="flags"' } } : answer),
  });
});

const slashRedirectCors = target('trailing-slash-308-and-cors', false, 'A trailing slash gets a 308 to the path without it; OPTIONS is a CORS preflight answered 204; every answer carries Access-Control-Allow-Origin', () => {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const path = pathOf(request.url);
    const cors = { 'access-control-allow-origin': '*', vary: 'Origin' };
    if (path.length > 1 && path.endsWith('/')) return send(res, { status: 308, headers: { ...cors, location: path.slice(0, -1) + request.url.slice(path.length) }, body: undefined });
    const route = routeOf(path);
    if (request.method === 'OPTIONS' && route.kind === 'operation') {
      return send(res, { status: 204, headers: { ...cors, allow: route.method === 'GET' ? 'GET, HEAD, OPTIONS' : 'DELETE, OPTIONS', 'access-control-allow-methods': `${route.method}, OPTIONS`, 'access-control-allow-headers': 'Authorization, Content-Type', 'access-control-max-age': '600' }, body: undefined });
    }
    const answer = handle(store, faithfulParts, request);
    send(res, { ...answer, headers: { ...answer.headers, ...cors } });
  });
});

const chunkedShortKeepAlive = target('chunked-and-short-keep-alive', false, 'Bodies are sent chunked (no Content-Length) in two writes, and idle keep-alive sockets are closed after 1 s', () => {
  const store = new Store();
  return serve(
    (req, res: ServerResponse) => {
      const answer = handle(store, faithfulParts, toApiRequest(req));
      if (answer.body === undefined) return send(res, answer);
      res.writeHead(answer.status, answer.headers);
      const half = Math.floor(answer.body.length / 2);
      res.write(answer.body.slice(0, half));
      setImmediate(() => res.end(answer.body!.slice(half)));
    },
    (server) => {
      server.keepAliveTimeout = 1000;
    },
  );
});

const oidcOffVersion7 = target('oidc-off-version-7-unicode-messages', false, 'OIDC is switched off ({"enabled": false} only), environments answer version 7 every time, and 404 messages echo the id, non-ASCII included', () =>
  serveApp({
    parts: {
      version: () => 7,
      message: (status, request, detail) => (detail !== undefined ? `Nothing is named “${detail}” here.` : faithfulParts.message(status, request)),
    },
    after: (answer, request) => (answer.status === 200 && operationOf(request) === 'getOidcSettings' ? json(200, { enabled: false }) : answer),
  }),
);

// The app's router holds no trailing slash; this one strips it before the faithful flow.
const slashTolerant = target('trailing-slash-ignored-with-auth', false, 'Express defaults: one trailing slash is ignored (same answer, same auth), X-Powered-By: Express, ETag: W/"…" on 200s without conditional handling', () => {
  const store = new Store();
  return serve((req, res) => {
    const request = toApiRequest(req);
    const path = pathOf(request.url);
    const routed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) + request.url.slice(path.length) : request.url;
    const answer = handle(store, faithfulParts, { ...request, url: routed });
    const headers = { ...answer.headers, 'x-powered-by': 'Express', ...(answer.status === 200 && answer.body !== undefined ? { etag: `W/${etagOf(answer.body)}` } : {}) };
    send(res, { ...answer, headers });
  });
});

export const TARGETS: readonly RedTeamTarget[] = [
  headHealthCheck,
  head405NoAllow,
  tokenRouteAnyMethod,
  optionsSkipsAuth,
  methodOverrideEverywhere,
  acceptExact,
  acceptHtmlRedirect,
  acceptLanguage500,
  userAgentWaf,
  headerNameCase,
  conditionalBeforeAuth,
  anyIfNoneMatch304,
  authPerSocket,
  loaderPerSocket,
  headWritesBody,
  contentLengthUtf16,
  sharedCurrentKey,
  sharedDeleteParams,
  urlKeyedCache,
  checkThenDelete,
  tokenResurrects,
  versionChangesMidRun,
  hotReloadWindow,
  errorIdFromClock,
  unicodeTrim,
  trailingSlashSkipsAuth,
  encodedPathSkipsAuth,
  sessionCookie,
  lookupBeforePermission,
  collation,
  numericIds,
  delete204,
  disabledListed,
  errorsAsHtml,
  gzipLabelOnly,
  jsonParserOnEmptyBody,
  auditRedactsInPlace,
  decodedTwice,
  extraHeaders,
  connectionClose,
  head405,
  compression,
  errorExtras,
  routerPlainText,
  slowButInTime,
  shuffledOrder,
  etag304,
  bearerAndChallenges,
  slashRedirectCors,
  chunkedShortKeepAlive,
  oidcOffVersion7,
  slashTolerant,
  earlyHints,
  emptyDeleteTyped,
];
