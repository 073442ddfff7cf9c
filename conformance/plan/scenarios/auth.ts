import { FORBIDDEN, METHOD_NOT_ALLOWED, NOT_FOUND, UNAUTHORIZED } from '../../http-status.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import type { PlannedRequest, SkippedStep } from '../../types.ts';
import { harmlessPath } from './probe-path.ts';
import { encodeId, pathOf, successStatuses, type PlanInput } from './plan-input.ts';
import { NEEDS_ALLOW_DELETE, NEEDS_RESTRICTED_KEY, NEEDS_TOKEN, type ScenarioPlan } from './scenario-plan.ts';
import { allocateTokens } from './token-allocation.ts';

/** What a request without a key may get on a path spelled with a trailing slash: the operation's 401, or the router's refusal or redirect. */
const TRAILING_SLASH_ANSWERS = [UNAUTHORIZED, NOT_FOUND, METHOD_NOT_ALLOWED, 301, 308];

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
    // Spec decision trailing-slash: the path with one more slash is the operation (then 401 here) or nothing (404, 405, a redirect to the path without it); an answer past auth is a second door.
    requests.push({ ...base, path: `${base.path}/`, step: 'trailing-slash', label: `${operation.operationId} without ${header} header, the path with a trailing slash`, credential: 'none', expects: TRAILING_SLASH_ANSWERS });
    requests.push({ ...base, step: 'invalid-key', label: `${operation.operationId} with an invalid key`, credential: 'invalid', expects: [UNAUTHORIZED] });

    // Every restricted key on every operation (keys of different accounts may differ: spec decision on permissions).
    const keys = input.hasRestrictedKey ? Array.from({ length: input.restrictedKeys }, (_, i) => i) : [0];
    for (const keyIndex of keys) {
      const which = input.restrictedKeys > 1 ? `restricted key ${keyIndex + 1}` : 'restricted key';
      const withKey = keyIndex > 0 ? { keyIndex } : {};
      if (input.forbidden.has(operation.operationId)) {
        const step = 'restricted-forbidden';
        const label = `${operation.operationId} with the ${which} (--forbidden)`;
        const expects = [FORBIDDEN];
        const reason = !input.hasRestrictedKey ? NEEDS_RESTRICTED_KEY : undefined;
        if (operation.operationId === DELETE_SERVICE_ACCOUNT_TOKEN) {
          // On a real token of every account, so a 404 cannot stand in for the 403 and an account-scoped permission check shows.
          const { restrictedTargets } = allocateTokens(input.tokens);
          const why = reason ?? (!input.allowDelete ? NEEDS_ALLOW_DELETE : restrictedTargets.length === 0 ? NEEDS_TOKEN : undefined);
          if (why) skipped.push({ operationId: operation.operationId, step, label, expects, reason: why });
          else for (const target of restrictedTargets) requests.push({ ...base, ...withKey, path: pathOf(operation, [encodeId(target.account), encodeId(target.token)]), step, label: `${label} on token ${target.account}/${target.token}`, credential: 'restricted', expects, token: target });
        } else if (reason) {
          skipped.push({ operationId: operation.operationId, step, label, expects, reason });
        } else {
          requests.push({ ...base, ...withKey, step, label, credential: 'restricted', expects });
        }
      } else {
        const step = 'restricted-allowed';
        const label = `${operation.operationId} with the ${which} (not --forbidden)`;
        // The delete probe uses ids that cannot exist: its success is the 404 (API §4.3).
        const expects = [...successStatuses(operation), FORBIDDEN, ...(operation.operationId === DELETE_SERVICE_ACCOUNT_TOKEN ? [NOT_FOUND] : [])];
        if (!input.hasRestrictedKey) skipped.push({ operationId: operation.operationId, step, label, expects, reason: NEEDS_RESTRICTED_KEY });
        else if (operation.operationId === GET_PROJECT_ENVIRONMENTS) {
          for (const project of input.projects) requests.push({ ...base, ...withKey, path: pathOf(operation, [encodeId(project)]), step, label: `${label} on project ${JSON.stringify(project)}`, credential: 'restricted', expects });
        } else requests.push({ ...base, ...withKey, step, label, credential: 'restricted', expects });
      }
    }
  }
  return { requests, skipped };
}
