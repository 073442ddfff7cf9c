import { VARIANT_KIND } from '../../plan/variants/variant-kinds.ts';
import type { Exchange } from '../../types.ts';
import { failed, passed, type Judgement, type Rule } from '../rule.ts';

/** The request went out with HTTP/1.0 on its request line (a wire variant, variant-kinds.ts WireForm.version). */
const sentAsHttp10 = (exchange: Exchange) => exchange.variant !== undefined && VARIANT_KIND.get(exchange.variant.kind)?.wire?.version === '1.0';

/**
 * RFC 9110 §15.2: "A server MUST NOT send a 1xx response to an HTTP/1.0 client." An HTTP/1.0
 * client has no interim answers: it takes the 103 (or 100) for the answer and the real one for
 * bytes after it. The suite's HTTP/1.0 requests (kind http-1.0, every operation and credential
 * class) are read by the raw sender, which records the interim statuses before the final answer
 * (send-chain.ts). A 1xx to an HTTP/1.1 request is the server's to send, and not judged here.
 */
export const noInterimToHttpOneZero: Rule = {
  id: 'no-interim-to-http-one-zero',
  severity: 'error',
  title: 'No 1xx interim answer to an HTTP/1.0 request',
  proves: 'every HTTP/1.0 request the run sends (one per operation and credential class, kind http-1.0) gets its final answer with no 1xx interim answer before it, 103 Early Hints and 100 Continue included (RFC 9110 §15.2: a server MUST NOT send a 1xx response to an HTTP/1.0 client)',
  level: 'behaviour',
  steps: ['variant'],
  judge: (exchanges) =>
    exchanges.filter(sentAsHttp10).flatMap((exchange): Judgement[] => {
      const interim = exchange.response?.interim;
      if (!exchange.response) return [];
      if (!interim || interim.length === 0) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: the server sent ${interim.map((s) => `a ${s}`).join(', ')} interim answer${interim.length > 1 ? 's' : ''} before its ${exchange.response.status} to an HTTP/1.0 request, which an HTTP/1.0 client takes for the answer itself (RFC 9110 §15.2: a server MUST NOT send a 1xx response to an HTTP/1.0 client).`,
          expected: 'the final answer alone',
          got: `${interim.join(', ')} before ${exchange.response.status}`,
        }),
      ];
    }),
};
