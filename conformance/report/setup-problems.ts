import { responseFor, type Contract, type JsonSchema } from '../../src/contract/index.ts';
import { FORBIDDEN, NOT_FOUND, UNAUTHORIZED, isSuccess } from '../http-status.ts';
import { mediaTypeOf, parsedBodyOf } from '../judge/rule.ts';
import { deletedEarlierBy } from '../judge/token-history.ts';
import type { Exchange, PlannedRequest, SetupHint, StepKind, TokenRef } from '../types.ts';

/** The first steps of every plan: reads with the full key. Their answers tell whether the key works at all. */
const READ_STEPS: ReadonlySet<StepKind> = new Set(['read', 'missing-project']);

/** Whether the first reads are all sent: set-up problems are judged from their answers, before anything is deleted. */
function readsDone(exchanges: readonly Exchange[], next: PlannedRequest | undefined): boolean {
  const last = exchanges[exchanges.length - 1];
  return last !== undefined && READ_STEPS.has(last.step) && !(next && READ_STEPS.has(next.step));
}

/** A read of an operation without a key: harmless to any server, and its status tells whether the target's answers depend on the key. */
const keylessRead = (request: PlannedRequest | undefined) => request !== undefined && request.credential === 'none' && (request.method === 'GET' || request.method === 'HEAD');

/**
 * Whether the evidence for "is this the API at all" is in: the first reads, and the keyless read
 * the plan sends right after them where it sends one (the auth scenario's first request).
 */
function evidenceDone(exchanges: readonly Exchange[], next: PlannedRequest | undefined): boolean {
  const last = exchanges[exchanges.length - 1];
  if (last === undefined) return false;
  if (READ_STEPS.has(last.step)) return !(next && (READ_STEPS.has(next.step) || keylessRead(next)));
  const before = exchanges[exchanges.length - 2];
  return keylessRead(last) && before !== undefined && READ_STEPS.has(before.step);
}

/**
 * Whether the answers' statuses are this API's, whatever their bodies: a success with the full key on
 * a given project or the OIDC settings, the missing project not a success (a catch-all answers every
 * path alike), and the difference the API makes: 404 for the missing project (the answer depends on
 * the path as API §4.1 says), or 401 without a key where the key got a success (it depends on the key,
 * API §5). A static site, a login page, another service or its gateway answer every path and key alike.
 */
function statusesOfThisApi(exchanges: readonly Exchange[]): boolean {
  const status = (e: Exchange) => e.response?.status;
  const succeeded = exchanges.filter((e) => e.credential === 'full' && e.step === 'read' && e.response && isSuccess(e.response.status));
  const missing = exchanges.filter((e) => e.step === 'missing-project' && e.response);
  if (succeeded.length === 0 || missing.length === 0 || missing.some((e) => isSuccess(status(e)!))) return false;
  const byPath = missing.some((e) => status(e) === NOT_FOUND);
  const byKey = exchanges.some((e) => e.credential === 'none' && status(e) === UNAUTHORIZED && succeeded.some((r) => r.operationId === e.operationId));
  return byPath || byKey;
}

/**
 * Whether an answer is JSON of a shape the spec documents for its operation (any of its
 * statuses): valid against the schema, and holding a property the schema names where it names
 * any. A schema whose properties are all optional (the OIDC settings) accepts any object, so
 * validity alone would take another service's `{"error":"Not Found"}` for this API.
 */
function looksLikeThisApi(exchange: Exchange, contract: Contract, anyStatus: boolean): boolean {
  if (!exchange.response) return false;
  const body = parsedBodyOf(exchange.response);
  // JSON behind a byte order mark, or in UTF-16, is this API's JSON with a defect (RFC 8259 §8.1: JSON between systems MUST
  // be UTF-8, without a byte order mark), not another service: the run goes on and judges it.
  const bom = !body.ok ? asUtf8Json(exchange.response.body) : undefined;
  if (!body.ok && !bom?.ok) return false;
  const value = body.ok ? body.value : bom!.ok ? bom!.value : undefined;
  const names = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
  const operation = contract.operation(exchange.operationId);
  const own = responseFor(operation, exchange.response.status);
  // Its own status's schema first: that validator is compiled for judging anyway (they compile on first use).
  for (const response of anyStatus ? operation.responses.values() : own ? [own] : []) {
    if (!response.schema || response.validate(value).length > 0) continue;
    const described = propertyNames(response.schema);
    if (described.size === 0 || names.some((name) => described.has(name))) return true;
  }
  return false;
}

