import { isSuccess } from '../http-status.ts';
import { createRunState, judgeRun, type ModelCredential, type ModelExchange, type ModelRequest, type RunState, type Verdict } from './model/index.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_PROJECT_ENVIRONMENTS } from '../operation-ids.ts';
import { encodeId, pathOf, type PlanInput } from '../plan/scenarios/plan-input.ts';
import type { Exchange, StepKind } from '../types.ts';
import { notModifiedStandsFor } from './not-modified.ts';
import { namesSameAuthority } from '../plan/variants/host-spellings.ts';
import { judgeRangeAnswer } from './partial-content.ts';
import { methodOverrideOf } from './model/method-override.ts';
import { VARIANT_KIND } from '../plan/variants/variant-kinds.ts';

/**
 * Steps whose ids were made not to exist (generated from the seed, near-misses of given ids that
 * collide with none, odd ids, a given token's id under another given account that was not given
 * a token of that id): what the run knows before it starts, stated to the model as facts. The
 * plan never says what the answer must be; the model derives it.
 */
const ABSENT_BY_CONSTRUCTION: ReadonlySet<StepKind> = new Set(['missing-project', 'unknown-token', 'near-miss-project', 'near-miss-token', 'near-miss-account', 'odd-id', 'cross-account-delete']);

/** The credential as the model sees it: a near-miss of the full key is an invalid key, or no key where it left the header. */
export function modelCredentialOf(exchange: Exchange): ModelCredential {
  if (!exchange.keyVariant) return exchange.credential;
  return exchange.keyVariant.placement.in === 'header' ? 'invalid' : 'none';
}

/** The model's view of a planned exchange. Identical reads are compared per key: each near-miss and each restricted key is a principal of its own. */
export function toModelExchange(exchange: Exchange): ModelExchange & { batch?: number } {
  const form = formOf(exchange);
  // A key after a scheme (kind auth-scheme-case) is a principal of its own: a server may refuse it where the bare key gets through.
  const schemeKey = exchange.variant !== undefined && VARIANT_KIND.get(exchange.variant.kind)?.authSchemes !== undefined;
  return {
    request: { method: exchange.method, path: exchange.path, credential: form === 'repeated-credential' ? 'invalid' : modelCredentialOf(exchange), principal: exchange.keyVariant?.id ?? `${exchange.credential}${exchange.keyIndex ? `#${exchange.keyIndex}` : ''}${schemeKey ? ' after a scheme' : ''}`, ...(schemeKey ? { schemeKey: true } : {}), ...(form !== undefined ? { form } : {}), ...(exchange.request?.body !== undefined ? { content: true } : {}), ...(namesAnotherHost(exchange) ? { otherHost: true } : {}), ...overrideOf(exchange) },
    ...(exchange.response ? { response: exchange.response } : {}),
    seq: exchange.seq,
    ...(exchange.batch !== undefined ? { batch: exchange.batch } : {}),
  };
}

/** The form of the message a wire variant sends (variant-kinds.ts WireForm), as the model reads it; undefined for the ordinary form. */
function formOf(exchange: Exchange): ModelRequest['form'] {
  const wire = exchange.variant ? VARIANT_KIND.get(exchange.variant.kind)?.wire : undefined;
  if (!wire) return undefined;
  if (wire.spellings) return 'path-spelling';
  if (wire.hostLines) return 'malformed-message';
  if (wire.authorizationTwice) return 'repeated-credential';
  return wire.absoluteForm ? 'absolute-form' : undefined;
}

/** The method an override header of the request names, as the model reads it (method-override.ts). */
function overrideOf(exchange: Exchange): { methodOverride?: string } {
  const named = exchange.request ? methodOverrideOf(exchange.request.headers) : undefined;
  return named === undefined ? {} : { methodOverride: named };
}

/** The run's facts before the first request: the given projects and tokens exist, the generated ids do not. */
export function knownBeforeRun(input: PlanInput, exchanges: readonly Exchange[]): RunState {
  const state = createRunState({ contract: input.contract, forbidden: input.forbidden });
  const environments = input.contract.operation(GET_PROJECT_ENVIRONMENTS);
  const deletion = input.contract.operation(DELETE_SERVICE_ACCOUNT_TOKEN);
  const at = (operation: typeof environments, ids: string[]) => ({ method: operation.method, path: pathOf(operation, ids.map(encodeId)) });
  // A near-miss that RFC 3986 makes the given id itself (a percent-encoded unreserved character) names what that id names: not absent.
  for (const e of exchanges) if (ABSENT_BY_CONSTRUCTION.has(e.step) && !e.expects.some(isSuccess)) state.declare(e, 'missing');
  state.declare(at(environments, [input.missingProject]), 'missing');
  state.declare(at(deletion, [input.missingAccount, input.missingToken]), 'missing');
  for (const project of input.projects) state.declare(at(environments, [project]), 'exists');
  for (const token of input.tokens) {
    state.declare(at(deletion, [token.account, token.token]), 'exists');
    state.declare(at(deletion, [token.account, input.missingToken]), 'missing');
  }
  return state;
}

/**
 * Every exchange of the plan judged by the model, in order: its verdicts by seq. The random
 * phase's exchanges are judged by that phase itself, with the same model, as sequences it can
 * shrink (check random-sequence-conformant): they are left out here.
 */
export function judgeWithModel(input: PlanInput, all: readonly Exchange[]): Map<number, Verdict[]> {
  // An OPTIONS is no operation of the spec: the variants and unlisted-method probes that send one are judged by their own rules (options-harmless, unlisted-method-rejected).
  // Nor is a server-wide request (OPTIONS *, CONNECT host:port): it names no resource of the operation it is filed under (rule request-target-forms).
  // Nor the method sequence's request in a method the path does not list (kind unlisted-before): it is there for the request after it;
  // what such a method may get (a web UI's page, 405, 404) is unlisted-method-rejected's, on its own probes.
  const exchanges = all.filter((e) => e.step !== 'random-step' && e.method.toUpperCase() !== 'OPTIONS' && !(e.variant && (VARIANT_KIND.get(e.variant.kind)?.serverWide || e.variant.kind === 'unlisted-before')));
  // A 304 the contract allows is judged as the 200 it stands for (spec decision conditional-requests), and so are a 206 and a 416
  // (spec decision range-requests); one it does not allow is judged as the undocumented status it is (range-requests says why).
  const judged = exchanges.map((e) => {
    const standsFor = notModifiedStandsFor(e, exchanges) ?? judgeRangeAnswer(e, exchanges)?.standsFor;
    return standsFor ? { ...e, response: standsFor } : e;
  });
  const verdicts = judgeRun(judged.map(toModelExchange), knownBeforeRun(input, exchanges));
  return new Map(exchanges.map((e, i) => [e.seq, verdicts[i] ?? []]));
}

/**
 * Its Host names this server otherwise than the base URL does: the keyless hostNames of key-elsewhere, and a host-spellings turn that
 * is no spelling of the base URL's own authority (`localhost` for `127.0.0.1`), which a strict allow-list may refuse as such.
 */
function namesAnotherHost(exchange: Exchange): boolean {
  const spec = exchange.variant ? VARIANT_KIND.get(exchange.variant.kind) : undefined;
  if (spec?.hostNames) return true;
  if (!spec?.hostSpellings) return false;
  const host = Object.entries(exchange.request?.headers ?? {}).find(([name]) => name.toLowerCase() === 'host')?.[1];
  try {
    return host !== undefined && !namesSameAuthority(host, new URL(exchange.request.url));
  } catch {
    return true;
  }
}
