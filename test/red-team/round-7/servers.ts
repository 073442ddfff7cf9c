// Round seven of the red team: servers written from /work/shared/API.md, spec/openapi.yaml and its
// x-decisions (docs/decisions.md) without reading the suite (conformance/) or earlier rounds'
// servers and witnesses. Each is the faithful app (../app.ts) with one plausible real-backend
// defect (broken: true) or one unusual behaviour the contract allows (broken: false); the framing
// targets run the same flow behind a small node:net HTTP/1.1 writer. witnesses.ts proves each on the wire.
import {
  type Answer,
  type ApiRequest,
  errorAnswer,
  faithfulParts,
  handle,
  json,
  pathOf,
  routeOf,
  serve,
  serveApp,
  send,
  Store,
  toApiRequest,
  type RedTeamTarget,
  target,
} from '../app.ts';
import { closeRequested, serveNet } from '../net-server.ts';

export type { RedTeamTarget };

const isEnvironments = (request: ApiRequest) => routeOf(pathOf(request.url)).kind === 'operation' && pathOf(request.url).startsWith('/api/admin/environments/');
const isOidc = (request: ApiRequest) => pathOf(request.url) === '/api/admin/auth/oidc/settings';
const isJson = (answer: Answer) => answer.body !== undefined && (answer.headers['content-type'] ?? '').startsWith('application/json');

/** Rewrites the parsed JSON body of a 200 the predicate selects. */
function rewrite200(select: (request: ApiRequest) => boolean, change: (body: any) => unknown) {
  return (answer: Answer, request: ApiRequest): Answer =>
    answer.status === 200 && select(request) && isJson(answer) ? { ...answer, body: JSON.stringify(change(JSON.parse(answer.body!))) } : answer;
}

/**
 * The faithful flow behind a hand-written HTTP/1.1 server (../net-server.ts, parsed as this round's
 * copy parsed: leniently, the last of repeated fields, a close only on `Connection: close`), `write`
 * serializing each answer. For targets whose defect, or unusual behaviour, is in the framing itself.
 */
const serveNet7 = (write: (answer: Answer, request: { method: string }) => Buffer) => serveNet(write, { duplicates: 'last', closeWhen: closeRequested });

/**
 * The same writer for the conformant framing targets, parsing as node:http does (changed after round ten, see BASELINE.md): an
 * HTTP/1.1 request without Host gets 400 (RFC 9112 §3.2: a server MUST), and of two Authorization lines the flow sees the first, so an
 * invalid key then the full key is refused (spec decision malformed-requests). Their points, the reason phrases and the chunked empty
 * 200, are unchanged.
 */
const serveNet7Conformant = (write: (answer: Answer, request: { method: string }) => Buffer) => serveNet(write, { duplicates: 'node', requireHost: true, closeWhen: closeRequested });

const REASONS: Record<number, string> = { 200: 'OK', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed' };

/** An ordinary HTTP/1.1 serialization: status line, headers, Content-Length in bytes, no body on HEAD. */
function writeAnswer(answer: Answer, request: { method: string }, options: { reason?: (status: number) => string; lengthOf?: (answer: Answer) => string | undefined; chunkedEmpty?: boolean } = {}): Buffer {
  const body = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body);
  const reason = options.reason ? options.reason(answer.status) : (REASONS[answer.status] ?? 'Unknown');
  const lines = [`HTTP/1.1 ${answer.status} ${reason}`, `date: ${new Date().toUTCString()}`];
  for (const [name, value] of Object.entries(answer.headers)) lines.push(`${name}: ${value}`);
  if (options.chunkedEmpty && body.length === 0 && answer.status === 200) {
    lines.push('transfer-encoding: chunked');
    return Buffer.from(`${lines.join('\r\n')}\r\n\r\n0\r\n\r\n`, 'latin1');
  }
  // RFC 9110 §8.6: no Content-Length on a 204 (the OPTIONS answer) or a 304; no target of this round is about that (changed on branch wire10).
  const length = answer.status === 204 || answer.status === 304 ? undefined : options.lengthOf ? options.lengthOf(answer) : String(body.length);
  if (length !== undefined) lines.push(`content-length: ${length}`);
  // One write per answer: a head and body written apart wait on Nagle and delayed ACKs (~40 ms an answer).
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), request.method === 'HEAD' ? Buffer.alloc(0) : body]);
}

