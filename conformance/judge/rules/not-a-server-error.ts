import { failed, passed, type Rule } from '../rule.ts';

export const notAServerError: Rule = {
  id: 'not-a-server-error',
  severity: 'error',
  title: 'No 5xx',
  proves:
    'no request of the suite, odd ids and unlisted methods included, makes the server fail with a 5xx',
  level: 'response',
  claims: [{ kinds: ['server-error'] }],
  judge: (exchanges) =>
    exchanges.flatMap((exchange) => {
      if (!exchange.response) return [];
      if (exchange.response.status < 500) return [passed(exchange)];
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
