import { responseFor, type Contract, type Operation } from '../../../src/contract/index.ts';
import { isMalformedId as isMalformed } from '../../reserved-characters.ts';
import { CONTENT_REFUSALS, FORBIDDEN, isCaseRefusal, METHOD_NOT_ALLOWED, NOT_FOUND, NOT_IMPLEMENTED, UNAUTHORIZED, isClientError, isSuccess } from '../../http-status.ts';
import type { ModelRequest, RunState } from './run-state.ts';
import { toleratedRefusals } from './spec-annotations.ts';

/**
 * The kinds of verdict the model gives: what an exchange breaks. Each is reported under the rule
 * of the registry that claims it (conformance/judge/rule.ts `claims`); the proxy shows it as is.
 */
export const VERDICT_KINDS = [
  'server-error',
  'status-documented',
  'auth-required',
  'permission-required',
  'valid-key-accepted',
  'full-key-allowed',
  'resource-exists',
  'resource-missing',
  'resource-gone',
  'method-refused',
  'media-type',
  'body-schema',
  'error-kind',
  'no-body',
  'answer-stable',
  'error-id-unique',
  'list-items-unique',
  'permission-consistent',
  'message-refused',
] as const;

export type VerdictKind = (typeof VERDICT_KINDS)[number];

/**
 * Kinds whose verdict compares an answer with earlier ones: the only word on a defect that spans
 * exchanges, so reported even where another rule already has a finding on the exchange.
 */
export const COMPARING_KINDS: ReadonlySet<VerdictKind> = new Set(['answer-stable', 'error-id-unique', 'list-items-unique']);

export interface AllowedAnswers {
  /** `outside`: no path of the spec holds the request; the contract says nothing about it. */
  kind: 'operation' | 'unlisted-method' | 'outside';
  operationId?: string;
  /** Every operation on the request's path (one, or several for an unlisted method). */
  operations: readonly Operation[];
  /** The statuses the contract allows for this request now, given what the run has seen. */
  statuses: readonly number[];
  /** What a status outside `statuses` breaks, unless it is undocumented (status-documented) or a 5xx. */
  rule: VerdictKind;
  /** Why, in the contract's words, for messages. */
  because: string;
  /** Malformed input (an id that does not decode, holds a slash or control character, or is very long): the spec's tolerated refusals apply. */
  malformed: boolean;
  /** With a method override: the statuses of the request line's own refusal (an unlisted method), whose bodies are the router's, not the named operation's. */
  lineRefusals?: readonly number[];
}

/** RFC 9110 §15.5.1 and §15.5.20: what a server answers a Host it does not serve. */
const BAD_REQUEST_STATUS = 400;
const MISDIRECTED = 421;

function undecodable(raw: string): boolean {
  try {
    decodeURIComponent(raw);
    return false;
  } catch {
    return true;
  }
}

const tolerated = new WeakMap<object, ReadonlySet<number>>();

/** The spec's tolerated refusals of malformed input, read once per contract. */
export function refusalsOf(state: Pick<RunState, 'contract'>): ReadonlySet<number> {
  let set = tolerated.get(state.contract);
  if (!set) tolerated.set(state.contract, (set = toleratedRefusals(state.contract)));
  return set;
}

/**
 * Whether a status is a refusal the spec tolerates here (decision malformed-input-refusals):
 * the request's ids are malformed input (not valid percent-encoding, an encoded slash, a control
 * character such as NUL or TAB, very long) and the status is one of `x-tolerated-refusals`.
 */
export function toleratedRefusal(contract: Contract, method: string, path: string, status: number): boolean {
  const route = contract.matchRoute(method, path.split('?')[0]!);
  if (route.kind !== 'operation' || !Object.values(route.rawParams).some(isMalformed)) return false;
  return refusalsOf({ contract }).has(status);
}

const successes = (operation: Operation) => [...operation.responses.keys()].filter((s) => /^2\d\d$/.test(s)).map(Number);
const documents = (operation: Operation, status: number) => operation.responses.has(String(status));

const CLIENT_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i);

