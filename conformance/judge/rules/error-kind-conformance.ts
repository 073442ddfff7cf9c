import { type ResponseContract, type SchemaViolation } from '../../../src/contract/index.ts';
import { valueAtPointer } from '../../report/redact.ts';
import { documented, failed, judgedBodies, parsedBodyOf, passed, type Rule } from '../rule.ts';

/** The violation of the `const` by which the spec fixes the error kind of a status (API §7). */
export function isErrorKindViolation(violation: SchemaViolation, response: ResponseContract): boolean {
  return response.errorKind !== undefined && violation.keyword === 'const' && violation.params.allowedValue === response.errorKind;
}

export const errorKindConformance: Rule = {
  id: 'error-kind-conformance',
  severity: 'error',
  title: 'An error names the kind the spec gives its status',
  proves:
    'each error body names the kind API §7 fixes for its status (`AuthenticationRequired` for 401, `NoAccessError` for 403, …), as read from the spec; JSON answers to the hostile probes included',
  level: 'response',
  claims: [{ kinds: ['error-kind'] }],
  judge: (exchanges, context) =>
    judgedBodies(exchanges).flatMap((exchange) => {
      const spec = documented(context, exchange);
      if (!spec?.response.errorKind) return [];
      const body = parsedBodyOf(exchange.response);
      // A body that is not JSON, or lacks the kind, is a schema violation: response-schema-conformance reports it.
      if (!body.ok) return [];
      const violation = spec.response.validate(body.value).find((v) => isErrorKindViolation(v, spec.response));
      if (!violation) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: a ${exchange.response.status} must name the error kind ${spec.response.errorKind}.`,
          expected: JSON.stringify(spec.response.errorKind),
          got: valueAtPointer(body.value, violation.instancePointer, context.excerpt),
          schemaPointer: violation.schemaPointer,
          instancePointer: violation.instancePointer,
        }),
      ];
    }),
};
