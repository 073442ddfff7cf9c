import { DELETE_SERVICE_ACCOUNT_TOKEN } from '../../operation-ids.ts';
import type { Credential, PlannedRequest } from '../../types.ts';
import { pathOf, type PlanInput } from '../scenarios/plan-input.ts';
import { harmlessPath } from '../scenarios/probe-path.ts';
import type { ScenarioPlan } from '../scenarios/scenario-plan.ts';
import { derivedDeleteIds } from './invariance-scenario.ts';
import { credentialName } from '../../credential-name.ts';
import { randomFor, type Random } from '../seeded-random.ts';
import { shuffled } from './invariance-scenario.ts';

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
  const random = randomFor(input.seed, 'overlap order');
  const operations = shuffled(input.contract.operations.filter((o) => o.authHeaders.length > 0), random);
  const requests: PlannedRequest[] = [];
  credentialOrders(credentials, operations.length, random).forEach((order, i) => {
    const operation = operations[i]!;
    for (const credential of order) {
      const path = operation.operationId === DELETE_SERVICE_ACCOUNT_TOKEN ? pathOf(operation, derivedDeleteIds(operation, credential, input)) : harmlessPath(operation, input);
      requests.push({ operationId: operation.operationId, step: 'overlap', label: `${operation.operationId} ${credentialName(credential)}, sent at once with every operation and credential (credentials in the order ${order.map(credentialClass).join(', ')})`, credential, method: operation.method, path, expects: [], batch: OVERLAP_BATCH });
    }
  });
  return { requests, skipped: [] };
}

/**
 * The order in which each operation's requests of the batch go out (red team round eight,
 * key-batch-results-unordered): a server that batches key lookups and hands the rows out by
 * position (a DataLoader over `WHERE key IN (…)`, rows in the table's order) mixes keys up only
 * when they arrive in another order than the store's, which is likely full, restricted, then
 * unknown. So the batch keeps several orders, seeded: the first operation sends every refused or
 * weaker credential ahead of the full key (none and invalid in a seeded order, then restricted),
 * the ones between an order drawn from the seed, the last the store's order, which ends on the
 * refused keys: what a role kept in a shared variable (the last one to arrive wins) hands the
 * full key's requests in flight.
 */
export function credentialOrders(credentials: readonly Credential[], groups: number, random: Random): Credential[][] {
  const others = credentials.filter((c) => c !== 'full');
  const refused = shuffled(others.filter((c) => c !== 'restricted'), random);
  const aheadOfFull = [...refused, ...others.filter((c) => c === 'restricted'), 'full' as const];
  const storeOrder = ['full' as const, ...others];
  return Array.from({ length: groups }, (_, i) => (i === 0 ? aheadOfFull : i === groups - 1 ? storeOrder : shuffled(credentials, random)));
}

const credentialClass = (credential: Credential): string => (credential === 'none' ? 'no key' : `${credential} key`);
