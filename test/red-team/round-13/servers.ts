// Red team round thirteen: 24 broken and 8 conformant servers, each the faithful app (../app.ts)
// with one part replaced, written from API.md, spec/openapi.yaml's x-decisions (docs/decisions.md)
// and the HTTP RFCs, without reading the suite. See BASELINE.md for the rule each one breaks or
// the rule that allows it.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import {
  type Answer,
  afterRoute,
  type ApiRequest,
  ERROR_NAMES,
  errorAnswer,
  faithfulParts,
  FIXTURES,
  handle,
  header,
  json,
  lookup,
  type Parts,
  pathOf,
  type RedTeamTarget,
  type Route,
  routeOf,
  type RunningTarget,
  send,
  serve,

  sleep,
  Store,
  target,
  toApiRequest,
} from '../app.ts';
import { plainBytes, serveNet } from '../net-server.ts';

export type { RedTeamTarget };

type Flow = (store: Store, parts: Parts, request: ApiRequest, req: IncomingMessage) => RawAnswer | Promise<RawAnswer>;

/** An answer whose body may be bytes (a slice, a compressed body) rather than text. */
type RawAnswer = Answer & { raw?: Buffer };

/**
 * Like app.ts's send, for bytes too, and without Content-Length on a 204 or a 304 (RFC 9110 §8.6: never in a 204, only the 200's length
 * in a 304; the 204 changed on branch wire10: no target of this round is about it).
 */
function sendRaw(res: import('node:http').ServerResponse, answer: RawAnswer): void {
  const body = answer.raw ?? (answer.body === undefined ? undefined : Buffer.from(answer.body));
  const headers: Record<string, string> = { ...answer.headers };
  const bodiless = answer.status === 204 || answer.status === 304;
  if (!bodiless) headers['content-length'] = String(body?.length ?? 0);
  res.writeHead(answer.status, headers);
  res.end(bodiless ? undefined : body);
}

/** The app on a fresh store that `setup` may change, each request run through `flow` (default: the faithful one), then `after`. */
function serveFlow(options: {
  flow?: Flow;
  after?: (answer: Answer, request: ApiRequest) => RawAnswer;
  setup?: (store: Store) => void;
  parts?: Partial<Parts>;
  configure?: (server: Server) => void;
}): Promise<RunningTarget> {
  const store = new Store();
  options.setup?.(store);
  const parts = { ...faithfulParts, ...options.parts };
  const flow: Flow = options.flow ?? ((s, p, request) => handle(s, p, request));
  return serve(async (req, res) => {
    const request = toApiRequest(req);
    const answer = await flow(store, parts, request, req);
    sendRaw(res, options.after ? options.after(answer, request) : answer);
  }, options.configure);
}

const withBody = (answer: Answer, body: unknown): Answer => ({ ...answer, body: JSON.stringify(body) });
const parsed = (answer: Answer): Record<string, unknown> => JSON.parse(answer.body!) as Record<string, unknown>;
const isRead = (request: ApiRequest) => request.method === 'GET' || request.method === 'HEAD';
const etagOf = (body: string) => `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`;

/** Python's int() on a decimal string: surrounding whitespace, a sign, `_` between digits, any Unicode decimal digit. */
const DIGIT_ZEROS = [0x30, 0x660, 0x6f0, 0x966, 0x9e6, 0xff10];
function pythonInt(text: string): number | undefined {
  const t = text.replace(/^\s+|\s+$/gu, '');
  if (!/^[+-]?\p{Nd}+(?:_\p{Nd}+)*$/u.test(t)) return undefined;
  let value = 0;
  for (const ch of t.replace(/^[+-]|_/g, '')) {
    const cp = ch.codePointAt(0)!;
    const zero = DIGIT_ZEROS.find((z) => cp >= z && cp < z + 10);
    if (zero === undefined) return undefined;
    value = value * 10 + (cp - zero);
  }
  return t.startsWith('-') ? -value : value;
}

