import { METHOD_NOT_ALLOWED, NOT_FOUND } from '../../http-status.ts';
import { unlistedMethodRefusals } from '../model/allowed-answers.ts';
import { failed, passed, type Rule, type Judgement } from '../rule.ts';
import { OPTIONS_STATUSES } from './options-harmless.ts';

export const unlistedMethodRejected: Rule = {
  id: 'unlisted-method-rejected',
  severity: 'warning',
  title: 'Methods the spec does not list get 404/405',
  // A warning: a backend may implement more than these three operations (e.g. an update of the
  // OIDC settings), which the spec neither forbids nor describes.
  proves:
    'GET, PUT, POST, PATCH, DELETE where the spec lists none, and on every path TRACE and another registered method (PROPFIND, SEARCH, LOCK, ...) without a key, and a method of the path spelled in another case (`get`, `Delete`: RFC 9110 §9.1) without a key, get 405, 404, 501 or a documented 4xx of the path, the case-spelled ones 400 too (spec decision unlisted-methods), and a 405 carries Allow naming the methods the spec lists there (RFC 9110 §15.5.6); a warning because a backend may implement more than these operations (a 2xx without a valid key is an auth failure, an error). With the full key on a token the run deletes later, HEAD, OPTIONS and the delete spelled in another case too (OPTIONS may get 200/204), and on the OIDC settings and a given project: none may delete the token or change the read, which the later delete and the read sent again after them show (errors there)',
  level: 'behaviour',
  claims: [{ kinds: ['method-refused'] }],
  steps: ['unlisted-method'],
  judge: (exchanges, context) =>
    exchanges.flatMap((exchange): Judgement[] => {
      const status = exchange.response?.status;
      if (status === undefined) return [];
      const operation = context.contract.operation(exchange.operationId);
      const samePath = context.contract.operations.filter((o) => o.path === operation.path);
      // The model's list of refusals (spec decision unlisted-methods), so that the two cannot drift apart.
      const refusals = unlistedMethodRefusals(exchange.method, samePath);
      // 501: what a server answers a method it does not implement (RFC 9110 §9.1); other 5xx are not-a-server-error's.
      if (status >= 500) return refusals.includes(status) ? [passed(exchange)] : [];
      // RFC 9110 §15.5.6: a 405 MUST name the methods the resource supports; a client cannot otherwise learn them. Those the spec lists must be among them.
      const missing = status === METHOD_NOT_ALLOWED ? missingFromAllow(exchange.response?.headers.allow, samePath.map((o) => o.method.toUpperCase())) : [];
      if (missing.length > 0) {
        return [
          failed({
            exchange,
            message: `${exchange.label}: a 405 must carry an Allow header naming the methods of the path (RFC 9110 §15.5.6); ${exchange.response?.headers.allow === undefined ? 'it has none' : `it lacks ${missing.join(', ')}`}.`,
            expected: `405 with Allow naming ${samePath.map((o) => o.method.toUpperCase()).join(', ')}`,
            got: exchange.response?.headers.allow === undefined ? '405 without Allow' : `Allow: ${exchange.response.headers.allow}`,
          }),
        ];
      }
      if (refusals.includes(status)) return [passed(exchange)];
      // Spec decision options-requests: an OPTIONS may also get 200/204 (the methods the path allows).
      if (exchange.method === 'OPTIONS' && OPTIONS_STATUSES.has(status)) return [passed(exchange)];
      // Without a valid key, a 2xx is an auth failure: the model's auth-required verdict, reported by the auth rules (an error).
      if ((exchange.credential === 'none' || exchange.credential === 'invalid') && status >= 200 && status < 300 && samePath.some((o) => o.authHeaders.length > 0)) return [];
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

/** The spec's methods of a path that an Allow header value (`GET, HEAD`; names are case-sensitive, RFC 9110 §9.1) does not name; all of them when it is absent. */
export function missingFromAllow(allow: string | undefined, listed: readonly string[]): string[] {
  const named = new Set((allow ?? '').split(',').map((m) => m.trim()));
  return listed.filter((method) => !named.has(method));
}
