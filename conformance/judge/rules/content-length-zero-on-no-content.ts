import { failed, passed, type Rule } from '../rule.ts';
import { lowerCased } from '../variant-headers.ts';
import { isZero } from './content-length-allowed.ts';

/**
 * RFC 9110 §8.6: "A server MUST NOT send a Content-Length header field in any response with a status code of ... 204 (No Content)".
 * `Content-Length: 0` there is the common case, and it misleads no recipient: the number is the content's (none), and a 204 ends at
 * its head whatever it says (RFC 9112 §6.3 (1)). CORS middlewares write it on purpose on their preflight answers (Express's `cors`,
 * @fastify/cors and Prism 5.16 end a preflight with `Content-Length: 0` for old Safari), so a server built on them would be NOT
 * CONFORMANT for its middleware's habit: a warning. A 204 or 1xx with any other length, and a 304 whose length is not its 200's, do
 * mislead: content-length-allowed's errors.
 */
export const contentLengthZeroOnNoContent: Rule = {
  id: 'content-length-zero-on-no-content',
  severity: 'warning',
  title: 'No Content-Length: 0 on a 204',
  proves: 'no 204 the run saw carries `Content-Length: 0` (RFC 9110 §8.6: a server MUST NOT send Content-Length in a 204; this one misleads no recipient: a warning)',
  level: 'response',
  judge: (exchanges) =>
    exchanges.flatMap((exchange) => {
      if (exchange.response === undefined) return [];
      const length = lowerCased(exchange.response.headers)['content-length'];
      if (exchange.response.status !== 204 || length === undefined || !isZero(length)) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: the 204 answer carries Content-Length: ${length} (RFC 9110 §8.6: a server MUST NOT send Content-Length in a 204; it frames nothing, RFC 9112 §6.3, so no client is misled: CORS middlewares such as Express's cors write it on their preflight answers).`,
          expected: 'a 204 without Content-Length',
          got: `204 with Content-Length: ${length}`,
        }),
      ];
    }),
};
