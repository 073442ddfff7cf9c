import type { JsonSchema } from '../../../src/contract/index.ts';
import { UNIQUE_BY } from '../model/spec-annotations.ts';
import { documented, ordinaryResponses, passed, type Rule } from '../rule.ts';

const keyed = new WeakMap<JsonSchema, boolean>();
/** Whether a response schema keys a list (x-unique-by) anywhere: read once per schema, not per answer. */
function keysAList(schema: JsonSchema | undefined): boolean {
  if (!schema) return false;
  let found = keyed.get(schema);
  if (found === undefined) keyed.set(schema, (found = JSON.stringify(schema).includes(UNIQUE_BY)));
  return found;
}

/** Judged by the model (verdicts of kind list-items-unique): this rule reports them. */
export const listItemsUnique: Rule = {
  id: 'list-items-unique',
  severity: 'error',
  title: 'No two list items share their key',
  proves: 'no list the spec keys (`x-unique-by`: environments by `name`) holds two items with the same key, in any answer',
  level: 'response',
  claims: [{ kinds: ['list-items-unique'] }],
  // Only operations with a keyed list in a response: a run cut short lists it where a normal run judges it.
  appliesTo: (planned, contract) => [...contract.operation(planned.operationId).responses.values()].some((response) => keysAList(response.schema)),
  judge: (exchanges, context) => ordinaryResponses(exchanges).flatMap((exchange) => (keysAList(documented(context, exchange)?.response.schema) ? [passed(exchange)] : [])),
};
