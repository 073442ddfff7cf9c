import { instanceIds } from '../model/index.ts';
import { documented, ordinaryResponses, parsedBodyOf, passed, type Check } from './check.ts';

/** Judged by the model (rule error-id-unique): this check is its category in the report. */
export const errorIdsUnique: Check = {
  id: 'error-ids-unique',
  severity: 'error',
  title: 'Every error instance has its own id',
  proves: 'across the whole run, no two answers carry the same instance id (the error body\'s `id`, marked x-instance-id in the spec): an id names one error instance, so a log search for it finds one event',
  // Run-wide: each answer alone conforms; only the run shows the reuse, so coverage cells stay conformant.
  level: 'behaviour',
  judge: (exchanges, context) =>
    ordinaryResponses(exchanges).flatMap((exchange) => {
      const body = parsedBodyOf(exchange.response);
      const spec = documented(context, exchange);
      return body.ok && instanceIds(body.value, spec?.response.schema).length > 0 ? [passed(exchange)] : [];
    }),
};
