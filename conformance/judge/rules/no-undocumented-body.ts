import { responseFor } from '../../../src/contract/index.ts';
import { bodyExcerpt } from '../../report/redact.ts';
import { documented, failed, ordinaryResponses, parsedBodyOf, passed, type Rule } from '../rule.ts';

export const noUndocumentedBody: Rule = {
  id: 'no-undocumented-body',
  severity: 'error',
  title: 'No body where the spec describes none',
  proves:
    'a status the spec gives no body (the 200 of a token deletion, API §4.3) comes with an empty body',
  level: 'response',
  claims: [{ kinds: ['no-body'] }],
  appliesTo: (planned, contract) => planned.expects.some((status) => responseFor(contract.operation(planned.operationId), status)?.mediaType === undefined && responseFor(contract.operation(planned.operationId), status) !== undefined),
  judge: (exchanges, context) =>
    ordinaryResponses(exchanges).flatMap((exchange) => {
      const spec = documented(context, exchange);
      if (!spec || spec.response.mediaType !== undefined) return [];
      if (exchange.response.body === '') return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: the spec describes no body for a ${exchange.response.status}, but ${exchange.response.body.length} bytes came back.`,
          expected: 'an empty body',
          got: bodyExcerpt(exchange.response.body, parsedBodyOf(exchange.response), { ...context.excerpt, limit: 200 }),
          schemaPointer: `${spec.operation.pointer}/responses/${spec.response.status}`,
        }),
      ];
    }),
};