/** RFC 9110 §5.6.7: the three forms of HTTP-date, read strictly; undefined for anything else. */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export function httpDate(text: string): number | undefined {
  const m = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/.exec(text) ??
    /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/.exec(text);
  const a = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/.exec(text);
  let day: string, month: string, year: number, hh: string, mm: string, ss: string;
  if (m) {
    [day, month, hh, mm, ss] = [m[1]!, m[2]!, m[4]!, m[5]!, m[6]!];
    year = Number(m[3]);
    if (m[3]!.length === 2) {
      // RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is the most recent past year with those digits.
      const now = new Date().getUTCFullYear();
      year += Math.floor(now / 100) * 100;
      if (year > now + 50) year -= 100;
    }
  } else if (a) {
    [month, day, hh, mm, ss] = [a[1]!, a[2]!.trim(), a[3]!, a[4]!, a[5]!];
    year = Number(a[6]);
  } else return undefined;
  const mi = MONTHS.indexOf(month);
  if (mi < 0) return undefined;
  const t = Date.UTC(year, mi, Number(day), Number(hh), Number(mm), Number(ss));
  return new Date(t).getUTCDate() === Number(day) ? t : undefined;
}

/** The ranges of a `bytes=` Range value over `length` bytes: undefined when the value is not a valid bytes range set. */
function byteRanges(value: string, length: number): { first: number; last: number }[] | undefined {
  const m = /^bytes=(.+)$/i.exec(value.trim());
  if (!m) return undefined;
  const out: { first: number; last: number }[] = [];
  for (const spec of m[1]!.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const r = /^(\d+)-(\d*)$/.exec(spec);
    const s = /^-(\d+)$/.exec(spec);
    if (r) {
      const first = Number(r[1]);
      // §14.1.2: a last-pos below first-pos makes the range set invalid; an open end runs to the last byte.
      if (r[2] !== '' && Number(r[2]) < first) return undefined;
      const last = r[2] === '' ? length - 1 : Number(r[2]);
      if (first < length) out.push({ first, last: Math.min(last, length - 1) });
    } else if (s) {
      const n = Number(s[1]);
      if (n > 0 && length > 0) out.push({ first: Math.max(0, length - n), last: length - 1 });
    } else return undefined;
  }
  return out;
}

/** Codings an Accept-Encoding value accepts (q > 0), names lower-cased. */
function acceptedCodings(value: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const item of (value ?? '').split(',')) {
    const [name, ...params] = item.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) out.add(name);
  }
  return out;
}

