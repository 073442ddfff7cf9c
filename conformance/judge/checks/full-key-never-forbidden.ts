import { FORBIDDEN } from '../../http-status.ts';
import { failed, passed, type Check, type Judgement } from './check.ts';

export const fullKeyNeverForbidden: Check = {
  id: 'full-key-never-forbidden',
  severity: 'error',
  title: 'The full-access key is never refused with 403',
  proves: 'no request with the full-access key, odd ids and unlisted methods included, gets 403: a key with every permission lacks none (API §5), so 403 there is a wrong permission check',
  level: 'behaviour',
  judge: (exchanges) =>
    exchanges.flatMap((exchange): Judgement[] => {
      if (exchange.credential !== 'full' || exchange.keyVariant || !exchange.response) return [];
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
