import { FORBIDDEN, NOT_FOUND } from '../../http-status.ts';
import { GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import { decodedOrAsIs, type Operation } from '../../../src/contract/index.ts';
import type { PlannedRequest } from '../../types.ts';
import { encodeId, pathOf, successStatuses, type PlanInput } from './plan-input.ts';
import type { ScenarioPlan } from './scenario-plan.ts';

/**
 * Spec decision permissions-per-operation: a permission is per operation, the same on every
 * project and service account, so one key gets the same access verdict (403 or not) on every
 * resource of an operation, those that do not exist included (auth before the lookup). Each
 * restricted key is read on every resource the run knows: the given projects and the run's
 * missing project; the accounts of the given tokens and the run's missing account. The earlier
 * steps already send most of these (auth: the given projects, a real token of every account for
 * a --forbidden delete; auth-order: the missing ids of a --forbidden operation); this step sends
 * only the rest, so a server whose roles are per resource (a project-role lookup that finds none
 * on a project that does not exist, an ACL of one project) shows it in one request or two. The
 * model judges the answers against the key's earlier ones (verdict permission-consistent); the
 * full key needs none of this: it is never 403 (full-key-never-forbidden).
 *
 * The delete is read with the run's token id that cannot exist, so nothing real is deleted.
 */
export function permissionPerResourceScenario(input: PlanInput, earlier: readonly PlannedRequest[]): ScenarioPlan {
  if (!input.hasRestrictedKey) return { requests: [], skipped: [] };
  const requests: PlannedRequest[] = [];
  for (let keyIndex = 0; keyIndex < input.restrictedKeys; keyIndex++) {
    const which = input.restrictedKeys > 1 ? `restricted key ${keyIndex + 1}` : 'restricted key';
    for (const operation of input.contract.operations) {
      if (operation.authHeaders.length === 0 || operation.pathParams.length === 0) continue;
      const read = new Set(earlier.filter((r) => r.credential === 'restricted' && (r.keyIndex ?? 0) === keyIndex && r.operationId === operation.operationId && r.method === operation.method && !r.keyVariant).map((r) => scopeOf(operation, r.path)));
      const forbidden = input.forbidden.has(operation.operationId);
      for (const resource of knownResources(operation, input)) {
        const path = pathOf(operation, resource.values);
        if (read.has(scopeOf(operation, path))) continue;
        requests.push({
          operationId: operation.operationId,
          step: 'permission-per-resource',
          label: `${operation.operationId} with the ${which} on ${resource.what}${forbidden ? ' (--forbidden)' : ''}`,
          credential: 'restricted',
          ...(keyIndex > 0 ? { keyIndex } : {}),
          method: operation.method,
          path,
          // What the key's permission allows here; the model holds the key to the verdict its other answers on the operation gave.
          expects: forbidden ? [FORBIDDEN] : [...(resource.exists ? successStatuses(operation) : []), ...(operation.responses.has(String(NOT_FOUND)) ? [NOT_FOUND] : []), FORBIDDEN],
        });
      }
    }
  }
  return { requests, skipped: [] };
}

/**
 * The resource a permission could be scoped to, from a path of the operation: its ids but the
 * last when there are several (the account of a token; API §4.3 names the token by both), its one
 * id otherwise (the project). Decoded, so `%64efault` is `default` (RFC 3986 §6.2.2.2).
 */
function scopeOf(operation: Operation, path: string): string {
  const template = operation.path.split('/');
  const segments = path.split('?')[0]!.split('/');
  const ids = template.flatMap((part, i) => (/^\{.+\}$/.test(part) ? [segments[i] ?? ''] : []));
  const scope = ids.length > 1 ? ids.slice(0, -1) : ids;
  return scope.map(decodedOrAsIs).join('/');
}

/**
 * Every resource of the operation the run knows, as the path's values (percent-encoded): the
 * given projects and the missing one for the environments; for an operation whose last id names
 * an item in a container (a token in its service account), every given container and the missing
 * one, each with the item id that cannot exist.
 */
function knownResources(operation: Operation, input: PlanInput): { values: string[]; what: string; exists: boolean }[] {
  if (operation.operationId === GET_PROJECT_ENVIRONMENTS) {
    return [...input.projects.map((project) => ({ values: [encodeId(project)], what: `project ${JSON.stringify(project)}`, exists: true })), { values: [encodeId(input.missingProject)], what: `missing project ${JSON.stringify(input.missingProject)}`, exists: false }];
  }
  const containers = [...new Set(input.tokens.map((t) => t.account))];
  const item = encodeId(input.missingToken);
  const fill = (container: string) => operation.pathParams.map((_, i) => (i === operation.pathParams.length - 1 ? item : encodeId(container)));
  return [
    ...containers.map((account) => ({ values: fill(account), what: `account ${JSON.stringify(account)} (token ${JSON.stringify(input.missingToken)}, which cannot exist)`, exists: false })),
    { values: fill(input.missingAccount), what: `missing account ${JSON.stringify(input.missingAccount)}`, exists: false },
  ];
}
