import { decodePathParams, type Contract, type Operation } from '../../../src/contract/index.ts';
import { parsedBodyOf } from '../rule.ts';
import { isSuccess } from '../../http-status.ts';
import { comparableForm, constantValues, instanceIds } from './spec-annotations.ts';

/**
 * Which credential a request carried, as far as the judge knows: `unknown` is a key it was not
 * told about (the proxy sees other people's keys), which may be valid, restricted or invalid.
 */
export type ModelCredential = 'none' | 'invalid' | 'restricted' | 'full' | 'unknown';

/** A request as traffic shows it; no planned step, no expectation. */
export interface ModelRequest {
  /** The method as the request line spells it: case-sensitive (RFC 9110 §9.1), so `delete` is not DELETE. */
  method: string;
  /** Path and query relative to the base URL, exactly as sent (still percent-encoded). */
  path: string;
  credential: ModelCredential;
  /**
   * Which key of that kind, when there are several (a near-miss of the full key, a second
   * restricted key): identical reads are compared per principal. Defaults to the credential.
   */
  principal?: string;
  /**
   * It carried content, which no operation of the contract takes (RFC 9110 §9.3.1, §9.3.5: content in a GET or DELETE has no
   * meaning and some implementations refuse it): the refusals of malformed input are allowed too (decision malformed-input-refusals).
   */
  content?: boolean;
  /**
   * The method an override header names (X-HTTP-Method-Override and its kin, method-override.ts),
   * upper case: a server that honours it runs that operation, so the answer is judged by its
   * permission as well as by the request line's.
   */
  methodOverride?: string;
  /**
   * Its Host names this server otherwise than the base URL does (`localhost`, an IP literal): a server that serves only its own
   * names may refuse it before auth (RFC 9110 §7.2; 421 Misdirected Request, §15.5.20; DNS-rebinding protection).
   */
  otherHost?: boolean;
  /**
   * A valid key sent after an auth scheme (`Bearer <key>`, the scheme in any case): decision key-in-header-only lets a server accept
   * it or answer 401; rule auth-scheme-any-case holds every spelling of the scheme to what the others got.
   */
  schemeKey?: boolean;
  /**
   * The message in another form than the suite's own (a wire variant, variant-kinds.ts WireForm): the absolute form of the target, a
   * path spelled otherwise, two Authorization lines, no Host or two Host lines (allowed-answers.ts formAnswers). Its answer teaches
   * the run nothing (a 404 to a spelled path says nothing of the resource) and is compared with no other.
   */
  form?: 'absolute-form' | 'path-spelling' | 'repeated-credential' | 'malformed-message';
}

export interface ModelResponse {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  body: string;
  /** The body's bytes are not valid UTF-8 (conformance/types.ts RecordedResponse). */
  notUtf8?: true;
}

/** One request and its answer; `response` is absent when none arrived or it was too large to judge. */
export interface ModelExchange {
  request: ModelRequest;
  response?: ModelResponse;
  /** Position in the run, for "contradicts the answer of #n"; the order of observe() when absent. */
  seq?: number;
}

/**
 * What the run knows about one resource (a path template with its decoded ids): `exists` (given,
 * or answered with a success), `missing` (generated to be absent, or answered 404), `deleted`
 * (a delete of it succeeded). No operation of the contract creates a resource, and a deletion
 * is final (spec decision token-deletion-transition), so facts only move from exists to deleted.
 */
export type ResourceFact = 'exists' | 'missing' | 'deleted';

export interface FirstAnswer {
  seq: number;
  status: number;
  /** The body as comparableForm() renders it, or the raw text when it is not JSON. */
  comparable: string;
}

export interface RunStateOptions {
  contract: Contract;
  /** operationIds the `restricted` credential lacks the permission for; it may call the others. */
  forbidden?: Iterable<string>;
}

/**
 * The resource a request addresses, keyed by its path template and decoded ids; undefined when
 * no operation holds the path or its ids do not decode. `canonical` is false for an id spelled
 * with percent-encoding where none is needed (`%64efault`): RFC 3986 §6.2.2.2 makes it the same
 * id, but a server that compares raw segments finds nothing there, and both readings are allowed
 * (spec decision on ids compared exactly), so such a request neither uses nor teaches a fact.
 */
export function resourceOf(contract: Contract, method: string, path: string): { operation: Operation; key: string; params: Record<string, string>; canonical: boolean } | undefined {
  const route = contract.matchRoute(method, path.split('?')[0]!);
  if (route.kind !== 'operation') return undefined;
  const decoded = decodePathParams(route.rawParams);
  if (!decoded.ok) return undefined;
  const canonical = Object.entries(route.rawParams).every(([name, raw]) => encodeURIComponent(decoded.params[name]!) === raw);
  return { operation: route.operation, key: `${route.operation.path} ${JSON.stringify(decoded.params)}`, params: decoded.params, canonical };
}

