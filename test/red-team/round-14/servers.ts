// Red team round fourteen (issue 18): held-out servers written without reading the suite. Each is
// ../app.ts (the faithful app) with one part replaced: a Parts member, an `after` hook on the
// answer, a wrapper around the flow, the store's contents, or the byte writer of ../net-server.ts.
// BASELINE.md beside this file names the rule each broken target breaks and the rule that allows
// each conformant one.
import { createHash, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import {
  type Answer,
  type ApiRequest,
  ERROR_NAMES,
  errorAnswer,
  faithfulParts,
  handle,
  header,
  json,
  type Parts,
  pathOf,
  type RedTeamTarget,
  routeOf,
  send,
  serve,
  serveApp,
  Store,
  target,
  toApiRequest,
} from '../app.ts';
import { chunkedBytes, plainBytes, serveNet } from '../net-server.ts';

export type { RedTeamTarget };

/** The faithful app on a given store, each answer passed through `after` (which may also see the route). */
function serveStore(store: Store, parts: Parts, after?: (answer: Answer, request: ApiRequest) => Answer | Promise<Answer>): ReturnType<typeof serve> {
  return serve(async (req, res) => {
    const request = toApiRequest(req);
    const answer = handle(store, parts, request);
    send(res, after ? await after(answer, request) : answer);
  });
}

const isDeleteRoute = (request: ApiRequest) => {
  const route = routeOf(pathOf(request.url));
  return route.kind === 'operation' && route.operationId === 'deleteServiceAccountToken' ? route : undefined;
};

const isReadRoute = (request: ApiRequest) => {
  const route = routeOf(pathOf(request.url));
  return route.kind === 'operation' && route.method === 'GET' ? route : undefined;
};

/** ../net-server.ts parsing as a careful server does, 400 without Host (RFC 9112 §3.2), so only the writer differs. */
const NET_OPTIONS = { strict: true, requireHost: true } as const;

const queryParam = (request: ApiRequest, name: string) => new URL(request.url, 'http://x').searchParams.get(name);

const strongTag = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;

/** `Accept-Encoding` admits gzip with a q-value above 0 (RFC 9110 §12.5.3). */
function acceptsGzip(request: ApiRequest): boolean {
  const value = header(request, 'accept-encoding');
  if (value === undefined) return false;
  for (const item of value.split(',')) {
    const [coding, ...params] = item.trim().split(';').map((s) => s.trim());
    if (coding?.toLowerCase() !== 'gzip') continue;
    const q = params.find((p) => /^q=/i.test(p));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** One `bytes=` range spec resolved against `length`, or undefined when unsatisfiable; null for bad syntax. */
function resolveRange(spec: string, length: number): { first: number; last: number } | undefined | null {
  const m = /^(\d*)-(\d*)$/.exec(spec.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || length === 0) return undefined;
    return { first: Math.max(0, length - suffix), last: length - 1 };
  }
  const first = Number(m[1]);
  const last = m[2] === '' ? length - 1 : Math.min(Number(m[2]), length - 1);
  if (m[2] !== '' && Number(m[2]) < first) return null;
  return first < length ? { first, last } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Broken, on what the API names
// ---------------------------------------------------------------------------------------------

const versionAsSemverString = target(
  'version-as-semver-string',
  true,
  'The environments answer takes `version` from package.json: `"version": "1.0.0"`, a string, where API §2.1 and the spec say integer',
  () => serveApp({ parts: { version: () => '1.0.0' as unknown as number } }),
);

const responsesWrappedInData = target(
  'responses-wrapped-in-data',
  true,
  'A NestJS-style response interceptor wraps every 200 body as `{"statusCode":200,"data":…}`: the environments answer has no top-level version or environments (API §2.1)',
  () =>
    serveApp({
      after: (answer) => (answer.status === 200 && answer.body !== undefined ? json(200, { statusCode: 200, data: JSON.parse(answer.body) }) : answer),
    }),
);

const sharedTransactionRolledBack = target(
  'shared-transaction-rolled-back-by-404',
  true,
  'Deletes join one ambient transaction committed 30 ms after it opens; a delete that finds nothing marks it rollback-only, so a delete answered 200 beside a 404 is undone (the token is back)',
  () => {
    const store = new Store();
    const parts = faithfulParts;
    let tx: { undo: [string, string][]; rollbackOnly: boolean; timer: NodeJS.Timeout } | undefined;
    const commit = () => {
      if (tx?.rollbackOnly) for (const [account, token] of tx.undo) store.tokens.get(account)?.add(token);
      tx = undefined;
    };
    return serve(
      (req, res) => {
        const request = toApiRequest(req);
        const route = isDeleteRoute(request);
        const answer = handle(store, parts, request);
        if (route && request.method === 'DELETE' && (answer.status === 200 || answer.status === 404)) {
          tx ??= { undo: [], rollbackOnly: false, timer: setTimeout(commit, 30) };
          if (answer.status === 200) tx.undo.push([route.params[0]!, route.params[1]!]);
          else tx.rollbackOnly = true;
        }
        send(res, answer);
      },
      undefined,
      () => {
        if (tx) clearTimeout(tx.timer);
      },
    );
  },
);

const forbiddenAnswered401 = target(
  'forbidden-answered-401',
  true,
  'The auth guard maps every failure, a missing permission included, to 401 AuthenticationRequired: the environments-only key gets 401 on the OIDC read and the delete (API §5, §7: 403 NoAccessError)',
  () => serveApp({ after: (answer, request) => (answer.status === 403 ? errorAnswer(faithfulParts, 401, request) : answer) }),
);

const bearerSchemeCaseSensitive = target(
  'bearer-scheme-case-sensitive',
  true,
  "The scheme is stripped with `value.startsWith('Bearer ')`: `Bearer <key>` is accepted but `bearer <key>` or `BEARER <key>` is 401 (RFC 9110 §11.1: the scheme is case-insensitive)",
  () =>
    serveApp({
      parts: {
        presentedKey(request) {
          const value = header(request, 'authorization');
          if (value === undefined) return undefined;
          const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '');
          return trimmed.startsWith('Bearer ') ? trimmed.slice('Bearer '.length) : trimmed;
        },
      },
    }),
);

const accessTokenQueryParam = target(
  'access-token-query-param',
  true,
  'The key is also read from the `access_token` query parameter (RFC 6750 §2.3 style, as passport-http-bearer does): `?access_token=<key>` without Authorization is the key (decision key-in-header-only)',
  () =>
    serveApp({
      parts: {
        presentedKey: (request) => faithfulParts.presentedKey(request) ?? queryParam(request, 'access_token') ?? undefined,
      },
    }),
);

const idsMatchedAsRegex = target(
  'ids-matched-as-regex',
  true,
  "Ids are matched with `new RegExp('^' + id + '$')` (a route helper meant for patterns): `d.fault` and `def.*` name project default, `.` names token 1 (decision project-id-compared-exactly, token-ids-compared-exactly)",
  () =>
    serveApp({
      parts: {
        sameId(presented, stored) {
          try {
            return new RegExp(`^${presented}$`).test(stored);
          } catch {
            return false;
          }
        },
      },
    }),
);

const deleteMissingTokenPlain404 = target(
  'delete-missing-token-plain-404',
  true,
  'The delete handler ends a missing token with Express `res.sendStatus(404)`: text/plain `Not Found`, no error body (API §4.3, §2.3; decision: every 404 of an operation carries id, name, message)',
  () =>
    serveApp({
      after: (answer, request) =>
        answer.status === 404 && request.method === 'DELETE' && isDeleteRoute(request) ? { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Found' } : answer,
    }),
);

const deletedToken410Gone = target(
  'deleted-token-410-gone',
  true,
  'Deleted tokens leave a tombstone, and a delete of a tombstoned token answers 410 Gone (JSON, name "Gone") instead of 404 NotFoundError (decision delete-is-final: the same delete again gets 404; 410 is undocumented)',
  () => {
    const tombstones = new Set<string>();
    return serveApp({
      after(answer, request) {
        const route = isDeleteRoute(request);
        if (!route || request.method !== 'DELETE') return answer;
        const id = `${route.params[0]}/${route.params[1]}`;
        if (answer.status === 200) tombstones.add(id);
        if (answer.status === 404 && tombstones.has(id)) return json(410, { id: randomUUID(), name: 'Gone', message: `Token ${id} was deleted.` });
        return answer;
      },
    });
  },
);

const contextObjectReusedUnkeyed = target(
  'context-object-reused-unkeyed',
  true,
  'Request contexts come from a pool (of one, at this load) and `ctx.key` is only assigned when Authorization is present: a request without the header, on any connection, acts as the last key (API §5: 401)',
  () => {
    const ctx: { key?: string } = {};
    return serveApp({
      parts: {
        presentedKey(request) {
          const key = faithfulParts.presentedKey(request);
          if (key !== undefined) ctx.key = key;
          return ctx.key;
        },
      },
    });
  },
);

const errorNamesIndexedByOffset = target(
  'error-names-indexed-by-status-offset',
  true,
  "Error names come from `['ValidationError','AuthenticationRequired','NoAccessError','NotFoundError'][status - 400]`: 403 is named NotFoundError and 404 has no name (API §7, decision: name fixed per status)",
  () => {
    const names = ['ValidationError', 'AuthenticationRequired', 'NoAccessError', 'NotFoundError'];
    return serveApp({
      after(answer) {
        if (answer.status < 400 || answer.body === undefined || !answer.headers['content-type']?.startsWith('application/json')) return answer;
        const body = JSON.parse(answer.body) as Record<string, unknown>;
        return json(answer.status, { ...body, name: names[answer.status - 400] });
      },
    });
  },
);

const projectIdsInRoutePattern = target(
  'project-ids-in-route-pattern',
  true,
  'The environments route is registered as `/environments/project/:projectId(default|mobile-app)`, built from the projects at start-up: an unknown project is no route, so it gets 404 before auth, with no key (decision: auth before lookup; API §5: 401)',
  () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const route = routeOf(pathOf(request.url));
      if (route.kind === 'operation' && route.operationId === 'getProjectEnvironments' && !store.projects.has(route.params[0]!)) {
        send(res, errorAnswer(faithfulParts, 404, request));
        return;
      }
      send(res, handle(store, faithfulParts, request));
    });
  },
);