/**
 * The statuses a method the spec does not list on a path may get (spec decision unlisted-methods),
 * sorted: 404, 405, 501 (RFC 9110 §9.1: a method the server does not implement), a 4xx that an
 * operation of the path documents (e.g. 401 before the method is looked at; a range such as `4XX`
 * or `default` documents each status it covers, OAS 3.1 §4.8.16), and 400 for a method spelled
 * with lower-case letters (isCaseRefusal). The one list: the model's verdict and the rule
 * unlisted-method-rejected both read it.
 */
export function unlistedMethodRefusals(method: string, operations: readonly Operation[]): number[] {
  const documented = CLIENT_ERRORS.filter((status) => operations.some((operation) => responseFor(operation, status) !== undefined));
  const refusals = new Set([NOT_FOUND, METHOD_NOT_ALLOWED, NOT_IMPLEMENTED, ...documented]);
  if (isCaseRefusal(method, BAD_REQUEST)) refusals.add(BAD_REQUEST);
  return [...refusals].sort();
}

/**
 * The set of answers the contract allows for a request, given what the run has seen (API §5
 * auth order, then the resource's fact). Where the contract allows several, all are in the set.
 * @example allowedAnswers({ method: 'DELETE', path: '/api/admin/service-account/1/token/1', credential: 'full' }, state).statuses // [200, 404] before anything is known, [404] once deleted
 */