/**
 * What an identical read must answer again: keyed by method, path and credential. The query is
 * left out: the contract names no query parameter, and one it does not name changes no answer
 * (spec decision required-request-headers), so `default?projectId=mobile-app` must answer what
 * `default` answered (a handler that merges the query over the path parameters answers another
 * project's environments).
 */
export function readKey(request: ModelRequest): string | undefined {
  return request.method === 'GET' && request.credential !== 'unknown' ? `${request.method} ${request.path.split('?')[0]!} ${request.principal ?? request.credential}` : undefined;
}

/** The read a request is, whoever asks: a GET with a key that may be compared (see readKey on the query). */
function readOf(request: ModelRequest): string | undefined {
  return request.method === 'GET' && (request.credential === 'full' || request.credential === 'restricted') ? `${request.method} ${request.path.split('?')[0]!}` : undefined;
}

/**
 * Everything the run has seen that later verdicts depend on. `declare` states what is known
 * before the run (the given resources exist, generated ids do not); `observe` folds in each
 * exchange after it was judged.
 */
export interface RunState {
  readonly contract: Contract;
  readonly forbidden: ReadonlySet<string>;
  declare(request: Pick<ModelRequest, 'method' | 'path'>, fact: 'exists' | 'missing'): void;
  fact(request: Pick<ModelRequest, 'method' | 'path'>): ResourceFact | undefined;
  observe(exchange: ModelExchange): void;
  /**
   * Observes an exchange that judgeExchange judged `perInstanceOnly` without a verdict: the same
   * request as one observed at this version, answered alike but in its per-instance values. Observing
   * it in full would teach nothing but its instance ids (every fact, permission, constant and first
   * answer it carries is already known: that is what an unchanged version says), so only those are kept.
   */
  observeAlike(exchange: ModelExchange): void;
  /**
   * observeAlike() for an answer whose per-instance values the caller read from its bytes (a proxy's
   * alike answers, conformance/judge/alike-form.ts valuesIfAlike): its instance ids, and its number.
   */
  observeAlikeIds(ids: readonly string[], seq: number | undefined): void;
  /** Where an error instance id was first seen. */
  errorIdSeenAt(id: string): number | undefined;
  firstAnswer(request: ModelRequest): FirstAnswer | undefined;
  /** The first success to the same read (method and path, the query aside) by another principal than the request's, and whose it was. */
  firstSuccessOfAnother(request: ModelRequest): (FirstAnswer & { principal: string }) | undefined;
  /** The first value an `x-constant` property of the operation's answers had, and where. */
  constantSeen(operationId: string, pointer: string): { value: string; seq: number } | undefined;
  /**
   * What a principal's answers on an operation showed about its permission (spec decision
   * permissions-per-operation: the same on every resource): `granted` once it got past auth
   * (a success or a 404), `denied` once it got 403.
   */
  permission(request: ModelRequest, operationId: string): { granted: boolean; seq: number } | undefined;
  /** How many exchanges were observed. */
  observed(): number;
  /**
   * Changes whenever what the state holds for later verdicts changes (a fact, a permission, a
   * constant, a first answer), but not when it only remembers another error instance id: two
   * answers judged at the same version are judged against the same state but for those ids.
   */
  version(): number;
}

