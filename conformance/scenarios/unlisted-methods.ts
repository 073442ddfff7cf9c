import type { PlannedRequest, SkippedStep } from '../types.ts';
import { missingValues } from './probe-path.ts';
import { pathOf, type PlanInput } from './plan-input.ts';
import { NEEDS_ALLOW_DELETE, type ScenarioPlan } from './scenario-plan.ts';

/**
 * Methods probed where the spec lists none. HEAD and OPTIONS are left out: servers answer them
 * for any GET route (RFC 9110 §9.3.2) and for CORS preflights, legitimately.
 */
export const PROBED_METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'] as const;

/**
 * Sent with the full key and no body, on ids that cannot exist; a path without ids (the OIDC
 * settings) is a real resource, so an unlisted DELETE there waits for --allow-delete.
 */
export function unlistedMethodsScenario(input: PlanInput): ScenarioPlan {
  const requests: PlannedRequest[] = [];
  const skipped: SkippedStep[] = [];
  const byPath = new Map<string, typeof input.contract.operations>();
  for (const operation of input.contract.operations) byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  for (const operations of byPath.values()) {
    const [operation] = operations;
    if (!operation) continue;
    const listed = new Set(operations.map((o) => o.method));
    const path = pathOf(operation, missingValues(operation, input));
    for (const method of PROBED_METHODS) {
      if (listed.has(method)) continue;
      const planned: PlannedRequest = { operationId: operation.operationId, step: 'unlisted-method', label: `${method} ${operation.path} (not in the spec)`, credential: 'full', method, path, expects: [] };
      if (method === 'DELETE' && operation.pathParams.length === 0 && !input.allowDelete) {
        skipped.push({ operationId: planned.operationId, step: planned.step, label: planned.label, expects: [], reason: NEEDS_ALLOW_DELETE });
      } else {
        requests.push(planned);
      }
    }
  }
  return { requests, skipped };
}
