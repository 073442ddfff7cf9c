import { NOT_IMPLEMENTED } from '../../http-status.ts';
import { failed, passed, type Rule } from '../rule.ts';

export const notAServerError: Rule = {
  id: 'not-a-server-error',
  severity: 'error',
  title: 'No 5xx',
  proves:
    'no request of the suite, odd ids and unlisted methods included, makes the server fail with a 5xx (501 to a method the spec does not list on the path is a refusal: spec decision unlisted-methods)',
  level: 'response',
  claims: [{ kinds: ['server-error'] }],
  judge: (exchanges, context) =>
    exchanges.flatMap((exchange) => {
      if (!exchange.response) return [];
      if (exchange.response.status < 500) return [passed(exchange)];
      // Spec decision unlisted-methods: 501 to a method the spec does not list on the path is a refusal (RFC 9110 §9.1), no failure.
      if (exchange.response.status === NOT_IMPLEMENTED && context.contract.matchRoute(exchange.method, exchange.path.split('?')[0]!).kind === 'method-not-allowed') return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: the server answered ${exchange.response.status}; a request it cannot serve must get a 4xx, never a server error.`,
          expected: 'a status below 500',
          got: `status ${exchange.response.status}`,
        }),
      ];
    }),
};
