import { NOT_FOUND } from '../../http-status.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN } from '../../operation-ids.ts';
import type { PlannedRequest, SkippedStep, StepKind, TokenRef } from '../../types.ts';
import { encodeId, pathOf, successStatuses, type PlanInput } from './plan-input.ts';
import { NEEDS_ALLOW_DELETE, NEEDS_TOKEN, type ScenarioPlan } from './scenario-plan.ts';
import { allocateTokens } from './token-allocation.ts';

/** How many deletes of one token are sent at once: enough to overlap on a local server, few enough to stay gentle. */
export const CONCURRENT_DELETES = 8;
/** The batch of the deletes of different tokens sent at once, the concurrent deletes of one token among them (the overlap batch is 2). */
export const DELETES_AT_ONCE = 1;

/**
 * API §4.3 as a sequence: delete -> documented success, no body; the same again -> 404; an
 * unknown token -> 404; a token through another account's path -> 404 and then still
 * deletable through its own; concurrent deletes of one token -> exactly one success.
 */
export function tokenDeletionScenario(input: PlanInput): ScenarioPlan {
  const operation = input.contract.operation(DELETE_SERVICE_ACCOUNT_TOKEN);
  const success = successStatuses(operation);
  const { primary, cross, spare, extra } = allocateTokens(input.tokens);
  const requests: PlannedRequest[] = [];
  const skipped: SkippedStep[] = [];
  const base = { operationId: operation.operationId, method: operation.method, credential: 'full' as const };
  const at = (account: string, token: string) => pathOf(operation, [encodeId(account), encodeId(token)]);
  const skip = (step: StepKind, label: string, expects: readonly number[], reason: string) => skipped.push({ operationId: operation.operationId, step, label, expects, reason });
  const gate = (needs: TokenRef | undefined, missing: string): string | undefined => (!input.allowDelete ? NEEDS_ALLOW_DELETE : !needs ? missing : undefined);

  // Deletes of different tokens in flight at once (issue 18, overlap; spec decision requests-independent): the first token, one of another account, the cross-account token through its own account (the same account as the first) and the concurrent deletes of the spare, all in one batch, each judged as if alone, and the model checks afterwards that exactly those tokens are gone (delete-again, final-probe) and the others not (bystanders). State kept across an await in a shared variable (the ids, the account) shows as a wrong token deleted.
  const together: PlannedRequest[] = [];
  const after: PlannedRequest[] = [];
  const primaryWhy = gate(primary, NEEDS_TOKEN);
  const pair = primary ? extra.find((t) => t.account !== primary.account) : undefined;
  const alone = extra.filter((t) => t !== pair);
  // The connection (issue 18, spec decision requests-independent): a token deleted on a kept-alive connection is gone on that same connection, so a per-connection cache of lookups (a DataLoader or a Map kept per socket) shows only when the delete again goes on the connection that carried the delete. The tokens deleted alone each go so; with none, the first token does, its delete still in the batch (below).
  // Red team round fifteen (API §4.3: nothing makes one delete depend on another token's): the first token stays in the batch then, its
  // delete the batch's last request, the delete again after it on its connection while the others are in flight (run.ts, sendAtOnce), so
  // that the batch holds two tokens of one account whenever the given tokens can (the README's 1/1, 1/2 and 2/4: 1/1 and 1/2).
  const primaryChained = alone.length === 0;
  let chainedDelete: PlannedRequest | undefined;
  let connections = 0;
  if (primaryWhy || !primary) {
    skip('delete', 'delete a given token', success, primaryWhy ?? NEEDS_TOKEN);
    skip('delete-again', 'delete the same token again', [NOT_FOUND], primaryWhy ?? NEEDS_TOKEN);
    skip('unknown-token', 'delete an unknown token', [NOT_FOUND], primaryWhy ?? NEEDS_TOKEN);
  } else {
    const name = `${primary.account}/${primary.token}`;
    const primaryDelete: PlannedRequest = { ...base, step: 'delete', label: `delete token ${name}${primaryChained ? ', at once with the deletes of other tokens where there are any, then again on the same kept-alive connection' : pair ? `, at once with token ${pair.account}/${pair.token} of another account` : ''}`, path: at(primary.account, primary.token), expects: success, token: primary };
    const primaryAgain: PlannedRequest = { ...base, step: 'delete-again', label: `delete token ${name} again${primaryChained ? ' on the connection that carried its delete' : ''}`, path: at(primary.account, primary.token), expects: [NOT_FOUND], token: primary };
    if (!primaryChained) together.push(primaryDelete);
    if (pair) together.push({ ...base, step: 'delete', label: `delete token ${pair.account}/${pair.token}, at once with ${primaryChained ? 'the deletes of other tokens' : `token ${name} of another account`}`, path: at(pair.account, pair.token), expects: success, token: pair });
    if (primaryChained) {
      connections++;
      chainedDelete = { ...primaryDelete, connection: connections };
      after.push({ ...primaryAgain, connection: connections });
    } else after.push(primaryAgain);
    if (pair) after.push({ ...base, step: 'delete-again', label: `delete token ${pair.account}/${pair.token} again`, path: at(pair.account, pair.token), expects: [NOT_FOUND], token: pair });
    after.push({ ...base, step: 'unknown-token', label: `delete unknown token ${primary.account}/${input.missingToken}`, path: at(primary.account, input.missingToken), expects: [NOT_FOUND] });
    // Every other given token is used too: a defect may show on one account only. Its delete and delete again share one kept-alive connection (above).
    for (const token of alone) {
      const other = `${token.account}/${token.token}`;
      connections++;
      after.push({ ...base, step: 'delete', label: `delete token ${other}`, path: at(token.account, token.token), expects: success, token, connection: connections });
      after.push({ ...base, step: 'delete-again', label: `delete token ${other} again on the connection that carried its delete`, path: at(token.account, token.token), expects: [NOT_FOUND], token, connection: connections });
    }
  }

  const crossWhy = gate(cross?.token, 'needs --token for two service accounts: a token of one, deleted through the other');
  if (crossWhy || !cross) {
    skip('cross-account-delete', "delete a token through another account's path", [NOT_FOUND], crossWhy ?? NEEDS_TOKEN);
    skip('delete-after-cross', 'then delete it through its own account', success, crossWhy ?? NEEDS_TOKEN);
  } else {
    const { token, viaAccounts } = cross;
    // Before the batch: the token must still be there for its own account's delete in it.
    for (const viaAccount of viaAccounts) {
      requests.push({ ...base, step: 'cross-account-delete', label: `delete token ${token.account}/${token.token} through account ${viaAccount}`, path: at(viaAccount, token.token), expects: [NOT_FOUND], token });
    }
    together.push({ ...base, step: 'delete-after-cross', label: `delete token ${token.account}/${token.token} through its own account after that`, path: at(token.account, token.token), expects: success, token });
  }

  const spareWhy = gate(spare, 'needs a third disposable --token (one not used by the other deletion steps)');
  if (spareWhy || !spare) {
    skip('concurrent-delete', `${CONCURRENT_DELETES} concurrent deletes of one token`, success, spareWhy ?? NEEDS_TOKEN);
  } else {
    for (let i = 0; i < CONCURRENT_DELETES; i++) {
      together.push({
        ...base,
        step: 'concurrent-delete',
        label: `${CONCURRENT_DELETES} concurrent deletes of token ${spare.account}/${spare.token}`,
        path: at(spare.account, spare.token),
        expects: [...success, NOT_FOUND],
        token: spare,
      });
    }
  }
  if (chainedDelete) together.push(chainedDelete);
  requests.push(...(together.length > 1 ? together.map((r) => ({ ...r, batch: DELETES_AT_ONCE })) : together), ...after);
  return { requests, skipped };
}
