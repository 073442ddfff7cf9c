import { mentionsAnnotation, UNIQUE_BY } from '../model/spec-annotations.ts';
import { documented, ordinaryResponses, passed, type Check } from './check.ts';

/** Judged by the model (rule list-items-unique): this check is its category in the report. */
export const listItemsUnique: Check = {
  id: 'list-items-unique',
  severity: 'error',
  title: 'No two list items share their key',
  proves: `no list the spec keys (${UNIQUE_BY}, e.g. environments by name) holds two items with the same key, in any answer of the run`,
  level: 'response',
  // Only operations with a keyed list in a response: a run cut short lists it where a normal run judges it.
  appliesTo: (planned, contract) => [...contract.operation(planned.operationId).responses.values()].some((response) => mentionsAnnotation(response.schema, UNIQUE_BY)),
  judge: (exchanges, context) => ordinaryResponses(exchanges).flatMap((exchange) => (mentionsAnnotation(documented(context, exchange)?.response.schema, UNIQUE_BY) ? [passed(exchange)] : [])),
};
