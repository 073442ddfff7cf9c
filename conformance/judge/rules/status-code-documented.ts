import { toleratedRefusal } from '../model/index.ts';
import { documented, failed, ordinaryResponses, passed, type Rule } from '../rule.ts';

export const statusCodeDocumented: Rule = {
  id: 'status-code-documented',
  severity: 'error',
  title: 'The status is documented for the operation',
  proves:
    'every status the server answers is one the spec lists for that operation (exactly, or by a range such as `4XX`)',
  level: 'response',
  claims: [{ kinds: ['status-documented'] }],
  judge: (exchanges, context) =>
    ordinaryResponses(exchanges).flatMap((exchange) => {
      // A 5xx is owned by not-a-server-error: one defect, one finding.
      if (exchange.response.status >= 500) return [];
      if (documented(context, exchange)) return [passed(exchange)];
      // A near-miss id holding a control character (default%09) is malformed input: 400, 414, 431 are tolerated there (spec decision malformed-input-refusals).
      if (toleratedRefusal(context.contract, exchange.method, exchange.path, exchange.response.status)) return [passed(exchange)];
      const operation = context.contract.operation(exchange.operationId);
      const listed = [...operation.responses.keys()].sort();
      return [
        failed({
          exchange,
          message: `${exchange.label}: status ${exchange.response.status} is not documented for ${operation.operationId}.`,
          expected: `a documented status (${listed.join(', ')})`,
          got: `status ${exchange.response.status}`,
          schemaPointer: `${operation.pointer}/responses`,
        }),
      ];
    }),
};
