import { DELETE_SERVICE_ACCOUNT_TOKEN } from '../../operation-ids.ts';
import type { Credential, PlannedRequest } from '../../types.ts';
import { pathOf, type PlanInput } from '../scenarios/plan-input.ts';
import { harmlessPath } from '../scenarios/probe-path.ts';
import type { ScenarioPlan } from '../scenarios/scenario-plan.ts';
import { derivedDeleteIds } from './invariance-scenario.ts';
import { credentialName } from '../../credential-name.ts';

/** The batch number of the overlap scenario (the concurrent deletes use 1). */
const OVERLAP_BATCH = 2;

/**
 * Overlap (issue 18, spec decision requests-independent): every operation with every
 * credential class, all sent at once, each judged by the model as if alone. A role kept in a
 * shared variable, auth that fails open under load, a permission cached per operation instead of
 * per key, or error ids drawn before an await all show here; the errors answered at once must
 * carry ids of their own. The deletes go where the variants send them (derivedDeleteIds).
 */
export function overlapScenario(input: PlanInput): ScenarioPlan {
  const credentials: Credential[] = input.hasRestrictedKey ? ['full', 'restricted', 'none', 'invalid'] : ['full', 'none', 'invalid'];
  const requests: PlannedRequest[] = [];
  for (const credential of credentials) {
    for (const operation of input.contract.operations) {
      if (operation.authHeaders.length === 0) continue;
      const path = operation.operationId === DELETE_SERVICE_ACCOUNT_TOKEN ? pathOf(operation, derivedDeleteIds(operation, credential, input)) : harmlessPath(operation, input);
      requests.push({ operationId: operation.operationId, step: 'overlap', label: `${operation.operationId} ${credentialName(credential)}, sent at once with every operation and credential`, credential, method: operation.method, path, expects: [], batch: OVERLAP_BATCH });
    }
  }
  return { requests, skipped: [] };
}
