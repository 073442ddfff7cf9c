import type { SchemaViolation } from '../../../src/contract/schema-validator.ts';
import { escapePointerToken } from '../../../src/contract/json-pointer.ts';
import { documented, failed, ordinaryResponses, parsedBodyOf, passed, type Rule, type Judgement } from '../rule.ts';

/** The keywords by which a closed schema (contract `validateStrict`) rejects a property the spec does not list. */
const UNLISTED_PROPERTY_KEYWORDS = new Set(['unevaluatedProperties', 'additionalProperties']);

/**
 * The members a body holds that its closed schema (contract `validateStrict`) does not list: each one's name, JSON pointer
 * (RFC 6901) and the violation that names it. This rule reports them with --strict; secrets-follow-permissions reads past them.
 */
export function unlistedMembers(violations: readonly SchemaViolation[]): { name: string; pointer: string; violation: SchemaViolation }[] {
  return violations
    .filter((violation) => UNLISTED_PROPERTY_KEYWORDS.has(violation.keyword))
    .map((violation) => {
      const name = String(violation.params.unevaluatedProperty ?? violation.params.additionalProperty);
      return { name, pointer: `${violation.instancePointer}/${escapePointerToken(name)}`, violation };
    });
}

export const undocumentedProperties: Rule = {
  id: 'undocumented-properties',
  severity: 'error',
  title: 'No property the spec does not list (--strict)',
  proves:
    'with `--strict`, bodies hold only the properties the spec lists (off by default: the spec allows others)',
  level: 'response',
  judge: (exchanges, context) => {
    if (!context.strict) {
      return context.contract.operations.map((operation) => ({ operationId: operation.operationId, verdict: 'not checked', reason: 'needs --strict' }) as const);
    }
    return ordinaryResponses(exchanges).flatMap((exchange): Judgement[] => {
      const spec = documented(context, exchange);
      const body = parsedBodyOf(exchange.response);
      if (!spec?.response.schema || !body.ok) return [];
      // validate() accepts what a plain schema allows; only the closed schema's extra complaints are ours.
      const unlisted = unlistedMembers(spec.response.validateStrict(body.value));
      if (unlisted.length === 0) return [passed(exchange)];
      return unlisted.map(({ name, pointer, violation }) => {
        return failed({
          exchange,
          message: `${exchange.label}: ${violation.message}.`,
          expected: 'only the properties the spec lists',
          got: `property "${name}"`,
          schemaPointer: violation.schemaPointer,
          instancePointer: pointer,
        });
      });
    });
  },
};
