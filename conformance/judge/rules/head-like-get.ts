import { failed, mediaTypeOf, passed, type Rule, type Judgement } from '../rule.ts';
import { variantClaim, variantsOf } from './variant-exchanges.ts';

/**
 * Spec decision head-requests (RFC 9110 §9.3.2): HEAD on a GET's path gets what the GET gets
 * (status, auth order, headers) without a body, or 405 with Allow. The status is the model's to
 * judge (it holds HEAD to the GET's allowed answers; its verdicts on HEAD variants are filed
 * here); this check adds what the status alone does not show: the GET's Content-Type. (A 405 without Allow
 * warns under unlisted-method-rejected's policy, not here.)
 */
export const headLikeGet: Rule = {
  id: 'head-like-get',
  severity: 'error',
  title: 'HEAD is answered as GET, without the body',
  proves:
    'a HEAD on the path of each operation, with every credential class, gets the status the GET would get (auth first: 401, 403 before 404), the Content-Type the GET got, no body (an answer that sends one spills into the next on the connection), or 405',
  level: 'behaviour',
  // Whatever the model finds on a variant of this kind: the variant is the cause (issue 18).
  claims: [variantClaim('head-like-get')],
  steps: ['variant'],
  judge: (exchanges, context) =>
    variantsOf(exchanges, 'head-like-get').flatMap((exchange): Judgement[] => {
      const response = exchange.response;
      if (!response) return [];
      const get = context.all.find((e) => e.method === 'GET' && e.path === exchange.path && e.credential === exchange.credential && !e.keyVariant && e.response?.status === response.status);
      const headType = mediaTypeOf(response.headers['content-type']);
      const getType = get?.response ? mediaTypeOf(get.response.headers['content-type']) : undefined;
      if (get && headType !== undefined && getType !== undefined && headType !== getType) {
        return [failed({ exchange, message: `${exchange.label}: Content-Type ${response.headers['content-type']}, where the same GET (request #${get.seq}) got ${get.response!.headers['content-type']}; HEAD's header fields are GET's (RFC 9110 §9.3.2).`, expected: `Content-Type ${getType}`, got: `Content-Type ${headType}` })];
      }
      return [passed(exchange)];
    }),
};
