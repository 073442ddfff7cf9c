import { NOT_FOUND } from '../../http-status.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN } from '../../operation-ids.ts';
import type { PlannedRequest, SkippedStep } from '../../types.ts';
import { encodeId, pathOf, successStatuses, type PlanInput } from './plan-input.ts';
import { repeatReads } from './repeat-reads.ts';
import { NEEDS_ALLOW_DELETE, NEEDS_BYSTANDER, type ScenarioPlan } from './scenario-plan.ts';
import { allocateTokens, deletedByRoles } from './token-allocation.ts';

/**
 * After a pause (--settle-ms): every token the run deleted is deleted once more and must still
 * be gone (a cache, a replica or a retry queue can undo a deletion that answered 200); then the
 * bystanders, untouched so far, are deleted and must still exist; then the reads once more.
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
  const all = [...requests, ...reads];
  // The pause goes before the first request of the end, whatever it is.
  if (all[0]) all[0] = { ...all[0], pauseMs: input.settleMs };
  return { requests: all, skipped };
}
