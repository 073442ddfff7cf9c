import { ContractError } from '../../../src/contract/index.ts';
import { RULES } from '../../judge/registry.ts';
import type { StepKind } from '../../types.ts';
import { SCENARIO_OPERATIONS } from '../../operation-ids.ts';
import { authScenario } from './auth.ts';
import { authOrderScenario } from './auth-order.ts';
import { nearMissScenario } from './near-misses.ts';
import { oddIdsScenario } from './odd-ids.ts';
import type { PlanInput } from './plan-input.ts';
import { endOfRunScenario } from './end-of-run.ts';
import { readsScenario } from './reads.ts';
import { repeatReads } from './repeat-reads.ts';
import type { ScenarioPlan } from './scenario-plan.ts';
import { tokenDeletionScenario } from './token-deletion.ts';
import { unlistedMethodsScenario } from './unlisted-methods.ts';
import { liveTokenMethodsScenario } from './live-token-methods.ts';
import { equivalentPathsScenario } from './equivalent-paths.ts';
import { permissionPerResourceScenario } from './permission-per-resource.ts';
import { invarianceScenario } from '../variants/invariance-scenario.ts';
import { overlapScenario } from '../variants/overlap-scenario.ts';

/**
 * Every request of a run, in the order it is sent. Reads come first (the first request also
 * tells whether the target is reachable), then auth (its restricted delete must find the token
 * still there) and its ordering, each restricted key on the resources those did not read it on, the near-misses of the user's key, project and token (before
 * the token is deleted), the methods the spec does not list at a token deleted later, the reads again (middle), the deletions, then after --settle-ms the
 * deleted tokens once more, the bystanders and the reads a last time (end), unlisted methods,
 * and odd ids last, so a server they crash has already been judged on everything else.
 */
export function buildPlan(input: PlanInput, switchedOff: ReadonlySet<string> = new Set()): ScenarioPlan {
  for (const operationId of SCENARIO_OPERATIONS) {
    if (!input.contract.operations.some((o) => o.operationId === operationId)) {
      throw new ContractError('SPEC_OPERATION_MISSING', { file: input.contract.specFile, pointer: '/paths', expected: `an operation with operationId ${operationId} (the conformance scenarios test it)` });
    }
  }
  const middle = (plan: PlanInput): ScenarioPlan => ({ requests: repeatReads(plan, 'middle'), skipped: [] });
  const first = [readsScenario, authScenario, equivalentPathsScenario, authOrderScenario].map((scenario) => scenario(input));
  // Each restricted key on the resources of an operation that the steps before did not read it on (permissions-per-operation).
  const perResource = permissionPerResourceScenario(input, first.flatMap((s) => s.requests));
  const rest = [invarianceScenario, overlapScenario, nearMissScenario, liveTokenMethodsScenario, middle, tokenDeletionScenario, endOfRunScenario, unlistedMethodsScenario, oddIdsScenario].map((scenario) => scenario(input));
  const scenarios = [...first, perResource, ...rest];
  return withoutSwitchedOff({ requests: scenarios.flatMap((s) => s.requests), skipped: scenarios.flatMap((s) => s.skipped) }, switchedOff);
}

/** Steps that only make sense after another one (the same token deleted before). */
const NEEDS_EARLIER: Partial<Record<StepKind, StepKind>> = { 'delete-again': 'delete', 'delete-after-cross': 'cross-account-delete', 'final-probe': 'delete' };

/**
 * `--skip-check ID` also drops the requests that only switched-off checks judge, so that a team
 * can step around a request that crashes its server; a step that needs a dropped one goes too.
 * The response checks judge every exchange and do not keep a request in the plan by themselves.
 */
function withoutSwitchedOff(plan: ScenarioPlan, switchedOff: ReadonlySet<string>): ScenarioPlan {
  if (switchedOff.size === 0) return plan;
  const dropped = new Map<StepKind, string>();
  const owners = (step: StepKind) => RULES.filter((c) => c.steps?.includes(step)).map((c) => c.id);
  for (const { step } of plan.requests) {
    const own = owners(step);
    if (own.length > 0 && own.every((id) => switchedOff.has(id))) dropped.set(step, `not sent: its check ${own.join(', ')} is switched off (--skip-check)`);
  }
  for (const [step, before] of Object.entries(NEEDS_EARLIER) as [StepKind, StepKind][]) {
    const why = dropped.get(before);
    if (why && !dropped.has(step)) dropped.set(step, `not sent: it needs the step "${before}", which was ${why.replace('not sent: ', 'dropped: ')}`);
  }
  return {
    requests: plan.requests.filter((r) => !dropped.has(r.step)),
    skipped: [...plan.skipped, ...plan.requests.filter((r) => dropped.has(r.step)).map(({ operationId, step, label, expects }) => ({ operationId, step, label, expects, reason: dropped.get(step)! }))],
  };
}
