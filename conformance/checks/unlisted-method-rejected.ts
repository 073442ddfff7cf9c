import { METHOD_NOT_ALLOWED, NOT_FOUND, isCleanRefusal } from '../http-status.ts';
import { failed, passed, type Check, type Judgement } from './check.ts';

export const unlistedMethodRejected: Check = {
  id: 'unlisted-method-rejected',
  severity: 'warning',
  title: 'Methods the spec does not list get 404/405',
  // A warning: a backend may implement more than these three operations (e.g. an update of the
  // OIDC settings), which the spec neither forbids nor describes.
  proves: 'GET, PUT, POST, PATCH, DELETE where the spec lists no such operation get 405, 404 or a documented 4xx of the path (e.g. 401); HEAD and OPTIONS are not sent, servers answer them legitimately',
  level: 'behaviour',
  steps: ['unlisted-method'],
  judge: (exchanges, context) =>
    exchanges.flatMap((exchange): Judgement[] => {
      const status = exchange.response?.status;
      if (status === undefined || status >= 500) return [];
      const operation = context.contract.operation(exchange.operationId);
      const samePath = context.contract.operations.filter((o) => o.path === operation.path);
      if (isCleanRefusal(status, samePath)) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: the spec lists no ${exchange.method} on ${operation.path}, yet the server answered ${status}.`,
          expected: `${METHOD_NOT_ALLOWED}, ${NOT_FOUND} or a documented 4xx of the path`,
          got: `status ${status}`,
        }),
      ];
    }),
};