export function allowedAnswers(request: ModelRequest, state: RunState): AllowedAnswers {
  if (request.form !== undefined) return formAnswers(request, state);
  if (request.methodOverride !== undefined) return overriddenAnswers(request, state);
  // A Host naming this server by another name than the base URL's (`localhost` for 127.0.0.1, kind host-spellings) may be refused as
  // such whatever the key, 400 or 421 (RFC 9110 §7.2, §15.5.20; decision required-request-headers), before auth; else the answer is
  // the request's as given. Keyless requests keep their own wider set below.
  if (request.otherHost && request.credential !== 'none' && request.credential !== 'invalid') {
    const plain = allowedAnswers({ ...request, otherHost: false }, state);
    return plain.kind === 'operation' ? { ...plain, statuses: [...new Set([...plain.statuses, BAD_REQUEST_STATUS, MISDIRECTED])].sort(), because: `${plain.because}, or the Host refused as one this server does not serve (400, 421)` } : plain;
  }
  // Decision key-in-header-only: `Bearer <key>` may be taken as the key or refused as no credential (401); anything else is the key's.
  if (request.schemeKey && (request.credential === 'full' || request.credential === 'restricted')) {
    const plain = allowedAnswers({ ...request, schemeKey: false }, state);
    return plain.kind === 'operation' ? { ...plain, statuses: [...new Set([...plain.statuses, UNAUTHORIZED])].sort(), because: `${plain.because}, or 401 from a server that takes no scheme before the key (decision key-in-header-only)` } : plain;
  }
  // The method token is case-sensitive (RFC 9110 §9.1): only `HEAD` is HEAD; `head` is a method the spec does not list.
  if (request.method === 'HEAD') {
    // Spec decision head-requests: what the GET of the path gets, without a body (RFC 9110 §9.3.2), or 405 from a server that routes no HEAD.
    const get = allowedAnswers({ ...request, method: 'GET' }, state);
    return get.kind === 'operation' ? { ...get, statuses: [...new Set([...get.statuses, METHOD_NOT_ALLOWED])].sort(), because: `${get.because} (HEAD: as GET without the body, or 405)` } : get;
  }
  const { contract } = state;
  const pathname = request.path.split('?')[0]!;
  const route = contract.matchRoute(request.method, pathname);
  if (route.kind === 'not-found') return { kind: 'outside', operations: [], statuses: [], rule: 'status-documented', because: 'no path of the spec holds it', malformed: false };
  if (route.kind === 'method-not-allowed') {
    const operations = route.allow.flatMap((method) => {
      const r = contract.matchRoute(method, pathname);
      return r.kind === 'operation' ? [r.operation] : [];
    });
    return { kind: 'unlisted-method', operations, statuses: unlistedMethodRefusals(request.method, operations), rule: 'method-refused', because: `the spec lists no ${request.method} on this path`, malformed: request.content === true };
  }
  const { operation } = route;
  // Content the operation does not take may be refused like malformed input (decision malformed-input-refusals; RFC 9110 §9.3.5).
  const malformed = Object.values(route.rawParams).some(isMalformed) || request.content === true;
  const base = { kind: 'operation' as const, operationId: operation.operationId, operations: [operation], malformed };
  // Statuses the contract documents without tying them to auth or to the resource (the OIDC read's 400: spec decision oidc-read-400): allowed, never demanded.
  const unconditioned = [...operation.responses.keys()].map(Number).filter((s) => isClientError(s) && s !== UNAUTHORIZED && s !== FORBIDDEN && s !== NOT_FOUND);
  const needsAuth = operation.authHeaders.length > 0;
  // Auth is decided before the resource is looked up (spec decision credentials-and-permissions): 401 before 403 before 404.
  if (needsAuth && (request.credential === 'none' || request.credential === 'invalid')) {
    // A Host this server is not named by may be refused before auth too (400, 403, 404, 421), never answered with data.
    if (request.otherHost) return { ...base, statuses: [400, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, 421], rule: 'auth-required', because: 'a request without a valid key is refused with 401 before anything else (API §5), or, for a Host the server does not serve, refused as such (RFC 9110 §7.2, §15.5.20)' };
    return { ...base, statuses: [UNAUTHORIZED], rule: 'auth-required', because: 'a request without a valid key is refused with 401 before anything else (API §5)' };
  }
  if (needsAuth && request.credential === 'restricted' && state.forbidden.has(operation.operationId)) {
    return { ...base, statuses: [FORBIDDEN], rule: 'permission-required', because: `the key lacks the permission for ${operation.operationId}: 403 before the resource is looked up (API §5)` };
  }
  // An id that is not valid percent-encoding names no resource.
  // A permission is per operation, the same on every resource (spec decision permissions-per-operation): what this key's earlier answers showed holds here too.
  const permission = needsAuth && request.credential === 'restricted' ? state.permission(request, operation.operationId) : undefined;
  if (permission && !permission.granted) {
    return { ...base, statuses: [FORBIDDEN], rule: 'permission-consistent', because: `this key got 403 on ${operation.operationId} before (request #${permission.seq}), and a permission is the same on every resource` };
  }
  const fact = Object.values(route.rawParams).some(undecodable) ? 'missing' : state.fact(request);
  let resource: { statuses: number[]; rule: VerdictKind; because: string };
  // An id spelled with needless percent-encoding (%64efault, RFC 3986 §6.2.2.2) has no fact (run-state.ts resourceOf): the same id or nothing, both allowed.
  if (fact === 'exists') resource = { statuses: successes(operation), rule: 'resource-exists', because: 'the resource exists' };
  else if (fact === 'deleted') resource = { statuses: [NOT_FOUND], rule: 'resource-gone', because: 'it was deleted earlier in the run, and a deletion is final (API §4.3)' };
  else if (fact === 'missing') resource = { statuses: [NOT_FOUND], rule: 'resource-missing', because: 'no such resource exists (ids are compared exactly)' };
  else resource = { statuses: [...successes(operation), ...(documents(operation, NOT_FOUND) ? [NOT_FOUND] : [])], rule: 'status-documented', because: 'whether it exists is not known to the run' };
  const extra = [
    ...unconditioned,
    // The restricted key may lack the permission of an operation it was not said to lack; an unknown key may be anything.
    ...(needsAuth && request.credential === 'restricted' && !permission ? [FORBIDDEN] : []),
    ...(needsAuth && request.credential === 'unknown' ? [UNAUTHORIZED, FORBIDDEN] : []),
  ];
  return { ...base, statuses: [...new Set([...resource.statuses, ...extra])].sort(), rule: resource.rule, because: resource.because };
}

/**
 * A request whose override header names another method (method-override.ts): a server may ignore
 * the header (the request line's method, here one the path does not list: its refusals) or honour
 * it (the named operation, with that operation's auth order and permission). Either is allowed;
 * nothing else is, so a key gets through the header no answer the named operation refuses it
 * (red team round eight: a 2xx with the data of an operation the key gets 403 for). An override
 * naming no operation of the path, or sent on a method the path lists, changes nothing here.
 */
