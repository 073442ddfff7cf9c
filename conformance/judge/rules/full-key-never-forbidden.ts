import { FORBIDDEN } from '../../http-status.ts';
import { failed, passed, type Rule, type Judgement } from '../rule.ts';

export const fullKeyNeverForbidden: Rule = {
  id: 'full-key-never-forbidden',
  severity: 'error',
  title: 'The full-access key is never refused with 403',
  proves:
    'no request with the full-access key gets 403, odd ids and unlisted methods included: a key with every permission lacks none',
  level: 'behaviour',
  claims: [{ kinds: ['full-key-allowed'] }],
  judge: (exchanges) =>
    exchanges.flatMap((exchange): Judgement[] => {
      if (exchange.credential !== 'full' || exchange.keyVariant || !exchange.response) return [];
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
