import { FORBIDDEN, NOT_FOUND } from '../../http-status.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import { harmlessPath } from './probe-path.ts';
import type { PlannedRequest, SkippedStep } from '../../types.ts';
import { encodeId, pathOf, successStatuses, type PlanInput } from './plan-input.ts';
import { repeatReads } from './repeat-reads.ts';
import { NEEDS_ALLOW_DELETE, NEEDS_BYSTANDER, type ScenarioPlan } from './scenario-plan.ts';
import { allocateTokens, deletedByRoles } from './token-allocation.ts';

/**
 * After a pause (--settle-ms): every token the run deleted is deleted once more and must still
 * be gone (a cache, a replica or a retry queue can undo a deletion that answered 200); then the
 * bystanders, untouched so far, are deleted and must still exist; then the reads once more (the
 * full key), and the restricted key once more on every read (credentialsAgain).
 */
export function endOfRunScenario(input: PlanInput): ScenarioPlan {
  const operation = input.contract.operation(DELETE_SERVICE_ACCOUNT_TOKEN);
  const allocation = allocateTokens(input.tokens);
  const requests: PlannedRequest[] = [];
  const skipped: SkippedStep[] = [];
  const base = { operationId: operation.operationId, method: operation.method, credential: 'full' as const };
  const at = (account: string, token: string) => pathOf(operation, [encodeId(account), encodeId(token)]);
  const bystander = { operationId: operation.operationId, step: 'bystander-delete' as const, label: 'delete the bystander tokens last', expects: successStatuses(operation) };
  if (!input.allowDelete) {
    skipped.push({ operationId: operation.operationId, step: 'final-probe', label: 'delete the deleted tokens again at the end', expects: [NOT_FOUND], reason: NEEDS_ALLOW_DELETE });
    skipped.push({ ...bystander, reason: NEEDS_ALLOW_DELETE });
  } else {
    if (allocation.bystanders.length === 0) skipped.push({ ...bystander, reason: NEEDS_BYSTANDER });
    for (const token of deletedByRoles(allocation)) {
      requests.push({ ...base, step: 'final-probe', label: `delete token ${token.account}/${token.token} once more after ${input.settleMs} ms (--settle-ms)`, path: at(token.account, token.token), expects: [NOT_FOUND], token });
    }
    for (const token of allocation.bystanders) {
      requests.push({ ...base, step: 'bystander-delete', label: `delete bystander token ${token.account}/${token.token}, untouched until now`, path: at(token.account, token.token), expects: successStatuses(operation), token });
    }
  }
  const reads = repeatReads(input, 'end');
  const all = [...requests, ...reads, ...credentialsAgain(input)];
  // The pause goes before the first request of the end, whatever it is.
  if (all[0]) all[0] = { ...all[0], pauseMs: input.settleMs };
  return { requests: all, skipped };
}

/**
 * Red team round nine: a delete changes its own token and nothing else, the keys included. A
 * delete that runs on the wrong table (revoking an API key) or rewrites a role shows only in later
 * auth answers: after the deletes the restricted key reads once more every read it is --forbidden
 * (every read when none is) and must get what it got before, 403 where --forbidden and the success
 * (or 403) elsewhere, never 401 (API §5). The full key's reads are the repeat reads just before.
 */
function credentialsAgain(input: PlanInput): PlannedRequest[] {
  if (!input.hasRestrictedKey) return [];
  const reads = input.contract.operations.filter((operation) => operation.method === 'GET' && operation.authHeaders.length > 0);
  // The reads it lacks the permission for (a revoked key gets 401 there, a widened one 200); every read when it lacks none.
  const lacking = reads.filter((operation) => input.forbidden.has(operation.operationId));
  return (lacking.length > 0 ? lacking : reads)
    .map((operation) => {
      const path = operation.operationId === GET_PROJECT_ENVIRONMENTS && input.projects[0] !== undefined ? pathOf(operation, [encodeId(input.projects[0])]) : harmlessPath(operation, input);
      const forbidden = input.forbidden.has(operation.operationId);
      const label = `${operation.operationId} with the restricted key once more after the deletes (${forbidden ? '--forbidden' : 'not --forbidden'})`;
      return forbidden
        ? { operationId: operation.operationId, method: operation.method, path, step: 'restricted-forbidden' as const, label, credential: 'restricted' as const, expects: [FORBIDDEN] }
        : { operationId: operation.operationId, method: operation.method, path, step: 'restricted-allowed' as const, label, credential: 'restricted' as const, expects: [...successStatuses(operation), FORBIDDEN] };
    });
}
