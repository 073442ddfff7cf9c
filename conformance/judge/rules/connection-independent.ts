import { failed, passed, type Rule } from '../rule.ts';
import { carriedBefore } from './variant-exchanges.ts';

/**
 * Spec decision requests-independent: an answer depends on its own request, never on what the
 * connection carried before. The invariance variants go in chains on kept-alive connections
 * (conformance/send/send-chain.ts); each must get exactly one well-formed answer. What the answer
 * says is the model's to judge (filed under the variant's own check, its message naming what
 * the connection carried before); this check owns the framing.
 */
export const connectionIndependent: Rule = {
  id: 'connection-independent',
  severity: 'error',
  title: 'Exactly one well-formed answer per request on a kept-alive connection',
  proves:
    'the invariance variants, sent one after another on kept-alive connections (after a valid key, a 401, a 404, a HEAD), each get exactly one well-formed HTTP/1.1 answer: no bytes beyond an answer\'s framing (a HEAD answered with a body), no answer cut short; a server may close the connection after any answer',
  level: 'behaviour',
  steps: ['variant'],
  judge: (exchanges, context) =>
    exchanges.map((exchange) => {
      if (exchange.transportError === undefined) return passed(exchange);
      // A CONNECT (kind authority-form, on a connection of its own) answered by closing: what node:http does without a 'connect' listener,
      // a refusal that RFC 9110 §9.3.6 leaves to an origin server (spec decision request-target-forms); only a server that hangs is judged.
      if (exchange.method === 'CONNECT' && !exchange.responseBegan && !exchange.timedOut) return passed(exchange);
      const before = carriedBefore(exchange, context.all);
      return failed({
        exchange,
        message: `${exchange.label}: ${exchange.transportError}${before ? `; the connection had just carried ${before}` : ''}.`,
        expected: 'exactly one well-formed HTTP/1.1 answer',
        got: exchange.transportError,
      });
    }),
};
