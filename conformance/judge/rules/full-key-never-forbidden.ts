import { FORBIDDEN } from '../../http-status.ts';
import { failed, passed, type Rule, type Judgement } from '../rule.ts';

export const fullKeyNeverForbidden: Rule = {
  id: 'full-key-never-forbidden',
  severity: 'error',
  title: 'The full-access key is never refused with 403',
  proves:
    "no request of an operation (its own method, or HEAD for a GET) with the full-access key gets 403, odd ids included: a key with every permission lacks none. An OPTIONS and a method the path does not list are no operation: decisions `options-requests` and `unlisted-methods` allow them a 403, with any key",
  level: 'behaviour',
  claims: [{ kinds: ['full-key-allowed'] }],
  judge: (exchanges, context) =>
    exchanges.flatMap((exchange): Judgement[] => {
      if (exchange.credential !== 'full' || exchange.keyVariant || !exchange.response) return [];
      // The permission is the operation's (API §5), so the rule is about the operation's own method. An OPTIONS (a CORS preflight
      // refused by an origin allow-list) and a method the path does not list are no operation: decisions options-requests and
      // unlisted-methods allow them 403 with any key or none, and options-harmless and unlisted-method-rejected judge them.
      if (!ownMethod(exchange.method, context.contract.operation(exchange.operationId).method)) return [];
      // A pipelined answer out of its place (the restricted key's 403 on the full key's request) is pipelined-answers-in-order's: the batch is the cause.
      if (exchange.variant?.pipelined) return [passed(exchange)];
      // A step that expects other statuses has its own check, which reports the 403 with more context.
      if (exchange.expects.length > 0 && !exchange.expects.includes(FORBIDDEN)) return exchange.response.status === FORBIDDEN ? [] : [passed(exchange)];
      if (exchange.response.status !== FORBIDDEN) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: refused with 403 although the key may do everything (--api-key is the full-access key); a key that lacks no permission is never forbidden (API §5).`,
          expected: 'any answer but 403 (404 or 405 for a resource or method that does not exist)',
          got: `status ${exchange.response.status}`,
        }),
      ];
    }),
};

/** The method token is case-sensitive (RFC 9110 §9.1); HEAD is GET without the content (RFC 9110 §9.3.2, decision head-requests). */
function ownMethod(sent: string, operation: string): boolean {
  return sent === operation || (sent === 'HEAD' && operation === 'GET');
}