export function createRunState({ contract, forbidden = [] }: RunStateOptions): RunState {
  const facts = new Map<string, ResourceFact>();
  const errorIds = new Map<string, number>();
  const firstAnswers = new Map<string, FirstAnswer>();
  // Spec decision key-decides-access-only: the first success of each read per principal, to compare across keys.
  const firstSuccesses = new Map<string, Map<string, FirstAnswer>>();
  const constants = new Map<string, { value: string; seq: number }>();
  const permissions = new Map<string, { granted: boolean; seq: number }>();
  const principalOf = (request: ModelRequest) => request.principal ?? request.credential;
  let count = 0;
  let version = 0;
  // Each exchange asks for its resource several times (its verdicts, then observe); a run sends the same request line many times.
  // Bounded: the proxy keeps one run state for its whole life, over request lines without end.
  const resources = new Map<string, ReturnType<typeof resourceOf>>();
  const keyOf = (request: Pick<ModelRequest, 'method' | 'path'>) => {
    const line = `${request.method} ${request.path}`;
    if (resources.has(line)) return resources.get(line);
    const resource = resourceOf(contract, request.method, request.path);
    if (resources.size >= 4096) resources.clear();
    resources.set(line, resource);
    return resource;
  };
  /**
   * A delete of a resource that does not exist succeeded: the server resolved the ids to some
   * other resource of the path (a near-miss read as the real id), which one the answer does not
   * say. That defect is judged where it happened; afterwards the existing resources of the path
   * are no longer known to exist, so that one defect is not reported again on each of them.
   */
  const forgetSiblings = (template: string, except: string) => {
    for (const [key, fact] of facts) if (fact === 'exists' && key !== except && key.startsWith(`${template} `)) facts.delete(key);
  };

  return {
    contract,
    forbidden: new Set(forbidden),
    declare(request, fact) {
      const resource = keyOf(request);
      if (resource?.canonical) facts.set(resource.key, fact);
      version++;
    },
    fact(request) {
      const resource = keyOf(request);
      if (!resource) return undefined;
      // An operation without ids addresses the one resource of its path (the OIDC settings): it exists.
      if (resource.operation.pathParams.length === 0) return 'exists';
      return resource.canonical ? facts.get(resource.key) : undefined;
    },
    observe({ request: sent, response, seq }) {
      const at = seq ?? count;
      count++;
      if (!response || sent.form !== undefined) return;
      // A success to a request whose override header names an operation of the path is that operation's: its effect counts (a delete happened).
      const overridden = sent.methodOverride !== undefined && isSuccess(response.status) && keyOf({ method: sent.methodOverride, path: sent.path }) !== undefined;
      const request = overridden ? { ...sent, method: sent.methodOverride! } : sent;
      const resource = keyOf(request);
      const authorized = request.credential === 'full' || request.credential === 'restricted';
      if (resource && !resource.canonical && isSuccess(response.status) && request.method === 'DELETE' && facts.delete(resource.key)) version++;
      if (resource && resource.canonical && resource.operation.pathParams.length > 0) {
        const known = facts.get(resource.key);
        // Only a first answer teaches a fact: an answer that contradicts a known fact was judged wrong and changes nothing.
        // A delete that succeeded deleted something, whoever sent it.
        if (isSuccess(response.status) && request.method === 'DELETE') {
          if (known === 'missing') forgetSiblings(resource.operation.path, resource.key);
          else facts.set(resource.key, 'deleted');
          version++;
        } else if (authorized && isSuccess(response.status) && known === undefined) {
          facts.set(resource.key, 'exists');
          version++;
        } else if (authorized && response.status === 404 && known === undefined && resource.operation.responses.has('404')) {
          facts.set(resource.key, 'missing');
          version++;
        }
      }
      const parsed = parsedBodyOf(response);
      const documented = resource?.operation.responses.get(String(response.status));
      if (resource && (request.credential === 'restricted' || request.credential === 'full')) {
        const key = `${principalOf(request)} ${resource.operation.operationId}`;
        const granted = isSuccess(response.status) || response.status === 404 ? true : response.status === 403 ? false : undefined;
        if (granted !== undefined && !permissions.has(key)) {
          permissions.set(key, { granted, seq: at });
          version++;
        }
      }
      if (resource && parsed.ok && isSuccess(response.status)) {
        for (const { pointer, value } of constantValues(parsed.value, documented?.schema)) {
          const key = `${resource.operation.operationId} ${pointer}`;
          if (!constants.has(key)) {
            constants.set(key, { value, seq: at });
            version++;
          }
        }
      }
      if (parsed.ok) for (const { id } of instanceIds(parsed.value, documented?.schema)) if (!errorIds.has(id)) errorIds.set(id, at);
      const key = overridden ? undefined : readKey(request);
      if (key !== undefined && !firstAnswers.has(key)) {
        firstAnswers.set(key, { seq: at, status: response.status, comparable: parsed.ok ? comparableForm(parsed.value, documented?.schema) : response.body });
        version++;
      }
      const read = overridden ? undefined : readOf(request);
      if (read !== undefined && isSuccess(response.status) && parsed.ok) {
        const byPrincipal = firstSuccesses.get(read) ?? firstSuccesses.set(read, new Map()).get(read)!;
        if (!byPrincipal.has(principalOf(request))) {
          byPrincipal.set(principalOf(request), { seq: at, status: response.status, comparable: comparableForm(parsed.value, documented?.schema) });
          version++;
        }
      }
    },
    observeAlike(exchange) {
      // An override header may make the answer another operation's: observed in full, as observe() reads it.
      if (exchange.request.methodOverride !== undefined) return this.observe(exchange);
      const { request, response, seq } = exchange;
      const at = seq ?? count;
      count++;
      if (!response) return;
      const parsed = parsedBodyOf(response);
      if (!parsed.ok) return;
      // The schema observe() reads the ids by, found the same way.
      const documented = keyOf(request)?.operation.responses.get(String(response.status));
      for (const { id } of instanceIds(parsed.value, documented?.schema)) if (!errorIds.has(id)) errorIds.set(id, at);
    },
    observeAlikeIds(ids, seq) {
      const at = seq ?? count;
      count++;
      for (const id of ids) if (!errorIds.has(id)) errorIds.set(id, at);
    },
    errorIdSeenAt: (id) => errorIds.get(id),
    constantSeen: (operationId, pointer) => constants.get(`${operationId} ${pointer}`),
    permission: (request, operationId) => permissions.get(`${principalOf(request)} ${operationId}`),
    firstSuccessOfAnother: (request) => {
      const read = readOf(request);
      if (read === undefined) return undefined;
      for (const [principal, answer] of firstSuccesses.get(read) ?? []) if (principal !== principalOf(request)) return { ...answer, principal };
      return undefined;
    },
    firstAnswer: (request) => {
      const key = readKey(request);
      return key === undefined ? undefined : firstAnswers.get(key);
    },
    observed: () => count,
    version: () => version,
  };
}
