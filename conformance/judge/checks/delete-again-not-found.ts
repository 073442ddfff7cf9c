import { judgeExpectedStatus, type Check } from './check.ts';
import { earlierStep, succeeded } from './token-history.ts';

export const deleteAgainNotFound: Check = {
  id: 'delete-again-not-found',
  severity: 'error',
  title: 'A deleted token stays deleted: 404 the second time',
  proves: 'the same delete sent again gets 404: the first one really removed the token (Schemathesis calls the opposite use-after-free)',
  level: 'behaviour',
  steps: ['delete-again'],
  judge: (exchanges, context) =>
    judgeExpectedStatus(
      exchanges,
      (exchange) => `${exchange.label}: the token was deleted by the previous request, so it no longer exists (API §4.3).`,
      (exchange) => (succeeded(earlierStep(context.all, exchange, 'delete')) ? undefined : 'the first delete did not succeed (see delete-token-succeeds)'),
    ),
};