export const TARGETS: RedTeamTarget[] = [
  // ---- broken ----
  target('counts-as-bigint-strings', true, 'The environments query runs on Postgres through node-postgres, which returns bigint columns (COUNT(*), sortOrder BIGINT) as strings: `projectApiTokenCount: "2"`, `projectEnabledToggleCount: "14"`, `sortOrder: "1"` (API §2.1: integers)', () =>
    serveApp({
      after: rewrite200(isEnvironments, (body) => ({
        ...body,
        environments: body.environments.map((e: Record<string, unknown>) => {
          const out: Record<string, unknown> = { ...e };
          for (const f of ['projectApiTokenCount', 'projectEnabledToggleCount', 'sortOrder']) if (typeof out[f] === 'number') out[f] = String(out[f]);
          return out;
        }),
      })),
    }),
  ),
  target('oidc-booleans-from-env-strings', true, 'OIDC settings come from environment variables and are passed through unparsed: `enabled: "true"`, `autoCreate: "true"`, `enableSingleSignOut: "false"` (API §2.2: booleans)', () =>
    serveApp({
      after: rewrite200(isOidc, (body) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v]))),
    }),
  ),
  target('email-domains-as-array', true, 'emailDomains is stored in a text[] column and serialized as it comes: `["example.com","example.org"]` instead of the comma-separated string API §2.2 names', () =>
    serveApp({ after: rewrite200(isOidc, (body) => ({ ...body, emailDomains: String(body.emailDomains).split(',') })) }),
  ),
  target('rollout-parameter-as-number', true, 'Strategy parameters are read from a JSONB column where the UI stored rollout as a number: `parameters.rollout: 100` (API §2.1: parameters is an object with string values)', () =>
    serveApp({
      after: rewrite200(isEnvironments, (body) => ({
        ...body,
        environments: body.environments.map((e: any) => (e.defaultStrategy?.parameters?.rollout === undefined ? e : { ...e, defaultStrategy: { ...e.defaultStrategy, parameters: { ...e.defaultStrategy.parameters, rollout: Number(e.defaultStrategy.parameters.rollout) } } })),
      })),
    }),
  ),
  target('variant-weight-nan', true, 'A Python backend serializes with json.dumps (allow_nan=True by default) and variant weights are floats computed by dividing by the variant count of a table that has none: `"weight": NaN`, which is not JSON (RFC 8259 §6)', () =>
    serveApp({
      after: (answer, request) => (answer.status === 200 && isEnvironments(request) && answer.body ? { ...answer, body: answer.body.replace(/"weight":\d+/g, '"weight":NaN') } : answer),
    }),
  ),
  target('json-body-with-bom', true, 'A .NET-style writer (UTF8Encoding with its preamble) starts every JSON body with a byte order mark, EF BB BF (RFC 8259 §8.1: implementations MUST NOT add one)', () =>
    serveApp({ after: (answer) => (isJson(answer) ? { ...answer, body: `\uFEFF${answer.body}` } : answer) }),
  ),
  target('delete-200-with-json-body', true, 'The delete answers 200 with `{"deleted":true}` as JSON (a controller that returns the ORM result), where API §4.3 says the 200 has no body', () =>
    serveApp({
      after: (answer, request) => (answer.status === 200 && request.method === 'DELETE' ? json(200, { deleted: true }) : answer),
    }),
  ),
  target('second-delete-500', true, 'Token existence is read from a cache that the delete does not invalidate; the DELETE then affects 0 rows and the handler throws: deleting a token twice gets 500 instead of 404 (decision: a deletion is final, the same delete again gets 404)', () => {
    const store = new Store();
    const deleted = new Set<string>();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const route = routeOf(pathOf(request.url));
      if (route.kind === 'operation' && route.operationId === 'deleteServiceAccountToken' && request.method === 'DELETE') {
        const key = faithfulParts.presentedKey(request);
        if (key !== undefined && store.permits(key, route.operationId) && deleted.has(route.params.join('/'))) throw new Error('0 rows affected');
      }
      const answer = handle(store, faithfulParts, request);
      if (answer.status === 200 && request.method === 'DELETE' && route.kind === 'operation') deleted.add(route.params.join('/'));
      send(res, answer);
    });
  }),
  target('unknown-account-403', true, 'An ownership check ("is this service account yours?") runs before the lookup and fails for accounts that do not exist: the full key gets 403 NoAccessError on `/service-account/999/token/1` instead of 404 (decision: a key with every permission never gets 403)', () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const route = routeOf(pathOf(request.url));
      const answer = handle(store, faithfulParts, request);
      if (answer.status === 404 && route.kind === 'operation' && route.operationId === 'deleteServiceAccountToken' && !store.tokens.has(route.params[0]!)) {
        send(res, errorAnswer(faithfulParts, 403, request));
        return;
      }
      send(res, answer);
    });
  }),
  target('project-id-word-characters-only', true, 'The route is declared `/environments/project/:projectId(\\w+)`: a project id with a hyphen (`mobile-app`, an existing project) matches no route and gets 404', () =>
    serveApp({
      after: (answer, request) => {
        const path = pathOf(request.url);
        const m = /^\/api\/admin\/environments\/project\/([^/]*)$/.exec(path);
        return m && answer.status === 200 && !/^\w+$/.test(decodeURIComponent(m[1]!)) ? errorAnswer(faithfulParts, 404, request) : answer;
      },
    }),
  ),
  target('query-string-kept-in-project-id', true, 'The environments route reads the project id from the raw URL, query included: `/environments/project/default?_=1700000000000` (a cache-buster) looks up project `default?_=1700000000000` and gets 404 (decision: an unnamed query parameter changes no answer)', () =>
    serveApp({
      after: (answer, request) => (request.url.includes('?') && isEnvironments(request) && answer.status === 200 ? errorAnswer(faithfulParts, 404, request) : answer),
    }),
  ),
  target('error-ids-as-numbers', true, 'Error ids are the auto-increment key of an error-log table and serialized as numbers: `"id": 17` (decision: id, name and message are required strings)', () => {
    let next = 1;
    return serveApp({
      after: (answer) => (answer.status >= 400 && isJson(answer) ? { ...answer, body: JSON.stringify({ ...JSON.parse(answer.body!), id: next++ }) } : answer),
    });
  }),
  target('permission-by-http-method', true, 'Permissions are mapped to HTTP methods (read = GET/HEAD, write = DELETE): the key that may read project environments may also GET the OIDC settings, secret included (decision: each operation needs a permission of its own)', () => {
    const store = new Store();
    return serve((req, res) => {
      const request = toApiRequest(req);
      const key = faithfulParts.presentedKey(request);
      if (key !== undefined && store.keys.get(key)?.has('getProjectEnvironments') && request.method === 'GET' && isOidc(request)) {
        send(res, json(200, store.oidc));
        return;
      }
      send(res, handle(store, faithfulParts, request));
    });
  }),
  target('delete-200-without-length', true, 'A hand-written HTTP/1.1 server sends the delete\'s 200 with neither Content-Length nor Transfer-Encoding and keeps the connection open: the answer\'s end is then the connection\'s close (RFC 9112 §6.3), which never comes', () =>
    serveNet7((answer, request) => writeAnswer(answer, request, { lengthOf: (a) => (a.status === 200 && a.body === undefined && request.method === 'DELETE' ? undefined : String(Buffer.byteLength(a.body ?? ''))) })),
  ),

  // ---- conformant ----
  target('bearer-scheme-refused', false, 'Only the bare key is accepted in Authorization: `Bearer <key>` gets 401 (decision: a server may accept Bearer or answer 401)', () =>
    serveApp({
      parts: {
        presentedKey(request) {
          const value = request.headers.authorization;
          if (value === undefined) return undefined;
          return value.replace(/^[ \t]+|[ \t]+$/g, '');
        },
      },
    }),
  ),
  target('custom-reason-phrases', false, 'A hand-written HTTP/1.1 server with its own reason phrases (`200 Fine`, `404 Nope`, `401 Who are you`) and lower-case header names; the reason phrase carries no meaning (RFC 9112 §4)', () =>
    serveNet7Conformant((answer, request) => writeAnswer(answer, request, { reason: (s) => ({ 200: 'Fine', 204: 'Nothing', 401: 'Who are you', 403: 'Not you', 404: 'Nope', 405: 'Not that' })[s] ?? 'Whatever' })),
  ),
  target('oidc-disabled-minimal', false, 'OIDC is switched off: the settings answer is `{"enabled":false}` and nothing else (API §2.2: no field is required; decision: enabled may be false)', () =>
    serveApp({ after: rewrite200(isOidc, () => ({ enabled: false })) }),
  ),
  target('pretty-json-no-charset', false, 'JSON bodies are pretty-printed with a tab indent and a trailing newline, under `Content-Type: application/json` without a charset (RFC 8259 §11: JSON has no charset parameter)', () =>
    serveApp({
      after: (answer) => (isJson(answer) ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/json' }, body: `${JSON.stringify(JSON.parse(answer.body!), null, '\t')}\n` } : answer),
    }),
  ),
  target('delete-chunked-empty-body', false, 'A hand-written HTTP/1.1 server sends the delete\'s 200 with Transfer-Encoding: chunked and an empty body (the terminating zero chunk only): no body, framed another way (RFC 9112 §7.1)', () =>
    serveNet7Conformant((answer, request) => writeAnswer(answer, request, { chunkedEmpty: true })),
  ),
];