// ---------------------------------------------------------------------------------------------
// Broken, on what the contract leaves to HTTP
// ---------------------------------------------------------------------------------------------

const expect100Continue417 = target(
  'expect-100-continue-417',
  true,
  'As old lighttpd 1.4 did: any request carrying `Expect: 100-continue` (curl adds it before large bodies), HTTP/1.0 ones included, gets 417 Expectation Failed before auth and routing (RFC 9110 §10.1.1; 417 is undocumented)',
  () => {
    const store = new Store();
    const handler = (req: Parameters<Parameters<typeof serve>[0]>[0], res: ServerResponse) => {
      const request = toApiRequest(req);
      if (/100-continue/i.test(header(request, 'expect') ?? '')) {
        send(res, { status: 417, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Expectation Failed' });
        return;
      }
      send(res, handle(store, faithfulParts, request));
    };
    // node:http sends `100 Continue` itself unless 'checkContinue' has a listener: route it to the handler.
    return serve(handler, (server) => server.on('checkContinue', (req, res) => server.emit('request', req, res)));
  },
);

const range416OnDelete = target(
  'range-416-on-delete',
  true,
  'A Range layer over every 200, any method: the delete\'s empty 200 holds no byte, so a DELETE with `Range: bytes=0-99` gets 416 although the token is deleted (decision range: never on the delete)',
  () =>
    serveApp({
      after(answer, request) {
        const range = header(request, 'range');
        // The layer looks at the status only; HEAD is left alone (node's static handlers answer it apart).
        if (answer.status !== 200 || request.method === 'HEAD' || range === undefined || !/^bytes=/i.test(range) || range.includes(',')) return answer;
        const body = Buffer.from(answer.body ?? '');
        const r = resolveRange(range.slice(6), body.length);
        if (r === null) return answer;
        if (r === undefined) return { status: 416, headers: { 'content-range': `bytes */${body.length}` }, body: undefined };
        return {
          status: 206,
          headers: { ...answer.headers, 'content-range': `bytes ${r.first}-${r.last}/${body.length}` },
          body: body.subarray(r.first, r.last + 1).toString('latin1'),
        };
      },
    }),
);

/** Reads with ETag and Last-Modified; `conditional` decides 304 (after auth and lookup: only 200s). */
function serveConditional(conditional: (request: ApiRequest, tag: string, lastModified: Date) => boolean): ReturnType<typeof serve> {
  const lastModified = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
  return serveApp({
    after(answer, request) {
      if (answer.status !== 200 || answer.body === undefined || !isReadRoute(request)) return answer;
      const tag = strongTag(answer.body);
      const headers = { ...answer.headers, etag: tag, 'last-modified': lastModified.toUTCString() };
      if (conditional(request, tag, lastModified)) return { status: 304, headers: { etag: tag, 'last-modified': lastModified.toUTCString() }, body: undefined };
      return { ...answer, headers };
    },
  });
}

const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

const imsOverridesIfNoneMatch = target(
  'ims-overrides-if-none-match',
  true,
  'Reads carry ETag and Last-Modified; a hand-rolled freshness test ORs the validators: a valid If-Modified-Since gets 304 even beside an If-None-Match that does not match (RFC 9110 §13.1.3: MUST ignore IMS when If-None-Match is present)',
  () =>
    serveConditional((request, tag, lastModified) => {
      const inm = header(request, 'if-none-match');
      const ims = header(request, 'if-modified-since');
      const tagMatches = inm !== undefined && inm.split(',').some((t) => t.trim() === tag || t.trim() === `W/${tag}` || t.trim() === '*');
      const notModifiedSince = ims !== undefined && IMF_FIXDATE.test(ims) && new Date(ims).getTime() >= lastModified.getTime();
      return tagMatches || notModifiedSince;
    }),
);

const rangeIgnoresIfRange = target(
  'range-ignores-if-range',
  true,
  "Reads carry a strong ETag and honour `Range: bytes=a-b` with a correct 206, but If-Range is never looked at: a Range under an If-Range naming another tag still gets 206 (RFC 9110 §13.1.5: MUST ignore Range then)",
  () =>
    serveApp({
      after(answer, request) {
        if (answer.status !== 200 || answer.body === undefined || request.method !== 'GET' || !isReadRoute(request)) return answer;
        const body = Buffer.from(answer.body);
        const tag = strongTag(answer.body);
        const headers = { ...answer.headers, etag: tag, 'accept-ranges': 'bytes' };
        const range = header(request, 'range');
        if (range === undefined || !/^bytes=/i.test(range) || range.includes(',')) return { ...answer, headers };
        const r = resolveRange(range.slice(6), body.length);
        if (r === null) return { ...answer, headers };
        if (r === undefined) return { status: 416, headers: { 'content-range': `bytes */${body.length}` }, body: undefined };
        return { status: 206, headers: { ...headers, 'content-range': `bytes ${r.first}-${r.last}/${body.length}` }, body: body.subarray(r.first, r.last + 1).toString('latin1') };
      },
    }),
);

const headFallsToStatic404 = target(
  'head-falls-to-static-404',
  true,
  'A static-file middleware mounted before the API (fallthrough off) takes every HEAD and answers 404 text/plain for paths it has no file for: HEAD of the reads gets 404 with any key (decision head-requests: what the GET gets, or 405 with Allow)',
  () =>
    serveApp({
      after: (answer, request) => (request.method === 'HEAD' ? { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Found' } : answer),
    }),
);

const preflight204WithContent = target(
  'preflight-204-with-content',
  true,
  'A hand-written writer answers OPTIONS with `204 No Content` and then writes the text `No Content` (announced as Content-Length: 10) after the head (RFC 9110 §15.3.5, RFC 9112 §6.3: a 204 ends at its head): the bytes start the next answer',
  () =>
    serveNet((answer, request, close) =>
      answer.status === 204 ? plainBytes({ ...answer, body: 'No Content' }, request, { close, lengthAlways: true }) : plainBytes(answer, request, { close }),
      NET_OPTIONS,
    ),
);

const formatQueryBrowsableHtml = target(
  'format-query-browsable-html',
  true,
  'Django REST framework renderers: `?format=api` gets the browsable API as text/html (the JSON inside a page), any other format but json a DRF 404 `{"detail":"Not found."}` (decision required-request-headers: `format` changes no answer)',
  () =>
    serveApp({
      after(answer, request) {
        const format = queryParam(request, 'format');
        if (format === null || format === 'json') return answer;
        if (format !== 'api') return json(404, { detail: 'Not found.' });
        const escaped = (answer.body ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;');
        return { status: answer.status, headers: { ...answer.headers, 'content-type': 'text/html; charset=utf-8' }, body: `<!DOCTYPE html><html><body><h1>Flag admin API</h1><pre>${escaped}</pre></body></html>` };
      },
    }),
);

const compressedCachedWithoutVary = target(
  'compressed-answer-cached-without-vary',
  true,
  'Reads are gzipped when asked, and a 2 s cache in front keys them by URL and Authorization but not Accept-Encoding (no Vary): after a gzip read, `Accept-Encoding: identity` gets the gzip body (RFC 9110 §12.5.3)',
  () => {
    const store = new Store();
    const cache = new Map<string, { at: number; status: number; headers: Record<string, string>; body: Buffer }>();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const cacheKey = `${request.url}\n${header(request, 'authorization') ?? ''}`;
      const hit = request.method === 'GET' ? cache.get(cacheKey) : undefined;
      if (hit && Date.now() - hit.at < 2000) {
        res.writeHead(hit.status, { ...hit.headers, 'content-length': String(hit.body.length) });
        res.end(hit.body);
        return;
      }
      const answer = handle(store, faithfulParts, request);
      let headers = answer.headers;
      let body = Buffer.from(answer.body ?? '');
      if (answer.status === 200 && answer.body !== undefined && acceptsGzip(request)) {
        body = gzipSync(body);
        headers = { ...headers, 'content-encoding': 'gzip' };
      }
      if (request.method === 'GET' && answer.status === 200) cache.set(cacheKey, { at: Date.now(), status: answer.status, headers, body });
      res.writeHead(answer.status, { ...headers, 'content-length': String(body.length) });
      res.end(answer.body === undefined ? undefined : body);
    });
  },
);

const userAgentMobileLite = target(
  'user-agent-mobile-lite-answer',
  true,
  'User-Agent sniffing for mobile SDKs (okhttp, CFNetwork, Dart): they get a "lite" answer, entries with name, type and enabled only and OIDC settings without secret and group fields (decision required-request-headers: User-Agent changes no member)',
  () =>
    serveApp({
      after(answer, request) {
        if (answer.status !== 200 || answer.body === undefined || !/okhttp|CFNetwork|Dart\//i.test(header(request, 'user-agent') ?? '')) return answer;
        const body = JSON.parse(answer.body) as Record<string, unknown>;
        if (Array.isArray(body.environments)) {
          const environments = (body.environments as Record<string, unknown>[]).map(({ name, type, enabled }) => ({ name, type, enabled }));
          return json(200, { ...body, environments });
        }
        const { secret: _secret, enableGroupSyncing: _g, groupJsonPath: _p, addGroupsScope: _a, ...lite } = body;
        return json(200, lite);
      },
    }),
);

const problemJsonWhenAccepted = target(
  'problem-json-when-accepted',
  true,
  'Errors are negotiated: an Accept naming application/problem+json (as generated clients send it beside application/json) gets an RFC 9457 body `{type,title,status,detail}` without id, name and message (API §2.3, §7)',
  () =>
    serveApp({
      after(answer, request) {
        if (answer.status < 400 || answer.body === undefined || !/application\/problem\+json/i.test(header(request, 'accept') ?? '')) return answer;
        const error = JSON.parse(answer.body) as { message?: string };
        const body = { type: 'about:blank', title: ERROR_NAMES[answer.status] ?? 'Error', status: answer.status, detail: error.message };
        return { status: answer.status, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify(body) };
      },
    }),
);

const headLengthIgnoresCompression = target(
  'head-length-ignores-compression',
  true,
  'Reads are gzipped when Accept-Encoding allows it, but HEAD skips the compression step: its Content-Length is the identity length and it lacks Content-Encoding, where the same GET sends the gzip length (RFC 9110 §8.6, §9.3.2)',
  () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const answer = handle(store, faithfulParts, request);
      if (request.method === 'GET' && answer.status === 200 && answer.body !== undefined && acceptsGzip(request)) {
        const body = gzipSync(Buffer.from(answer.body));
        res.writeHead(200, { ...answer.headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'content-length': String(body.length) });
        res.end(body);
        return;
      }
      send(res, answer.status === 200 && isReadRoute(request) ? { ...answer, headers: { ...answer.headers, vary: 'Accept-Encoding' } } : answer);
    });
  },
);

const closeAnnouncedThenMore = target(
  'close-announced-then-more-processed',
  true,
  'A hand-written writer adds `Connection: close` to every 401 (to slow down guessing) but the connection loop goes on: requests pipelined after it are still run, a delete included (RFC 9112 §9.6: MUST NOT process further requests)',
  () =>
    serveNet((answer, request, close) => (answer.status === 401 ? { bytes: plainBytes(answer, request, { close: true }), close } : plainBytes(answer, request, { close })), NET_OPTIONS),
);

// ---------------------------------------------------------------------------------------------
// Conformant: unusual but correct
// ---------------------------------------------------------------------------------------------

const bodyTrickled = target(
  'body-trickled-in-small-writes',
  false,
  'The head is flushed first and every body follows in 16-byte writes, one per event-loop turn, with TCP_NODELAY: many TCP segments per answer, Content-Length exact (RFC 9112 §6.3: framing is by length, not by segments)',
  () => {
    const store = new Store();
    return serve(
      async (req, res) => {
        res.socket?.setNoDelay(true);
        const request = toApiRequest(req);
        const answer = handle(store, faithfulParts, request);
        const body = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body);
        // RFC 9110 §8.6: no Content-Length on a 204 (the OPTIONS answer) or a 304 (changed on branch wire10, see BASELINE.md).
        res.writeHead(answer.status, answer.status === 204 || answer.status === 304 ? answer.headers : { ...answer.headers, 'content-length': String(body.length) });
        res.flushHeaders();
        if (request.method !== 'HEAD') {
          for (let i = 0; i < body.length; i += 16) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            if (res.destroyed) return;
            res.write(body.subarray(i, i + 16));
          }
        }
        res.end();
      },
    );
  },
);

