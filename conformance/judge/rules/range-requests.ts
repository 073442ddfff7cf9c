import { failed, passed, type Judgement, type Rule } from '../rule.ts';
import { judgeRangeAnswer } from '../partial-content.ts';
import { variantClaim, variantsOf } from './variant-exchanges.ts';

/**
 * Spec decision range-requests (RFC 9110 §14): Range is an ordinary request header the spec does
 * not name. A read may ignore it or honour it; a 206 or 416 is judged here against the 200 the
 * same request without Range got (judge/partial-content.ts), and what else the model finds on a
 * Range variant (a refusal turned into a success, another status) is this rule's too.
 */
export const rangeRequests: Rule = {
  id: 'range-requests',
  severity: 'error',
  title: 'Range is ignored or honoured as RFC 9110 §14 says',
  proves:
    "a read with `Range: bytes=…` (one range, a suffix `-N`, an open `N-`, a suffix longer than the representation, several, none satisfiable), with a unit other than bytes, or with an If-Range that matches nothing gets the 200 it gets without Range, or a 206 whose Content-Range (each part's, in multipart/byteranges, never to a single range) names bytes of that 200's representation that the request asked for (each part begins and ends inside ranges asked: one of them, a part of one, or several coalesced) and carries exactly them, or a 416 to a bytes range none of whose ranges that representation has, with `Content-Range: bytes */length` when it sends one; a unit other than bytes and a failed If-Range are ignored, and a request without a key, with an invalid one, or with a key that lacks the permission gets the refusal it gets without Range (spec decision range-requests)",
  level: 'behaviour',
  // Whatever the model finds on a Range variant: the variant is the cause (issue 18).
  claims: [variantClaim('range-requests')],
  steps: ['variant'],
  // The Range variants go to the reads only (RFC 9110 §14.2: range handling is defined for GET alone).
  appliesTo: (planned, contract) => contract.operation(planned.operationId).method === 'GET',
  judge: (exchanges, context) =>
    variantsOf(exchanges, 'range-requests')
      .filter((e) => e.response)
      .map((exchange): Judgement => {
        const problem = judgeRangeAnswer(exchange, context.all)?.problem;
        if (problem === undefined) return passed(exchange);
        return failed({ exchange, message: `${exchange.label}: ${problem}.`, expected: 'the 200 the same request gets without Range, or a 206 or 416 as RFC 9110 §14 frames it', got: `status ${exchange.response!.status}${exchange.response!.headers['content-range'] === undefined ? ', no Content-Range' : `, Content-Range: ${exchange.response!.headers['content-range']}`}` });
      }),
};
