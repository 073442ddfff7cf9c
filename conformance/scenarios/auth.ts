import { FORBIDDEN, NOT_FOUND, UNAUTHORIZED } from '../http-status.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN } from '../operation-ids.ts';
import type { PlannedRequest, SkippedStep } from '../types.ts';
import { harmlessPath } from './probe-path.ts';
import { encodeId, pathOf, successStatuses, type PlanInput } from './plan-input.ts';
import { NEEDS_ALLOW_DELETE, NEEDS_RESTRICTED_KEY, NEEDS_TOKEN, type ScenarioPlan } from './scenario-plan.ts';
import { allocateTokens } from './token-allocation.ts';

/**
 * API §5: no or an invalid key -> 401 AuthenticationRequired on every operation; a valid key
 * without the permission -> 403 NoAccessError. The restricted key is tried on a real disposable
 * token for the delete, so a 404 cannot stand in for the 403.
 */
export function authScenario(input: PlanInput): ScenarioPlan {
  const requests: PlannedRequest[] = [];
  const skipped: SkippedStep[] = [];
  for (const operation of input.contract.operations) {
    if (operation.authHeaders.length === 0) continue;
    const base = { operationId: operation.operationId, method: operation.method, path: harmlessPath(operation, input) };
    const header = operation.authHeaders.join(' or ');
    requests.push({ ...base, step: 'no-credentials', label: `${operation.operationId} without ${header} header`, credential: 'none', expects: [UNAUTHORIZED] });
    requests.push({ ...base, step: 'invalid-key', label: `${operation.operationId} with an invalid key`, credential: 'invalid', expects: [UNAUTHORIZED] });

    if (input.forbidden.has(operation.operationId)) {
      const step = 'restricted-forbidden';
      const label = `${operation.operationId} with the restricted key (--forbidden)`;
      const expects = [FORBIDDEN];
      const reason = !input.hasRestrictedKey ? NEEDS_RESTRICTED_KEY : undefined;
      if (operation.operationId === DELETE_SERVICE_ACCOUNT_TOKEN) {
        const { primary } = allocateTokens(input.tokens);
        const why = reason ?? (!input.allowDelete ? NEEDS_ALLOW_DELETE : !primary ? NEEDS_TOKEN : undefined);
        if (why || !primary) skipped.push({ operationId: operation.operationId, step, label, expects, reason: why ?? NEEDS_TOKEN });
        else requests.push({ ...base, path: pathOf(operation, [encodeId(primary.account), encodeId(primary.token)]), step, label: `${label} on token ${primary.account}/${primary.token}`, credential: 'restricted', expects, token: primary });
      } else if (reason) {
        skipped.push({ operationId: operation.operationId, step, label, expects, reason });
      } else {
        requests.push({ ...base, step, label, credential: 'restricted', expects });
      }
    } else {
      const step = 'restricted-allowed';
      const label = `${operation.operationId} with the restricted key (not --forbidden)`;
      // The delete probe uses ids that cannot exist: its success is the 404 (API §4.3).
      const expects = [...successStatuses(operation), FORBIDDEN, ...(operation.operationId === DELETE_SERVICE_ACCOUNT_TOKEN ? [NOT_FOUND] : [])];
      if (!input.hasRestrictedKey) skipped.push({ operationId: operation.operationId, step, label, expects, reason: NEEDS_RESTRICTED_KEY });
      else requests.push({ ...base, step, label, credential: 'restricted', expects });
    }
  }
  return { requests, skipped };
}
