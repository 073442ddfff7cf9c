import { createRunState, judgeRun, type ModelExchange, type RunState, type Verdict } from './model/index.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_PROJECT_ENVIRONMENTS } from './operation-ids.ts';
import { encodeId, pathOf, type PlanInput } from './scenarios/plan-input.ts';
import type { Exchange, StepKind } from './types.ts';

/**
 * Steps whose ids were made not to exist (generated from the seed, near-misses of given ids that
 * collide with none, odd ids, a given token's id under another given account that was not given
 * a token of that id): what the run knows before it starts, stated to the model as facts. The
 * plan never says what the answer must be; the model derives it.
 */
const ABSENT_BY_CONSTRUCTION: ReadonlySet<StepKind> = new Set(['missing-project', 'unknown-token', 'near-miss-project', 'near-miss-token', 'near-miss-account', 'odd-id', 'cross-account-delete']);

/** The model's view of a planned exchange: a near-miss of the full key is an invalid key. */
export function toModelExchange(exchange: Exchange): ModelExchange & { batch?: number } {
  return {
    request: { method: exchange.method, path: exchange.path, credential: exchange.keyVariant ? 'invalid' : exchange.credential, principal: exchange.keyVariant ?? `${exchange.credential}${exchange.keyIndex ? `#${exchange.keyIndex}` : ''}` },
    ...(exchange.response ? { response: exchange.response } : {}),
    seq: exchange.seq,
    ...(exchange.batch !== undefined ? { batch: exchange.batch } : {}),
  };
}

/** The run's facts before the first request: the given projects and tokens exist, the generated ids do not. */
export function knownBeforeRun(input: PlanInput, exchanges: readonly Exchange[]): RunState {
  const state = createRunState({ contract: input.contract, forbidden: input.forbidden });
  const environments = input.contract.operation(GET_PROJECT_ENVIRONMENTS);
  const deletion = input.contract.operation(DELETE_SERVICE_ACCOUNT_TOKEN);
  const at = (operation: typeof environments, ids: string[]) => ({ method: operation.method, path: pathOf(operation, ids.map(encodeId)) });
  for (const e of exchanges) if (ABSENT_BY_CONSTRUCTION.has(e.step)) state.declare(e, 'missing');
  state.declare(at(environments, [input.missingProject]), 'missing');
  state.declare(at(deletion, [input.missingAccount, input.missingToken]), 'missing');
  for (const project of input.projects) state.declare(at(environments, [project]), 'exists');
  for (const token of input.tokens) {
    state.declare(at(deletion, [token.account, token.token]), 'exists');
    state.declare(at(deletion, [token.account, input.missingToken]), 'missing');
  }
  return state;
}

/** Every exchange of the run judged by the model, in order: its verdicts by seq. */
export function judgeWithModel(input: PlanInput, exchanges: readonly Exchange[]): Map<number, Verdict[]> {
  const verdicts = judgeRun(exchanges.map(toModelExchange), knownBeforeRun(input, exchanges));
  return new Map(exchanges.map((e, i) => [e.seq, verdicts[i] ?? []]));
}
