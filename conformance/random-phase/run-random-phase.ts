import fc from 'fast-check';
import { isSuccess } from '../http-status.ts';
import { createRunState, judgeExchange, type ModelCredential, type ModelExchange, type RunState, type Verdict } from '../model/index.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_PROJECT_ENVIRONMENTS } from '../operation-ids.ts';
import { encodeId, pathOf, type PlanInput } from '../scenarios/plan-input.ts';
import { randomFor } from '../seeded-random.ts';
import type { Sender } from '../send.ts';
import type { Exchange, PlannedRequest, RandomFailure } from '../types.ts';
import { randomStepArbitraries, randomUniverse } from './random-steps.ts';

/** Steps per generated sequence at most: long enough for a defect that needs a few requests in a row, short enough to shrink. */
export const MAX_SEQUENCE_STEPS = 8;

export interface RandomPhaseInput {
  plan: PlanInput;
  sender: Sender;
  /** The run's printed seed (--seed): the same seed and target give the same sequences. */
  seed: string;
  /** --random-steps: requests sent while exploring; shrinking a failure may send as many again. */
  steps: number;
  /** Everything the run sent before, in order: what the target's state is now. */
  history: readonly Exchange[];
  /** Renders a request as a curl line (keys as shell variables). */
  curl: (exchange: Exchange) => string;
}

export interface RandomPhaseResult {
  exchanges: Exchange[];
  /** How many sequences were tried, shrinking included. */
  sequences: number;
}

interface PhaseModel {
  attempt: Exchange[];
}

class SequenceBroken extends Error {
  readonly verdicts: Verdict[];
  constructor(verdicts: Verdict[]) {
    super(verdicts.map((v) => v.message).join(' '));
    this.verdicts = verdicts;
  }
}

/**
 * The seeded stateful phase (`--random-steps N`): random sequences over the given resources and
 * keys (fast-check's model-based testing), every exchange judged by the contract model against
 * what the run has seen, the plan's exchanges included. The first sequence that breaks the
 * contract is shrunk to the shortest one that still breaks it; since a real target cannot be
 * reset, the shrinking replays on the target as it is by then, and the report also lists the
 * deletions that had succeeded before (the state the sequence needs). Deletes only given tokens.
 */
export async function runRandomPhase(input: RandomPhaseInput): Promise<RandomPhaseResult> {
  const { plan, sender } = input;
  const state = createRunState({ contract: plan.contract, forbidden: plan.hasRestrictedKey ? plan.forbidden : [] });
  declareGiven(state, plan);
  for (const exchange of input.history) state.observe(modelExchange(exchange));

  const exchanges: Exchange[] = [];
  const attempts: Exchange[][] = [];
  let exploring = input.steps;
  let shrinking = input.steps;
  let failing: { attempt: Exchange[]; verdicts: Verdict[]; before: number } | undefined;
  let firstLength = 0;

  class Step implements fc.AsyncCommand<PhaseModel, Sender> {
    readonly planned: PlannedRequest;
    constructor(planned: PlannedRequest) {
      this.planned = planned;
    }
    check = () => (failing ? shrinking : exploring) > 0;
    async run(model: PhaseModel, real: Sender): Promise<void> {
      if (failing) shrinking--;
      else exploring--;
      const exchange = await real.send(this.planned, input.history.length + exchanges.length);
      exchanges.push(exchange);
      model.attempt.push(exchange);
      const judged = modelExchange(exchange);
      const verdicts = judgeExchange(judged, state);
      state.observe(judged);
      if (verdicts.length > 0) {
        if (!failing) firstLength = model.attempt.length;
        failing = { attempt: model.attempt, verdicts, before: input.history.length + exchanges.length - model.attempt.length };
        throw new SequenceBroken(verdicts);
      }
    }
    toString = () => `${this.planned.method} ${this.planned.path} ${this.planned.credential}`;
  }

  const property = fc.asyncProperty(fc.commands(randomStepArbitraries(plan, randomUniverse(plan)).map((a) => a.map((p) => new Step(p))), { maxCommands: MAX_SEQUENCE_STEPS }), async (commands) => {
    const attempt: Exchange[] = [];
    attempts.push(attempt);
    await fc.asyncModelRun(() => ({ model: { attempt }, real: sender }), commands);
  });
  const fastCheckSeed = Math.floor(randomFor(input.seed, 'random-phase')() * 0x7fffffff);
  // Enough runs to spend the budget (sequences average half their maximum length); skipped steps cost nothing.
  await fc.check(property, { seed: fastCheckSeed, numRuns: Math.max(1, Math.ceil((2 * input.steps) / MAX_SEQUENCE_STEPS)) });

  if (failing) {
    const last = failing.attempt.at(-1)!;
    const before = [...input.history, ...exchanges].filter((e) => e.seq < failing!.before);
    last.randomFailure = failureOf(failing.verdicts, failing.attempt, before, firstLength, input);
  }
  return { exchanges, sequences: attempts.length };
}

function failureOf(verdicts: Verdict[], sequence: Exchange[], before: Exchange[], firstLength: number, input: RandomPhaseInput): RandomFailure {
  // The state the sequence ran on: every deletion that had succeeded before it.
  const setup = before.filter((e) => e.method === 'DELETE' && e.response !== undefined && isSuccess(e.response.status));
  return {
    seed: input.seed,
    verdicts: verdicts.map(({ contradicts: _, ...verdict }) => verdict),
    sequence: sequence.map(input.curl),
    setup: setup.map(input.curl),
    firstLength,
  };
}

/** The given resources exist, the generated ones do not (before anything is sent). */
function declareGiven(state: RunState, plan: PlanInput): void {
  const environments = plan.contract.operation(GET_PROJECT_ENVIRONMENTS);
  const deletion = plan.contract.operation(DELETE_SERVICE_ACCOUNT_TOKEN);
  state.declare({ method: environments.method, path: pathOf(environments, [encodeId(plan.project)]) }, 'exists');
  state.declare({ method: environments.method, path: pathOf(environments, [encodeId(plan.missingProject)]) }, 'missing');
  for (const token of plan.tokens) {
    state.declare({ method: deletion.method, path: pathOf(deletion, [encodeId(token.account), encodeId(token.token)]) }, 'exists');
    state.declare({ method: deletion.method, path: pathOf(deletion, [encodeId(token.account), encodeId(plan.missingToken)]) }, 'missing');
  }
}

/** An exchange as the model sees it: a near-miss of a key is no valid credential. */
function modelExchange(exchange: Exchange): ModelExchange {
  const credential: ModelCredential = exchange.keyVariant ? (exchange.keyVariant.placement.in === 'header' ? 'invalid' : 'none') : exchange.credential;
  return { request: { method: exchange.method, path: exchange.path, credential }, ...(exchange.response ? { response: exchange.response } : {}), seq: exchange.seq };
}
