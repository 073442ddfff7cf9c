import fc from 'fast-check';
import { isSuccess } from '../../http-status.ts';
import { knownBeforeRun, toModelExchange } from '../../judge/judge-with-model.ts';
import { judgeExchange, type Verdict } from '../../judge/model/index.ts';
import type { PlanInput } from '../scenarios/plan-input.ts';
import { randomFor } from '../seeded-random.ts';
import type { Sender } from '../../send/send.ts';
import type { Exchange, PlannedRequest, RandomFailure } from '../../types.ts';
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
  // What the plan taught the model (the given resources, what it deleted) is where the sequences start.
  const state = knownBeforeRun(plan, input.history);
  for (const exchange of input.history) state.observe(toModelExchange(exchange));

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
      const judged = toModelExchange(exchange);
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