const BROKEN_API: RedTeamTarget[] = [
  target('error-message-i18n-object', true, 'The i18n layer returns unresolved message descriptors for 404s: `"message": {"key": "errors.notFound", "params": {...}}` instead of a string (API §2.3, §7: message is a string)', () =>
    serveFlow({
      after: (answer, request) =>
        answer.status === 404 && answer.body ? withBody(answer, { ...parsed(answer), message: { key: 'errors.notFound', params: { path: pathOf(request.url) } } }) : answer,
    }),
  ),
  target('instance-enabled-overrides-project', true, 'Each entry spreads the instance environment row after the project entry, and the row\'s `enabled` (on by default for new projects: not for production) overwrites it: default lists production with `enabled: false` (API §4.1: only enabled environments are listed)', () =>
    serveFlow({
      after: (answer, request) => {
        if (answer.status !== 200 || !answer.body || !/\/environments\/project\//.test(request.url)) return answer;
        const body = parsed(answer) as { environments: Record<string, unknown>[] };
        const instance = new Map(FIXTURES.environments.map((e) => [e.name, { ...e, enabled: e.type !== 'production' }]));
        return withBody(answer, { ...body, environments: body.environments.map((e) => ({ ...e, ...instance.get(e.name as string) })) });
      },
    }),
  ),
  target('ids-slugified', true, 'Path ids pass through a slugify helper that turns `_` and spaces into `-`: `mobile_app` and `mobile%20app` name project mobile-app (decision project-id-compared-exactly)', () =>
    serveFlow({ parts: { sameId: (presented, stored) => presented.replace(/[_ ]/g, '-') === stored } }),
  ),
  target('token-ids-python-int', true, 'A Python backend reads account and token ids with int(): Arabic-Indic `٣`, fullwidth `３`, `0_3` and ` 3` name token 3 (decision token-ids-compared-exactly)', () =>
    serveFlow({
      parts: {
        sameId: (presented, stored) => {
          const a = pythonInt(presented);
          const b = pythonInt(stored);
          return a !== undefined && b !== undefined ? a === b : presented === stored;
        },
      },
    }),
  ),
  target('empty-authorization-anonymous', true, 'An `Authorization` header present but empty is read as the anonymous user, which the instance lets read project environments: an empty value gets 200 (decision required-request-headers: an empty Authorization carries no key, 401)', () =>
    serveFlow({
      setup: (store) => store.keys.set('anonymous', new Set(['getProjectEnvironments'])),
      parts: {
        presentedKey(request) {
          const value = request.headers.authorization;
          if (value !== undefined && value.trim() === '') return 'anonymous';
          return faithfulParts.presentedKey(request);
        },
      },
    }),
  ),
  target('key-hyphens-ignored', true, 'Keys are shown in the UI grouped with hyphens, so the lookup removes them from both sides: `mockadminkey` is the admin key (decision keys-compared-exactly: a character less is invalid, 401)', () =>
    serveFlow({
      flow(store, parts, request) {
        const presented = faithfulParts.presentedKey(request);
        const stored = presented === undefined ? undefined : [...store.keys.keys()].find((k) => k.replace(/-/g, '') === presented.replace(/-/g, ''));
        return handle(store, { ...parts, presentedKey: () => stored ?? presented }, request);
      },
    }),
  ),
  target('missing-token-403-ownership', true, 'An ownership check `token?.accountId !== id` runs before the not-found branch: a token that does not exist (or was just deleted) in an existing account gets 403 NoAccessError with the full key (API §4.3, §7: 404; decision: the same delete again gets 404)', () =>
    serveFlow({
      flow(store, parts, request) {
        const route = routeOf(pathOf(request.url));
        const answer = handle(store, parts, request);
        if (route.kind === 'operation' && route.operationId === 'deleteServiceAccountToken' && answer.status === 404 && store.tokens.has(route.params[0]!))
          return errorAnswer(parts, 403, request);
        return answer;
      },
    }),
  ),
  target('delete-busy-409', true, 'Deletes take a table-wide lock held over a 50 ms audit write and a delete arriving meanwhile gets 409 ConflictError: two deletes on two accounts at once, one fails (decision requests-independent: deletes on two accounts at once each delete their own token; 409 is undocumented)', () => {
    let busy = false;
    return serveFlow({
      async flow(store, parts, request) {
        const route = routeOf(pathOf(request.url));
        if (route.kind !== 'operation' || route.operationId !== 'deleteServiceAccountToken' || request.method !== 'DELETE') return handle(store, parts, request);
        if (busy) return json(409, { id: randomUUID(), name: 'ConflictError', message: 'Another token deletion is in progress, try again.' });
        busy = true;
        try {
          await sleep(50);
          return handle(store, parts, request);
        } finally {
          busy = false;
        }
      },
    });
  }),
  target('errors-nested-under-error', true, 'Error bodies are wrapped Google-style: `{"error": {"id", "name", "message"}}` (API §2.3, §7: every error body has id, name and message)', () =>
    serveFlow({ after: (answer) => (answer.status >= 400 && answer.body && answer.headers['content-type']?.includes('json') ? withBody(answer, { error: parsed(answer) }) : answer) }),
  ),
  target('not-found-id-is-resource-id', true, 'NotFoundError(id) keeps the missing resource\'s id in its `id` member: a 404 for project `nope` says `"id": "nope"`, so the same 404 twice carries one id (decision error-ids-unique: id names one error instance)', () =>
    serveFlow({
      after(answer, request) {
        const route = routeOf(pathOf(request.url));
        return answer.status === 404 && answer.body && route.kind === 'operation' ? withBody(answer, { ...parsed(answer), id: route.params.join('/') }) : answer;
      },
    }),
  ),
  target('oidc-root-role-lowercase', true, 'The role enum is stored lower-case and serialized as stored: `defaultRootRole: "editor"` (API §2.2: Viewer, Editor, Admin)', () =>
    serveFlow({
      after: (answer, request) =>
        answer.status === 200 && answer.body && request.url.includes('/auth/oidc/settings')
          ? withBody(answer, { ...parsed(answer), defaultRootRole: String(parsed(answer).defaultRootRole).toLowerCase() })
          : answer,
    }),
  ),
  target('shared-error-object-across-await', true, 'Error answers reuse one module-level error object, given a fresh id and then serialized after an awaited 30 ms log write: overlapping errors all carry the last id (decision error-ids-unique)', () => {
    const shared = { id: '', name: '', message: '' };
    return serveFlow({
      async flow(store, parts, request) {
        const answer = handle(store, parts, request);
        if (answer.status < 400 || !answer.body || !answer.headers['content-type']?.includes('json')) return answer;
        Object.assign(shared, parsed(answer), { id: randomUUID() });
        await sleep(30);
        return withBody(answer, shared);
      },
    });
  }),
];

const BROKEN_HTTP: RedTeamTarget[] = [
  target('early-hints-to-http-1.0', true, 'A hand-written writer sends an interim `103 Early Hints` (Link preload) before every answer, to HTTP/1.0 requests too (RFC 9110 §15.2: a server MUST NOT send a 1xx answer to an HTTP/1.0 client)', () =>
    serveNet(
      (answer, request, close) =>
        Buffer.concat([Buffer.from('HTTP/1.1 103 Early Hints\r\nLink: </assets/app.css>; rel=preload; as=style\r\n\r\n', 'latin1'), plainBytes(answer, request, { close })]),
      { strict: true, requireHost: true },
    ),
  ),
  target('cookie-bad-escape-500', true, 'A cookie parser runs decodeURIComponent on every cookie value and throws on a lone `%` (`Cookie: pref=100%`, as analytics cookies carry): 500 before auth (decision malformed-input-refusals: an undocumented 500 is a defect)', () =>
    serveFlow({
      flow(store, parts, request) {
        const cookie = header(request, 'cookie');
        if (cookie) for (const pair of cookie.split(';')) decodeURIComponent(pair.slice(pair.indexOf('=') + 1).trim());
        return handle(store, parts, request);
      },
    }),
  ),
  target('range-total-is-slice-length', true, 'A hand-rolled Range layer answers `Range: bytes=a-b` on the reads\' 200s with 206 and the right slice, but writes the slice\'s own length as the complete length: `Content-Range: bytes 0-9/10` (RFC 9110 §14.4: the complete length of the representation)', () =>
    serveFlow({
      after: (answer, request) => {
        const range = header(request, 'range');
        const m = range ? /^bytes=(\d+)-(\d+)$/.exec(range) : null;
        if (request.method !== 'GET' || answer.status !== 200 || !answer.body || !m) return answer;
        const bytes = Buffer.from(answer.body);
        const first = Number(m[1]);
        const last = Math.min(Number(m[2]), bytes.length - 1);
        if (first > last) return answer;
        const slice = bytes.subarray(first, last + 1);
        return { status: 206, headers: { ...answer.headers, 'content-range': `bytes ${first}-${last}/${slice.length}` }, body: undefined, raw: slice };
      },
    }),
  ),
  target('not-modified-without-etag', true, 'Reads carry an ETag and a matching If-None-Match gets 304, but the 304 is built from scratch with no header fields: no ETag (RFC 9110 §15.4.5: a 304 MUST carry the ETag the 200 would have)', () =>
    serveFlow({
      after: (answer, request) => {
        if (!isRead(request) || answer.status !== 200 || !answer.body) return answer;
        const tag = etagOf(answer.body);
        const inm = header(request, 'if-none-match');
        if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === tag)) return { status: 304, headers: {}, body: undefined };
        return { ...answer, headers: { ...answer.headers, etag: tag } };
      },
    }),
  ),
  target('space-before-colon', true, 'A hand-written HTTP/1.1 writer formats header lines as `Name : value`, whitespace between the field name and the colon (RFC 9112 §5.1: no whitespace is allowed there)', () =>
    serveNet(
      (answer, request, close) => {
        const bytes = plainBytes(answer, request, { close });
        const end = bytes.indexOf('\r\n\r\n');
        const head = bytes.subarray(0, end).toString('latin1').replace(/\r\n([A-Za-z-]+): /g, '\r\n$1 : ');
        return Buffer.concat([Buffer.from(head, 'latin1'), bytes.subarray(end)]);
      },
      { strict: true, requireHost: true },
    ),
  ),
  target('headers-folded-at-78', true, 'A hand-written writer folds header lines longer than 78 characters the e-mail way (CRLF and a space), so its long Content-Security-Policy goes out as obs-fold (RFC 9112 §5.2: a server MUST NOT generate obs-fold outside message/http)', () =>
    serveNet(
      (answer, request, close) => {
        const csp = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox";
        const bytes = plainBytes(answer, request, { close, extra: [`Content-Security-Policy: ${csp}`] });
        const end = bytes.indexOf('\r\n\r\n');
        const lines = bytes.subarray(0, end).toString('latin1').split('\r\n').map((line) => {
          if (line.length <= 78) return line;
          const cut = line.lastIndexOf(' ', 78);
          return cut > 0 ? `${line.slice(0, cut)}\r\n ${line.slice(cut + 1)}` : line;
        });
        return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), bytes.subarray(end)]);
      },
      { strict: true, requireHost: true },
    ),
  ),
  target('options-reveals-token-existence', true, 'The CORS layer answers preflights and OPTIONS on a token path only for tokens it finds (204), and 404 NotFoundError for others, before auth: without a key, OPTIONS tells which tokens exist (decision options-requests: reveals no more than the request without a key)', () =>
    serveFlow({
      flow(store, parts, request) {
        const route = routeOf(pathOf(request.url));
        if (request.method === 'OPTIONS' && route.kind === 'operation' && route.operationId === 'deleteServiceAccountToken' && !lookup(store, parts, route.operationId, route.params).found)
          return errorAnswer(parts, 404, request);
        return handle(store, parts, request);
      },
    }),
  ),
  target('host-allow-list', true, 'DNS-rebinding protection as dev servers do it: a Host other than `127.0.0.1:<port>` (`localhost:<port>`, no port) gets 403 "Invalid Host header" in plain text, key or not (decision required-request-headers: a Host naming this server otherwise gets the same answer)', () =>
    serveFlow({
      flow(store, parts, request) {
        if (header(request, 'host') !== `127.0.0.1:${request.socket.localPort}`)
          return { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Invalid Host header' };
        return handle(store, parts, request);
      },
    }),
  ),
  target('origin-check-403-on-delete', true, 'A CSRF guard refuses DELETE whose Origin is not the server\'s own with 403 NoAccessError before auth, the full key notwithstanding (decision required-request-headers: an Origin changes no answer and is no credential either way)', () =>
    serveFlow({
      flow(store, parts, request) {
        const origin = header(request, 'origin');
        if (request.method === 'DELETE' && origin !== undefined && origin !== `http://${header(request, 'host')}`) return errorAnswer(parts, 403, request);
        return handle(store, parts, request);
      },
    }),
  ),
  target('gzip-uncompressed-length', true, 'A compression step gzips bodies when asked but the Content-Length set before it (the JSON\'s length) stays: the announced length is not the bytes sent (RFC 9112 §6.3, RFC 9110 §8.6)', () =>
    serveNet(
      (answer, request, close) => {
        const accepts = acceptedCodings(request.headers['accept-encoding'] as string | undefined).has('gzip');
        if (!accepts || answer.body === undefined) return plainBytes(answer, request, { close });
        const plain = plainBytes(answer, request, { close, extra: ['Content-Encoding: gzip', 'Vary: Accept-Encoding'] });
        const end = plain.indexOf('\r\n\r\n') + 4;
        return request.method === 'HEAD' ? plain : Buffer.concat([plain.subarray(0, end), gzipSync(answer.body)]);
      },
      { strict: true, requireHost: true },
    ),
  ),
  target('errors-text-for-wildcard-accept', true, 'Errors go through res.format with text/plain listed first: an Accept of `*/*` (curl, fetch) or none gets `Unauthorized` as text/plain, only `application/json` gets the JSON error (decision accept-negotiation: the same JSON body whatever Accept admits JSON)', () =>
    serveFlow({
      after: (answer, request) => {
        const accept = header(request, 'accept') ?? '*/*';
        if (answer.status < 400 || !answer.body || /application\/json/i.test(accept)) return answer;
        const name = (parsed(answer).name as string | undefined) ?? 'Error';
        return { status: answer.status, headers: { ...answer.headers, 'content-type': 'text/plain; charset=utf-8' }, body: name };
      },
    }),
  ),
  target('accept-charset-406', true, 'Charset negotiation by list membership: an Accept-Charset that does not name utf-8 (`iso-8859-1`, or `*`) gets 406 before auth (decision accept-negotiation: Accept-Charset changes nothing; 406 undocumented)', () =>
    serveFlow({
      flow(store, parts, request) {
        const ac = header(request, 'accept-charset');
        if (ac !== undefined && !/(^|,)\s*utf-8\s*(;|,|$)/i.test(ac)) return { status: 406, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Acceptable' };
        return handle(store, parts, request);
      },
    }),
  ),
];

const LAST_MODIFIED = Math.floor((Date.now() - 60_000) / 1000) * 1000;

const CONFORMANT: RedTeamTarget[] = [
  target('range-served-per-rfc', false, 'Range is honoured on the reads\' 200s as RFC 9110 §14 says: ETag and Accept-Ranges, 206 with Content-Range for one range, several coalesced into one part, 416 `bytes */len` when none is satisfiable, invalid sets, other units and a non-matching If-Range ignored', () =>
    serveFlow({
      after: (answer, request) => {
        if (!isRead(request) || answer.status !== 200 || answer.body === undefined) return answer;
        const bytes = Buffer.from(answer.body);
        const tag = etagOf(answer.body);
        const headers = { ...answer.headers, etag: tag, 'accept-ranges': 'bytes' };
        const range = header(request, 'range');
        const ifRange = header(request, 'if-range');
        if (request.method !== 'GET' || range === undefined || (ifRange !== undefined && ifRange !== tag)) return { ...answer, headers };
        const ranges = byteRanges(range, bytes.length);
        if (ranges === undefined) return { ...answer, headers };
        if (ranges.length === 0) return { status: 416, headers: { etag: tag, 'content-range': `bytes */${bytes.length}` }, body: undefined };
        const first = Math.min(...ranges.map((r) => r.first));
        const last = Math.max(...ranges.map((r) => r.last));
        return { status: 206, headers: { ...headers, 'content-range': `bytes ${first}-${last}/${bytes.length}` }, body: undefined, raw: bytes.subarray(first, last + 1) };
      },
    }),
  ),
  target('zstd-when-asked', false, 'Bodies are compressed with zstd when Accept-Encoding accepts it (q > 0), with Vary: Accept-Encoding; every other request gets identity (RFC 9110 §8.4, §12.5.3; decision: a coding the request accepts)', () =>
    serveFlow({
      flow(store, parts, request) {
        const answer = handle(store, parts, request);
        const vary = { ...answer.headers, vary: 'Accept-Encoding' };
        if (answer.body === undefined || !acceptedCodings(header(request, 'accept-encoding')).has('zstd')) return { ...answer, headers: vary };
        return { ...answer, headers: { ...vary, 'content-encoding': 'zstd' }, body: undefined, raw: zstdCompressSync(answer.body) };
      },
    }),
  ),
  target('names-differing-only-in-case', false, 'Project default also enables an environment named `Production` beside `production`: two environments, names compared exactly (decision environment-names-unique: names differing only in case are two environments)', () =>
    serveFlow({
      setup: (store) =>
        store.projects.get('default')!.push({ name: 'Production', enabled: true, projectApiTokenCount: 0, projectEnabledToggleCount: 1 }),
    }),
  ),
  target('project-id-read-raw', false, 'The environments route is a wildcard whose handler reads the project id from the raw path tail, never percent-decoded: `%64efault` is no project (404); token ids and literal segments are decoded as usual (decision project-id-compared-exactly: a 404 from a server that does not decode the segment)', () =>
    serveFlow({
      flow(store, parts, request) {
        const route = routeOf(pathOf(request.url));
        if (route.kind === 'operation' && route.operationId === 'getProjectEnvironments') route.params[0] = pathOf(request.url).split('/').pop()!;
        return afterRoute(store, parts, request, route);
      },
    }),
  ),
  target('oidc-other-legal-values', false, 'Another instance\'s OIDC settings: defaultRootRole Admin with defaultRootRoleId 4, RS512, autoCreate and group syncing off, single sign-out on, one e-mail domain and one acr value (API §2.2: values from the allowed sets)', () =>
    serveFlow({
      setup: (store) => {
        for (const k of Object.keys(store.oidc)) delete store.oidc[k];
        Object.assign(store.oidc, {
          enabled: true,
          discoverUrl: 'https://sso.example.net/.well-known/openid-configuration',
          clientId: 'flags-prod',
          secret: `s-${randomUUID()}`,
          autoCreate: false,
          enableSingleSignOut: true,
          defaultRootRole: 'Admin',
          defaultRootRoleId: 4,
          emailDomains: 'example.net',
          acrValues: 'urn:example:loa:2',
          idTokenSigningAlgorithm: 'RS512',
          enableGroupSyncing: false,
          groupJsonPath: '',
          addGroupsScope: false,
        });
      },
    }),
  ),
  target('messages-multiline-with-path', false, 'Error messages span lines and carry the request path and a docs link with a non-ASCII mark (`…\\nPath: /api/…\\nSee https://docs.example.com/errors/404 →`) (API §2.3: message is free human-readable text)', () =>
    serveFlow({
      parts: {
        message: (status, request) =>
          `${faithfulParts.message(status, request)}\nPath: ${pathOf(request.url)}\nSee https://docs.example.com/errors/${status} → ${ERROR_NAMES[status] ?? 'Error'}`,
      },
    }),
  ),
  target('content-location-and-link', false, 'Reads\' 200s carry `Content-Location` (the path) and every answer a `Link: <https://docs.example.com/api>; rel="describedby"` (RFC 9110 §8.7, RFC 8288: header fields a client may ignore)', () =>
    serveFlow({
      after: (answer, request) => ({
        ...answer,
        headers: {
          ...answer.headers,
          link: '<https://docs.example.com/api>; rel="describedby"',
          ...(answer.status === 200 && isRead(request) ? { 'content-location': pathOf(request.url) } : {}),
        },
      }),
    }),
  ),
  target('if-modified-since-all-date-forms', false, 'Reads carry Last-Modified (a minute before start); after auth and lookup, If-Modified-Since in any of the three HTTP-date forms (IMF-fixdate, RFC 850, asctime) at or after it gets 304; no date, a future date, or If-None-Match present: ignored (RFC 9110 §5.6.7, §13.1.3)', () =>
    serveFlow({
      after: (answer, request) => {
        if (!isRead(request) || answer.status !== 200) return answer;
        const headers = { ...answer.headers, 'last-modified': new Date(LAST_MODIFIED).toUTCString() };
        const ims = header(request, 'if-modified-since');
        const date = ims === undefined || header(request, 'if-none-match') !== undefined ? undefined : httpDate(ims);
        if (date !== undefined && date <= Date.now() && date >= LAST_MODIFIED) return { status: 304, headers: { 'last-modified': headers['last-modified'] }, body: undefined };
        return { ...answer, headers };
      },
    }),
  ),
];

export const TARGETS: readonly RedTeamTarget[] = [...BROKEN_API, ...BROKEN_HTTP, ...CONFORMANT];
