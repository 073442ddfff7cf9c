import { bodyExcerpt } from '../../report/redact.ts';
import { failed, parsedBodyOf, passed, type Rule } from '../rule.ts';

export const responseReceived: Rule = {
  id: 'response-received',
  severity: 'error',
  title: 'Every request gets an HTTP response',
  proves:
    'the server answers every request of the suite, odd ones included, completely within `--timeout` (connect to last byte) and within `--max-body`, instead of dropping the connection, hanging or flooding',
  level: 'behaviour',
  judgesTraffic: true,
  judge: (exchanges, context) =>
    exchanges.map((exchange) => {
      if (exchange.transportError === undefined) return passed(exchange);
      // On the kept-alive connections of the invariance variants, a broken answer is connection-independent's (it names what the connection carried before).
      if (exchange.variant) return passed(exchange);
      const { received } = exchange;
      return failed({
        exchange,
        // A response that began and then broke a limit is told apart from none at all (issue 13, item 9).
        message: exchange.responseBegan ? `${exchange.label}: the response broke off (${exchange.transportError}).` : `${exchange.label}: no HTTP response arrived (${exchange.transportError}).`,
        expected: 'a complete HTTP response',
        got: exchange.transportError,
        // What did arrive, as the report shows any response: status, Content-Type, the body so far.
        ...(received ? { response: { status: received.status, contentType: received.headers['content-type'], excerpt: bodyExcerpt(received.body, parsedBodyOf(received), context.excerpt) } } : {}),
      });
    }),
};