/**
 * A JSON text sent in another encoding, as the client's UTF-8 decoding left it: behind a byte
 * order mark (U+FEFF), or UTF-16 (each ASCII character followed or preceded by a NUL, its byte
 * order mark read as two U+FFFD). Undefined when it is none of these.
 */
function asUtf8Json(text: string): ReturnType<typeof parsedBodyOf> | undefined {
  if (text.startsWith('\uFEFF')) return parsedBodyOf({ body: text.slice(1) });
  if (!text.includes('\0')) return undefined;
  return parsedBodyOf({ body: text.replace(/^\uFFFD{1,2}/, '').replace(/\0/g, '') });
}

/** The property names a schema describes at its top level, its allOf members' included. */
function propertyNames(schema: JsonSchema): Set<string> {
  const names = new Set<string>(Object.keys((schema.properties as object | undefined) ?? {}));
  for (const member of (schema.allOf as JsonSchema[] | undefined) ?? []) for (const name of propertyNames(member)) names.add(name);
  return names;
}

/** How many characters of a body a set-up message quotes. */
const QUOTED = 80;

/**
 * After the reads (and the keyless read right after them): whether nothing says this is the API, e.g.
 * a static web server, a login page or another service at --base-url. That is a set-up problem (exit
 * 2), told before anything is deleted: a wrong base URL, not a list of defects. Evidence that it IS
 * this API makes it a run with defects (exit 1) whatever its bodies: an answer that is JSON of a
 * shape the spec documents for its operation, or statuses that depend on the path and the key as
 * this API's do (statusesOfThisApi), e.g. a server whose every body is wrapped, compressed or
 * prefixed so that no parser reads it. Returns the message, with what the target answered.
 */
