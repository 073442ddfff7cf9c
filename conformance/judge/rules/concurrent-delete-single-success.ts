import { NOT_FOUND, isSuccess } from '../../http-status.ts';
import { RESOURCE_KINDS, failed, passed, type Rule, type Judgement } from '../rule.ts';
import { deletedEarlierBy, goneBeforeRun, goneOrDefect } from '../token-history.ts';
import { failedAtOnce } from './deletes-at-once-independent.ts';

export const concurrentDeleteSingleSuccess: Rule = {
  id: 'concurrent-delete-single-success',
  severity: 'error',
  title: 'Concurrent deletes of one token: exactly one success',
  proves:
    'of 8 deletes of one token sent at once, exactly one succeeds',
  level: 'behaviour',
  claims: [{ kinds: RESOURCE_KINDS, steps: ['concurrent-delete'] }],
  steps: ['concurrent-delete'],
  judge: (exchanges, context): Judgement[] => {
    const answered = exchanges.filter((e) => e.response);
    const [first] = answered;
    if (!first) return [];
    const statuses = answered.map((e) => e.response!.status).sort((a, b) => a - b);
    const successes = statuses.filter(isSuccess).length;
    // Only the count of successes is this check's business; other statuses are judged by the response checks.
    if (successes === 1) return [passed(first)];
    // None succeeded while another token of the account was deleted at once: deletes-at-once-independent's (one defect, one finding).
    if (successes === 0 && failedAtOnce(first, context.all)) return [];
    // None may succeed when an earlier probe already deleted the token; two or more are wrong whatever happened before.
    const gone = successes === 0 ? deletedEarlierBy(context.all, first) : undefined;
    if (gone) return [{ operationId: first.operationId, verdict: 'not checked', reason: gone }];
    return [
      failed({
        // Which request of the batch won the race varies from run to run; the finding shows the sorted statuses instead.
        exchange: first,
        message:
          successes === 0
            ? `${answered.length} concurrent deletes of one token: none succeeded. ${goneOrDefect(first.token, 'the server did not delete an existing token', { all: context.all, exchange: first })}`
            : `${answered.length} concurrent deletes of one token: ${successes} succeeded; exactly one may (API §4.3), the others find no token (404).`,
        expected: `exactly one success, the other ${answered.length - 1} answered 404 (no such token)`,
        got: `statuses ${statuses.join(', ')}`,
        response: null,
        ...(statuses.every((s) => s === NOT_FOUND) ? { alsoPossible: goneBeforeRun(first.token, { all: context.all, exchange: first }) } : {}),
      }),
    ];
  },
};
