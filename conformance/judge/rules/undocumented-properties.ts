import { documented, failed, ordinaryResponses, parsedBodyOf, passed, type Rule, type Judgement } from '../rule.ts';

/** The keywords by which a closed schema (contract `validateStrict`) rejects a property the spec does not list. */
const UNLISTED_PROPERTY_KEYWORDS = new Set(['unevaluatedProperties', 'additionalProperties']);

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
      const unlisted = spec.response.validateStrict(body.value).filter((v) => UNLISTED_PROPERTY_KEYWORDS.has(v.keyword));
      if (unlisted.length === 0) return [passed(exchange)];
      return unlisted.map((violation) => {
        const name = String(violation.params.unevaluatedProperty ?? violation.params.additionalProperty);
        return failed({
          exchange,
          message: `${exchange.label}: ${violation.message}.`,
          expected: 'only the properties the spec lists',
          got: `property "${name}"`,
          schemaPointer: violation.schemaPointer,
          instancePointer: `${violation.instancePointer}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`,
        });
      });
    });
  },
};
