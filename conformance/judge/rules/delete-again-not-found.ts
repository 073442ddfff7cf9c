import { judgeExpectedStatus, type Rule } from '../rule.ts';
import { earlierStep, succeeded } from '../token-history.ts';

export const deleteAgainNotFound: Rule = {
  id: 'delete-again-not-found',
  severity: 'error',
  title: 'A deleted token stays deleted: 404 the second time',
  proves:
    'the same delete again gets 404: the first one really removed the token',
  level: 'behaviour',
  claims: [{ kinds: ['resource-gone'] }],
  steps: ['delete-again'],
  judge: (exchanges, context) =>
    judgeExpectedStatus(
      exchanges,
      (exchange) => `${exchange.label}: the token was deleted by the previous request, so it no longer exists (API §4.3).`,
      (exchange) => (succeeded(earlierStep(context.all, exchange, 'delete')) ? undefined : 'the first delete did not succeed (see delete-token-succeeds)'),
    ),
};
