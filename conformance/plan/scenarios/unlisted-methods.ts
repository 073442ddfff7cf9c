import type { PlannedRequest } from '../../types.ts';
import { missingValues } from './probe-path.ts';
import { pathOf, type PlanInput } from './plan-input.ts';
import type { ScenarioPlan } from './scenario-plan.ts';

/**
 * Methods probed where the spec lists none. HEAD and OPTIONS are left out: servers answer them
 * for any GET route (RFC 9110 §9.3.2) and for CORS preflights, legitimately.
 */
export const PROBED_METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'] as const;

/**
 * Sent with no body. On paths with ids, with the full key and ids that cannot exist, so nothing
 * can change. A path without ids (the OIDC settings) is a real resource that a backend may let
 * you update or reset with exactly these methods, so there the probes carry no key at all: a
 * sane server cannot change anything for them, and a 401 is a documented 4xx of the path.
 */
export function unlistedMethodsScenario(input: PlanInput): ScenarioPlan {
  const requests: PlannedRequest[] = [];
  const byPath = new Map<string, typeof input.contract.operations>();
  for (const operation of input.contract.operations) byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  for (const operations of byPath.values()) {
    const [operation] = operations;
    if (!operation) continue;
    const listed = new Set(operations.map((o) => o.method));
    const path = pathOf(operation, missingValues(operation, input));
    for (const method of PROBED_METHODS) {
      if (listed.has(method)) continue;
      const credential = operation.pathParams.length === 0 ? 'none' : 'full';
      requests.push({ operationId: operation.operationId, step: 'unlisted-method', label: `${method} ${operation.path} (not in the spec)`, credential, method, path, expects: [] });
    }
  }
  return { requests, skipped: [] };
}