function overriddenAnswers(request: ModelRequest, state: RunState): AllowedAnswers {
  const { methodOverride, ...plain } = request;
  const line = allowedAnswers(plain, state);
  if (line.kind !== 'unlisted-method' || methodOverride === plain.method.toUpperCase()) return line;
  const named = allowedAnswers({ ...plain, method: methodOverride! }, state);
  if (named.kind !== 'operation') return line;
  return {
    ...named,
    statuses: [...new Set([...line.statuses, ...named.statuses])].sort(),
    because: `${named.because} (the request asks for ${methodOverride} in a method-override header: ${plain.method}'s refusal, or what ${named.operationId} allows this key)`,
    lineRefusals: line.statuses,
  };
}

/** Redirects to the plain path that a router may answer to a path spelled otherwise (as for a trailing slash: spec decision trailing-slash). */
const PATH_REDIRECTS = [301, 308];
const BAD_REQUEST = 400;

/**
 * A request sent in another form of the message (ModelRequest.form), judged by what the same
 * request in the ordinary form gets, adjusted only as HTTP and the spec's decisions say:
 * - `absolute-form`: the same answer, or a 400 or 404 refusing the form (a router that matches the raw target; decision request-target-forms);
 * - `path-spelling`: the operation with its auth, or nothing: 400, 404 or a redirect, in the router's format (decision request-target-forms);
 * - `repeated-credential`: judged as an invalid key (the request's credential), or 400 (decision malformed-requests, RFC 9110 §5.3);
 * - `malformed-message`: 400 only, whatever the key (RFC 9112 §3.2, decision malformed-requests).
 */
function formAnswers(request: ModelRequest, state: RunState): AllowedAnswers {
  const { form, ...plain } = request;
  const base = allowedAnswers(plain, state);
  if (base.kind !== 'operation') return base;
  if (form === 'malformed-message') return { ...base, statuses: [BAD_REQUEST], rule: 'message-refused', because: 'an HTTP/1.1 request without Host or with two Host lines is answered 400, whatever key it carries (RFC 9112 §3.2; decision malformed-requests)', malformed: true };
  const extra = form === 'path-spelling' ? [BAD_REQUEST, NOT_FOUND, ...PATH_REDIRECTS] : form === 'absolute-form' ? [BAD_REQUEST, NOT_FOUND] : [BAD_REQUEST];
  const why = form === 'path-spelling' ? 'a path spelled otherwise is the operation with its auth, or a 400, 404 or redirect (decision request-target-forms)' : form === 'absolute-form' ? 'the absolute form is the same resource (RFC 9112 §3.2.2), or a 400 or 404 refusing the form' : 'two Authorization lines are one list, no key (RFC 9110 §5.3), or a 400 (decision malformed-requests)';
  return { ...base, statuses: [...new Set([...base.statuses, ...extra])].sort(), because: `${base.because}; ${why}`, malformed: base.malformed || form === 'path-spelling' };
}

/** The rule a status breaks when it is not in `allowed`; undefined when it is allowed (a tolerated refusal of malformed input included). */
export function brokenRule(allowed: AllowedAnswers, request: ModelRequest, status: number, state: RunState): VerdictKind | undefined {
  if (allowed.kind === 'outside' || allowed.statuses.includes(status)) return undefined;
  if (allowed.malformed && (status === NOT_FOUND || status === METHOD_NOT_ALLOWED || refusalsOf(state).has(status) || (request.content === true && CONTENT_REFUSALS.has(status)))) return undefined;
  if (status >= 500) return 'server-error';
  if (allowed.kind === 'unlisted-method') {
    // Spec decision unlisted-methods: a server may implement more than the spec lists (a warning), but never for a request without a valid key (API §5).
    const keyless = request.credential === 'none' || request.credential === 'invalid';
    if (keyless && isSuccess(status) && allowed.operations.some((o) => o.authHeaders.length > 0)) return 'auth-required';
    return 'method-refused';
  }
  const operation = allowed.operations[0]!;
  if (!responseFor(operation, status)) return 'status-documented';
  if (status === UNAUTHORIZED && (request.credential === 'full' || request.credential === 'restricted')) return 'valid-key-accepted';
  if (status === FORBIDDEN && request.credential === 'full') return 'full-key-allowed';
  if (status === FORBIDDEN && request.credential === 'restricted' && state.permission(request, operation.operationId)?.granted) return 'permission-consistent';
  if (isSuccess(status) && allowed.rule === 'status-documented') return 'status-documented';
  return allowed.rule;
}