const rangeMultipart = target(
  'range-multipart-byteranges',
  false,
  'Range on the reads\' GET 200s per RFC 9110 §14: strong ETag, Accept-Ranges, one range a 206 with Content-Range, several a multipart/byteranges 206 (§14.6), If-Range honoured, other units ignored, 416 `bytes */len`',
  () => {
    const boundary = 'flagadmin0b0undary';
    return serveApp({
      after(answer, request) {
        if (answer.status !== 200 || answer.body === undefined || !isReadRoute(request)) return answer;
        const body = Buffer.from(answer.body);
        // Answers carry text, written as UTF-8: a byte slice is exact only for ASCII bodies, so others ignore Range (§14.2 allows it).
        if (body.length !== answer.body.length) return answer;
        const tag = strongTag(answer.body);
        const headers: Record<string, string> = { ...answer.headers, etag: tag, 'accept-ranges': 'bytes' };
        const range = header(request, 'range');
        const ifRange = header(request, 'if-range');
        // §14.2: Range only on GET; §13.1.5: ignored unless If-Range (if any) matches the tag strongly.
        if (request.method !== 'GET' || range === undefined || !/^bytes=/i.test(range) || (ifRange !== undefined && ifRange !== tag)) return { ...answer, headers };
        const specs = range.slice(6).split(',');
        const resolved = specs.map((s) => resolveRange(s, body.length));
        if (resolved.some((r) => r === null)) return { ...answer, headers };
        const satisfiable = resolved.filter((r): r is { first: number; last: number } => r !== undefined && r !== null);
        if (satisfiable.length === 0) return { status: 416, headers: { 'content-range': `bytes */${body.length}` }, body: undefined };
        if (satisfiable.length === 1) {
          const r = satisfiable[0]!;
          return { status: 206, headers: { ...headers, 'content-range': `bytes ${r.first}-${r.last}/${body.length}` }, body: body.subarray(r.first, r.last + 1).toString('latin1') };
        }
        const parts = satisfiable.map(
          (r) =>
            `--${boundary}\r\nContent-Type: ${answer.headers['content-type']}\r\nContent-Range: bytes ${r.first}-${r.last}/${body.length}\r\n\r\n${body.subarray(r.first, r.last + 1).toString('latin1')}\r\n`,
        );
        const { 'content-type': _type, ...rest } = headers;
        return { status: 206, headers: { ...rest, 'content-type': `multipart/byteranges; boundary=${boundary}` }, body: `${parts.join('')}--${boundary}--\r\n` };
      },
    });
  },
);

