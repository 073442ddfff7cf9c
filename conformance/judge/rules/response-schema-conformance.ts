import { valueAtPointer } from '../../report/redact.ts';
import { documented, failed, judgedBodies, MAX_JSON_DEPTH, parsedBodyOf, passed, type Rule, type Judgement } from '../rule.ts';
import { isErrorKindViolation } from './error-kind-conformance.ts';

export const responseSchemaConformance: Rule = {
  id: 'response-schema-conformance',
  severity: 'error',
  title: 'The body validates against the schema for its status',
  proves:
    'every described body is JSON and valid against the schema for its status: types, required fields, enums and formats; every Ajv violation with its schema and instance pointers. The answers to odd ids and unlisted methods too, when they come as JSON',
  level: 'response',
  // It validates every value, the per-instance ones among them.
  readsPerInstanceFields: true,
  claims: [{ kinds: ['body-schema'] }],
  judge: (exchanges, context) =>
    judgedBodies(exchanges).flatMap((exchange): Judgement[] => {
      const spec = documented(context, exchange);
      if (!spec?.response.schema) return [];
      const body = parsedBodyOf(exchange.response);
      if (!body.ok && body.depth !== undefined) {
        return [
          failed({
            exchange,
            message: `${exchange.label}: the ${exchange.response.status} body nests ${body.depth} levels deep; the suite parses bodies up to ${MAX_JSON_DEPTH} levels (the spec's schemas need a few) and judges this one no further.`,
            expected: `a JSON body valid against ${spec.response.schemaPointer}, nested at most ${MAX_JSON_DEPTH} levels`,
            got: `JSON nested ${body.depth} levels deep`,
            schemaPointer: spec.response.schemaPointer,
          }),
        ];
      }
      if (!body.ok) {
        return [
          failed({
            exchange,
            message: `${exchange.label}: the ${exchange.response.status} body is ${exchange.response.body === '' ? 'empty' : 'not JSON'}; the spec describes a JSON body.`,
            expected: `a JSON body valid against ${spec.response.schemaPointer}`,
            got: exchange.response.body === '' ? 'no body' : 'a body that is not JSON',
            schemaPointer: spec.response.schemaPointer,
          }),
        ];
      }
      // The error kind is reported by error-kind-conformance, which says more about it.
      const violations = spec.response.validate(body.value).filter((v) => !isErrorKindViolation(v, spec.response));
      if (violations.length === 0) return [passed(exchange)];
      return violations.map((violation) =>
        failed({
          exchange,
          message: `${exchange.label}: ${violation.message}.`,
          expected: violation.expected,
          got: violation.keyword === 'required' ? '(absent)' : valueAtPointer(body.value, violation.instancePointer, context.excerpt),
          schemaPointer: violation.schemaPointer,
          instancePointer: violation.instancePointer,
        }),
      );
    }),
};
