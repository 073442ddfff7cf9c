import { NOT_FOUND } from '../../http-status.ts';
import { RESOURCE_KINDS, failed, passed, statusList, type Rule, type Judgement } from '../rule.ts';
import { earlierStep, goneBeforeRun, goneOrDefect, succeeded } from '../token-history.ts';
import { siblingsDeleted } from './deletes-at-once-independent.ts';

export const crossAccountDeleteRejected: Rule = {
  id: 'cross-account-delete-rejected',
  severity: 'error',
  title: "A token is not deleted through another account's path",
  proves:
    'deleting a token through another account\'s path gets 404 and deletes nothing: the token is still deletable through its own account afterwards (API §4.3: a token is identified by both ids)',
  level: 'behaviour',
  claims: [{ kinds: RESOURCE_KINDS, steps: ['cross-account-delete'] }],
  steps: ['cross-account-delete', 'delete-after-cross'],
  judge: (exchanges, context) =>
    exchanges.flatMap((exchange): Judgement[] => {
      if (!exchange.response) return [];
      if (exchange.step === 'cross-account-delete') {
        if (exchange.expects.includes(exchange.response.status)) return [passed(exchange)];
        return [
          failed({
            exchange,
            message: `${exchange.label}: the token belongs to service account ${JSON.stringify(exchange.token?.account)}, so this account has no such token (API §4.3).`,
            expected: `status ${statusList(exchange.expects)}`,
            got: `status ${exchange.response.status}`,
          }),
        ];
      }
      const cross = earlierStep(context.all, exchange, 'cross-account-delete');
      // Only a cross request that claimed failure can have deleted silently; a success was reported above.
      if (!cross?.response || succeeded(cross)) return [];
      // Other answers to this follow-up are judged by the response checks; a 404 is the evidence here.
      if (exchange.response.status !== NOT_FOUND) return [passed(exchange)];
      // A server that cannot delete any token fails delete-token-succeeds; this step then proves nothing.
      const ownDelete = context.all.find((e) => e.step === 'delete' && e.response);
      if (ownDelete && !succeeded(ownDelete)) {
        return [{ operationId: exchange.operationId, verdict: 'not checked', reason: 'deleting a token through its own account did not succeed either (see delete-token-succeeds)' }];
      }
      // Sent at once with another token of its account that was deleted: a server that lets one delete depend on another answers so too (deletes-at-once-independent).
      const siblings = siblingsDeleted(exchange, context.all);
      const overlap = siblings.length > 0 ? ` It was sent at once with deletes of other tokens of the same account that succeeded (${siblings.join(', ')}): a server that lets one delete depend on another token's (a lock conflict read as not found) answers so too.` : '';
      return [
        failed({
          exchange,
          message: `${exchange.label}: answered 404 after the request through the other account answered ${cross.response.status}. ${goneOrDefect(exchange.token, 'that request removed the token although it answered as if nothing was deleted (API §4.3: a token is identified by both ids)')}${overlap}`,
          expected: `status ${statusList(exchange.expects)} (the token, untouched by the other account's path, is deleted now)`,
          got: `status ${exchange.response.status}`,
          alsoPossible: goneBeforeRun(exchange.token),
        }),
      ];
    }),
};