const pathSpellingsRedirected = target(
  'path-spellings-redirected-308',
  false,
  'A path with repeated slashes or `.` segments gets 308 to its plain spelling before auth (query kept), as a normalizing proxy does; the plain path then needs its key as usual (decision path-spellings: a redirect to the plain path)',
  () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const path = pathOf(request.url);
      if (path.startsWith('/') && (/\/\//.test(path) || /\/\.(\/|$)/.test(path))) {
        const plain = '/' + path.split('/').filter((s) => s !== '' && s !== '.').join('/');
        const query = request.url.slice(path.length);
        send(res, { status: 308, headers: { location: plain + query, 'content-type': 'text/plain; charset=utf-8' }, body: `Permanent Redirect to ${plain}` });
        return;
      }
      send(res, handle(store, faithfulParts, request));
    });
  },
);

/** Levenshtein distance, small inputs only. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

const notFoundDidYouMean = target(
  'not-found-did-you-mean',
  false,
  'A 404 for a project id near an existing one says so in its message, after auth: `Project "defaul" not found. Did you mean "default"?` (API §2.3: message is free human-readable text; name and id as usual)',
  () => {
    const store = new Store();
    const parts: Parts = {
      ...faithfulParts,
      message(status, request, detail) {
        const base = faithfulParts.message(status, request, detail);
        const route = routeOf(pathOf(request.url));
        if (status !== 404 || route.kind !== 'operation' || route.operationId !== 'getProjectEnvironments') return base;
        const id = route.params[0]!;
        const near = [...store.projects.keys()].find((p) => distance(p.toLowerCase(), id.toLowerCase()) <= 2);
        return near === undefined ? `Project "${id}" not found.` : `Project "${id}" not found. Did you mean "${near}"?`;
      },
    };
    return serveStore(store, parts);
  },
);

const headAnnouncesChunked = target(
  'head-announces-chunked',
  false,
  'A hand-written HTTP/1.1 writer chunks every body to HTTP/1.1 clients (Content-Length to HTTP/1.0), and HEAD answers carry `Transfer-Encoding: chunked` as the GET would, with no content (RFC 9112 §6.1: a server MAY send it on HEAD)',
  () => serveNet((answer, request, close) => (request.version === 'HTTP/1.0' ? plainBytes(answer, request, { close }) : chunkedBytes(answer, request, { close })), NET_OPTIONS),
);

const rateLimitHeaders = target(
  'ratelimit-headers-without-limiting',
  false,
  'Every answer carries informational rate-limit fields (`RateLimit-Policy`, `RateLimit`, `X-RateLimit-Limit/Remaining/Reset`, draft-ietf-httpapi-ratelimit-headers); no limit is ever enforced (RFC 9110 §5.1: unknown fields are ignored)',
  () => {
    let used = 0;
    return serveApp({
      after(answer) {
        used = (used + 1) % 1000;
        const remaining = String(1000 - used);
        return {
          ...answer,
          headers: { ...answer.headers, 'ratelimit-policy': '"default";q=1000;w=60', ratelimit: `"default";r=${remaining};t=60`, 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': remaining, 'x-ratelimit-reset': '60' },
        };
      },
    });
  },
);

const absoluteFormRefused400 = target(
  'absolute-form-target-400',
  false,
  'A router that matches the raw request target refuses absolute-form targets (`GET http://host/api/admin/… HTTP/1.1`) with a plain-text 400 before auth (decision request-target-forms: a 400 or 404 refusing the form is tolerated)',
  () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      if (!request.url.startsWith('/')) {
        send(res, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Bad Request: only origin-form request targets are routed' });
        return;
      }
      send(res, handle(store, faithfulParts, request));
    });
  },
);

const environmentNamesUnicode = target(
  'environment-names-unicode-and-spaces',
  false,
  'Project default also enables two more environments, `QA – Berlin` (spaces, an en dash) and `ステージング`, of type `qa` and `staging-jp` with negative sortOrder (API §2.1: name and type are any strings; decision: only name required)',
  () => {
    const store = new Store();
    store.instanceEnvironments.set('QA – Berlin', { name: 'QA – Berlin', type: 'qa', protected: false, sortOrder: -10 });
    store.instanceEnvironments.set('ステージング', { name: 'ステージング', type: 'staging-jp', protected: true, sortOrder: -20 });
    store.projects.get('default')!.push(
      { name: 'QA – Berlin', enabled: true, projectApiTokenCount: 0, projectEnabledToggleCount: 3 },
      { name: 'ステージング', enabled: true, projectApiTokenCount: 1, projectEnabledToggleCount: 0 },
    );
    return serveStore(store, faithfulParts);
  },
);

export const TARGETS: readonly RedTeamTarget[] = [
  versionAsSemverString,
  responsesWrappedInData,
  sharedTransactionRolledBack,
  forbiddenAnswered401,
  bearerSchemeCaseSensitive,
  accessTokenQueryParam,
  idsMatchedAsRegex,
  deleteMissingTokenPlain404,
  deletedToken410Gone,
  contextObjectReusedUnkeyed,
  errorNamesIndexedByOffset,
  projectIdsInRoutePattern,
  expect100Continue417,
  range416OnDelete,
  imsOverridesIfNoneMatch,
  rangeIgnoresIfRange,
  headFallsToStatic404,
  preflight204WithContent,
  formatQueryBrowsableHtml,
  compressedCachedWithoutVary,
  userAgentMobileLite,
  problemJsonWhenAccepted,
  headLengthIgnoresCompression,
  closeAnnouncedThenMore,
  bodyTrickled,
  rangeMultipart,
  pathSpellingsRedirected,
  notFoundDidYouMean,
  headAnnouncesChunked,
  rateLimitHeaders,
  absoluteFormRefused400,
  environmentNamesUnicode,
];