export function notThisApi(exchanges: readonly Exchange[], next: PlannedRequest | undefined, contract: Contract, baseUrl: string): string | undefined {
  if (!evidenceDone(exchanges, next)) return undefined;
  const answered = exchanges.filter((e) => e.response);
  if (answered.length === 0 || statusesOfThisApi(answered) || answered.some((e) => looksLikeThisApi(e, contract, false)) || answered.some((e) => looksLikeThisApi(e, contract, true))) return undefined;
  const kinds = new Map<string, number>();
  for (const e of answered) {
    const kind = `${e.response!.status} ${mediaTypeOf(e.response!.headers['content-type']) ?? 'without Content-Type'}`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const got = [...kinds].map(([kind, n]) => (n > 1 ? `${kind} (${n}x)` : kind)).join(', ');
  const example = answered[0]!;
  // Runs of white space as one space: the quote is about what kind of answer it is, on one line.
  const body = example.response!.body.replace(/\s+/g, ' ');
  const quoted = body === '' ? 'an empty body' : JSON.stringify(body.length > QUOTED ? `${body.slice(0, QUOTED)}…` : body);
  return `${baseUrl} does not look like this API: none of the ${answered.length} answers to the first reads is JSON of a shape the spec documents; they were ${got}, e.g. ${example.method} ${example.request.url} answered ${quoted}. Is --base-url the API's root (a path prefix missing or extra, another host or port)? Nothing was deleted and nothing judged.`;
}

/**
 * After the reads: whether every request that carried the full-access key was refused (401 or
 * 403). That is a set-up problem (exit 2), not a list of defects: nothing else can be judged
 * with a key that does not work. The evidence cannot tell a wrong key from a server that refuses
 * every key, so the message names both readings.
 */
export function fullKeyRefusal(exchanges: readonly Exchange[], next: PlannedRequest | undefined): string | undefined {
  if (!readsDone(exchanges, next)) return undefined;
  const withKey = exchanges.filter((e) => e.credential === 'full');
  const statuses = withKey.map((e) => e.response?.status);
  if (withKey.length === 0 || !statuses.every((s) => s === UNAUTHORIZED || s === FORBIDDEN)) return undefined;
  const what = statuses.every((s) => s === FORBIDDEN)
    ? `403 (a valid key without the permissions): give a key that may do everything`
    : statuses.every((s) => s === UNAUTHORIZED)
      ? `401 (not a key this target knows): check --api-key / FLAG_ADMIN_API_KEY is a key of this target`
      : `${[...new Set(statuses)].join(' and ')}: check --api-key / FLAG_ADMIN_API_KEY is a key of this target that may do everything`;
  return `the full-access key was refused on all ${withKey.length} requests that carried it, with ${what}. Either the key is wrong for this target, or the server refuses every key; nothing else was judged.`;
}

/** Why nothing could be judged: refused connections, or a target that accepts them and never answers. */
export function silentTargetMessage(baseUrl: string, first: Exchange, timeoutMs: number): string {
  if (first.notHttp) return `${baseUrl}: ${first.transportError}, and so did GET / (is it the right address and port? an https:// server?)`;
  if (first.timedOut) return `${baseUrl} sent no HTTP response within ${timeoutMs} ms, not even to GET / (is it the right address? is the server stuck or still starting?)`;
  return `cannot reach ${baseUrl}: ${first.transportCode ?? 'no response'} (is the server running?)`;
}

/** A likely set-up cause, and which exchanges' findings it may account for. */
export interface HintOf extends Omit<SetupHint, 'explains'> {
  covers(exchange: Exchange): boolean;
}

const fullKey = (e: Exchange) => e.credential === 'full' && !e.keyVariant && e.response !== undefined;

/**
 * The full-access key refused with 403 on some operations, never let through there, and
 * accepted on others: the pattern of a key that lacks those operations' permissions (a permission is per
 * operation, spec decision permissions-per-operation), i.e. a restricted key given as the full
 * one. The answers cannot rule out a server that wrongly refuses the full key there, so the
 * findings stay; the hint says which reading is likelier and how to tell.
 */
export function restrictedKeyHint(exchanges: readonly Exchange[], contract: Contract): HintOf | undefined {
  // Only a request in the operation's own method (HEAD standing for GET, RFC 9110 §9.3.2) tells what the key may do there:
  // a 204 to an OPTIONS preflight of the delete is the server's CORS answer, given before and without any permission.
  const ownMethod = (e: Exchange) => {
    const method = contract.operation(e.operationId).method;
    return e.method === method || (method === 'GET' && e.method === 'HEAD');
  };
  const byOperation = new Map<string, Exchange[]>();
  for (const e of exchanges.filter((e) => fullKey(e) && ownMethod(e))) byOperation.set(e.operationId, [...(byOperation.get(e.operationId) ?? []), e]);
  // Refused: 403 and never a success (requests a router refuses before auth, e.g. an id holding %2F, may answer 404).
  const refused = [...byOperation].filter(([, es]) => es.some((e) => e.response!.status === FORBIDDEN) && !es.some((e) => isSuccess(e.response!.status))).map(([id]) => id);
  const accepted = [...byOperation].filter(([, es]) => es.some((e) => isSuccess(e.response!.status))).map(([id]) => id);
  if (refused.length === 0 || accepted.length === 0) return undefined;
  const n = refused.reduce((sum, id) => sum + byOperation.get(id)!.filter((e) => e.response!.status === FORBIDDEN).length, 0);
  return {
    kind: 'full-key-restricted',
    message: `the full-access key got 403 on ${n} request(s) of ${refused.join(' and ')} and no success there, but a success on ${accepted.join(' and ')}: it may be a restricted key (one without those permissions). Give --api-key / FLAG_ADMIN_API_KEY a key that may do everything and run again; if it is a full-access key, the server refuses it there, as the findings say.`,
    covers: (e) => fullKey(e) && ownMethod(e) && refused.includes(e.operationId) && e.response!.status === FORBIDDEN,
  };
}

/** The own-account deletes of a given token with the full key: the first of them tells whether the token existed. */
const OWN_DELETES: ReadonlySet<StepKind> = new Set(['delete', 'delete-after-cross', 'concurrent-delete', 'bystander-delete']);
const sameToken = (a: TokenRef | undefined, b: TokenRef) => a?.account === b.account && a.token === b.token;

/**
 * Given tokens whose first delete through their own account with the full key answered 404,
 * with no earlier request of the run deleting them: most likely deleted before the run (an
 * earlier run, the README's curl, by hand). The suite cannot list tokens to tell that from a
 * server that fails to find them, so findings on them name both readings (Finding.alsoPossible).
 */
export function tokensGoneHint(exchanges: readonly Exchange[], tokens: readonly TokenRef[]): HintOf | undefined {
  const gone = tokens.filter((token) => {
    const first = exchanges.find((e) => OWN_DELETES.has(e.step) && fullKey(e) && sameToken(e.token, token));
    return first?.response?.status === NOT_FOUND && deletedEarlierBy(exchanges, first) === undefined;
  });
  if (gone.length === 0) return undefined;
  const names = gone.map((t) => `token ${t.account}/${t.token}`).join(', ');
  return {
    kind: 'tokens-gone',
    message: `${names} answered 404 to ${gone.length > 1 ? 'their' : 'its'} first delete with the full key: most likely already deleted before the run (an earlier run, a curl, by hand). Pass fresh disposable --token values; if ${gone.length > 1 ? 'they' : 'it'} did exist, the server failed to find ${gone.length > 1 ? 'them' : 'it'}, as the findings say.`,
    covers: (e) => gone.some((t) => sameToken(e.token, t)),
  };
}
