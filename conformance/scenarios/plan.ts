import { ContractError } from '../../src/contract/index.ts';
import { SCENARIO_OPERATIONS } from '../operation-ids.ts';
import { authScenario } from './auth.ts';
import { oddIdsScenario } from './odd-ids.ts';
import type { PlanInput } from './plan-input.ts';
import { readsScenario } from './reads.ts';
import type { ScenarioPlan } from './scenario-plan.ts';
import { tokenDeletionScenario } from './token-deletion.ts';
import { unlistedMethodsScenario } from './unlisted-methods.ts';

/**
 * Every request of a run, in the order it is sent. Reads come first (the first request also
 * tells whether the target is reachable), then auth (its restricted delete must find the token
 * still there), the deletions, unlisted methods, and odd ids last, so a server they crash has
 * already been judged on everything else.
 */
export function buildPlan(input: PlanInput): ScenarioPlan {
  for (const operationId of SCENARIO_OPERATIONS) {
    if (!input.contract.operations.some((o) => o.operationId === operationId)) {
      throw new ContractError('SPEC_OPERATION_MISSING', { file: input.contract.specFile, pointer: '/paths', expected: `an operation with operationId ${operationId} (the conformance scenarios test it)` });
    }
  }
  const scenarios = [readsScenario, authScenario, tokenDeletionScenario, unlistedMethodsScenario, oddIdsScenario].map((scenario) => scenario(input));
  return { requests: scenarios.flatMap((s) => s.requests), skipped: scenarios.flatMap((s) => s.skipped) };
}
