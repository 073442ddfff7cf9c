import { UNIQUE_BY } from '../model/spec-annotations.ts';
import { documented, ordinaryResponses, passed, type Rule } from '../rule.ts';

/** Judged by the model (rule list-items-unique): this check is its category in the report. */
export const listItemsUnique: Rule = {
  id: 'list-items-unique',
  severity: 'error',
  title: 'No two list items share their key',
  proves:
    'no list the spec keys (`x-unique-by`: environments by `name`) holds two items with the same key, in any answer',
  level: 'response',
  claims: [{ kinds: ['list-items-unique'] }],
  // Only operations with a keyed list in a response: a run cut short lists it where a normal run judges it.
  appliesTo: (planned, contract) => [...contract.operation(planned.operationId).responses.values()].some((response) => response.schema !== undefined && JSON.stringify(response.schema).includes(UNIQUE_BY)),
  judge: (exchanges, context) =>
    ordinaryResponses(exchanges).flatMap((exchange) => (documented(context, exchange)?.response.schema && JSON.stringify(documented(context, exchange)!.response.schema).includes(UNIQUE_BY) ? [passed(exchange)] : [])),
};
