import { failed, passed, statusList, type Rule, type Judgement } from '../rule.ts';
import { NOT_FOUND } from '../../http-status.ts';
import { deletedEarlierBy, goneBeforeRun, goneOrDefect } from '../token-history.ts';
import { failedAtOnce } from './deletes-at-once-independent.ts';

export const deleteTokenSucceeds: Rule = {
  id: 'delete-token-succeeds',
  severity: 'error',
  title: 'Deleting a token: the documented success',
  proves:
    'deleting a given token through its own account gets the documented 200 (not 204)',
  level: 'behaviour',
  anotherClientMayExplain: true,
  claims: [
    { kinds: ['valid-key-accepted'], where: (e) => e.credential !== 'restricted' && e.method !== 'GET' },
    { kinds: ['resource-exists'], where: (e) => e.method !== 'GET' },
  ],
  steps: ['delete'],
  judge: (exchanges, context) =>
    exchanges.flatMap((exchange): Judgement[] => {
      if (!exchange.response) return [];
      if (exchange.expects.includes(exchange.response.status)) return [passed(exchange)];
      // Deleted at once with another token of its account and not deleted: deletes-at-once-independent's to report (one defect, one finding).
      if (failedAtOnce(exchange, context.all)) return [];
      const gone = deletedEarlierBy(context.all, exchange);
      if (gone) return [{ operationId: exchange.operationId, verdict: 'not checked', reason: gone }];
      return [
        failed({
          exchange,
          message:
            exchange.response.status === NOT_FOUND
              ? `${exchange.label}: answered 404. ${goneOrDefect(exchange.token, 'the server did not find or delete an existing token it must delete with the full key (API §4.3)', { all: context.all, exchange })}`
              : `${exchange.label}: deleting an existing token with the full key must succeed with the documented status (API §4.3).`,
          expected: `status ${statusList(exchange.expects)}`,
          got: `status ${exchange.response.status}`,
          ...(exchange.response.status === NOT_FOUND ? { alsoPossible: goneBeforeRun(exchange.token, { all: context.all, exchange }) } : {}),
        }),
      ];
    }),
};
