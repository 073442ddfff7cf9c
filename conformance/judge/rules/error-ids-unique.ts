import { instanceIds } from '../model/index.ts';
import { documented, ordinaryResponses, parsedBodyOf, passed, type Rule } from '../rule.ts';

/** Judged by the model (rule error-id-unique): this check is its category in the report. */
export const errorIdsUnique: Rule = {
  id: 'error-ids-unique',
  severity: 'error',
  title: 'Every error instance has its own id',
  proves:
    'across the whole run no two answers carry the same error instance id (`x-instance-id` in the spec)',
  // Run-wide: each answer alone conforms; only the run shows the reuse, so coverage cells stay conformant.
  level: 'behaviour',
  // It reads the `x-instance-id` values themselves.
  readsPerInstanceFields: true,
  claims: [{ kinds: ['error-id-unique'] }],
  judge: (exchanges, context) =>
    ordinaryResponses(exchanges).flatMap((exchange) => {
      const body = parsedBodyOf(exchange.response);
      const spec = documented(context, exchange);
      return body.ok && instanceIds(body.value, spec?.response.schema).length > 0 ? [passed(exchange)] : [];
    }),
};
