import { METHOD_NOT_ALLOWED, NOT_FOUND, isCleanRefusal, isClientError } from '../../http-status.ts';
import { toleratedRefusal } from '../model/allowed-answers.ts';
import { RESOURCE_KINDS, failed, passed, type Rule, type Judgement } from '../rule.ts';

export const oddIdRejected: Rule = {
  id: 'odd-id-rejected',
  severity: 'warning',
  title: 'Odd ids get a documented 4xx, 404 or 405',
  // A refusal the spec tolerates on malformed input (x-tolerated-refusals: 400, 414, 431; decision
  // malformed-input-refusals) passes, as status-code-documented lets it; another clean 4xx the
  // operation does not list is a plausible real implementation (DESIGN.md principle 7), so it
  // only warns. 5xx and dropped connections are errors of their own checks.
  proves:
    'ids that are 2048 characters long, hold `%2F`, Unicode, `%00` or malformed percent-encoding get a 4xx the operation documents, 404/405, or a refusal the spec tolerates on malformed input (400, 414, 431: decision malformed-input-refusals). Another clean 4xx is a plausible real implementation, so it only warns; a 5xx or a dropped connection is an error of the checks above',
  level: 'behaviour',
  claims: [{ kinds: RESOURCE_KINDS, steps: ['odd-id'] }],
  steps: ['odd-id'],
  judge: (exchanges, context) =>
    exchanges.flatMap((exchange): Judgement[] => {
      const status = exchange.response?.status;
      if (status === undefined || status >= 500) return [];
      const operation = context.contract.operation(exchange.operationId);
      if (isCleanRefusal(status, [operation]) || toleratedRefusal(context.contract, exchange.method, exchange.path, status)) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: isClientError(status)
            ? `${exchange.label}: refused with ${status}, which ${operation.operationId} does not document.`
            : `${exchange.label}: an id that cannot exist was answered ${status}.`,
          expected: `a documented 4xx (${[...operation.responses.keys()].filter((s) => s.startsWith('4')).join(', ')}), ${NOT_FOUND} or ${METHOD_NOT_ALLOWED}`,
          got: `status ${status}`,
        }),
      ];
    }),
};
