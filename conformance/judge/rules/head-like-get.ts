import { VARIANT_KIND } from '../../plan/variants/variant-kinds.ts';
import { METHOD_NOT_ALLOWED, isSuccess } from '../../http-status.ts';
import { failed, mediaTypeOf, passed, type Rule, type Judgement } from '../rule.ts';
import type { Exchange } from '../../types.ts';
import { missingFromAllow } from './unlisted-method-rejected.ts';
import { variantClaim, variantsOf } from './variant-exchanges.ts';

/**
 * Spec decision head-requests (RFC 9110 §9.3.2): HEAD on a GET's path gets what the GET gets
 * (status, auth order, headers) without a body, or 405 with Allow. The status is the model's to
 * judge (it holds HEAD to the GET's allowed answers; its verdicts on HEAD variants are filed
 * here); this check adds what the status alone does not show: the GET's Content-Type, and on a
 * GET's path a 405 only with an Allow that names GET (the decision's "405 with an Allow header";
 * RFC 9110 §15.5.6). HEAD on a path without a GET is the general unlisted-method case (a warning
 * under unlisted-method-rejected: the decision allows 405 or 404 there, Allow unnamed).
 */
export const headLikeGet: Rule = {
  id: 'head-like-get',
  severity: 'error',
  title: 'HEAD is answered as GET, without the body',
  proves:
    'a HEAD on the path of each operation, with every credential class, gets the status the GET would get (auth first: 401, 403 before 404), the Content-Type the GET got, under the same Accept-Encoding the Content-Encoding (if any) and a Content-Length (if any) of the GET (RFC 9110 §8.6, §9.3.2; one coded read and its HEAD per run), no body (an answer that sends one spills into the next on the connection), or 405 with an Allow header naming GET (spec decision head-requests)',
  level: 'behaviour',
  // Whatever the model finds on a variant of this kind: the variant is the cause (issue 18).
  claims: [variantClaim('head-like-get')],
  steps: ['variant'],
  judge: (exchanges, context) => {
    // The Allow of a path is one defect, whatever the credential: one finding per operation, on the full key's HEAD where there is one
    // (a refused key's HEAD repeats its GET's defect on a server that lets any key through, and is left out as that one: without-base-defects.ts).
    const variants = variantsOf(exchanges, 'head-like-get');
    const missingAllow = (exchange: Exchange): string[] => {
      const operation = context.contract.operation(exchange.operationId);
      if (exchange.response?.status !== METHOD_NOT_ALLOWED || operation.method !== 'GET') return [];
      return missingFromAllow(exchange.response.headers.allow, context.contract.operations.filter((o) => o.path === operation.path).map((o) => o.method.toUpperCase()));
    };
    const carriers = new Map<string, Exchange>();
    for (const e of [...variants.filter((v) => v.credential === 'full'), ...variants]) if (!carriers.has(e.operationId) && missingAllow(e).length > 0) carriers.set(e.operationId, e);
    return variants.flatMap((exchange): Judgement[] => {
      const response = exchange.response;
      if (!response) return [];
      const missing = missingAllow(exchange);
      if (missing.length > 0) {
        const allow = response.headers.allow;
        if (carriers.get(exchange.operationId) !== exchange) return [];
        return [failed({ exchange, message: `${exchange.label}: 405 ${allow === undefined ? 'without an Allow header' : `with Allow: ${allow}, which does not name ${missing.join(', ')}`}; a server that routes no HEAD on a GET's path may answer 405 only with an Allow header naming the methods of the path (spec decision head-requests, RFC 9110 §15.5.6).`, expected: `405 with Allow naming ${missing.join(', ')}, or what the GET gets`, got: allow === undefined ? '405 without Allow' : `Allow: ${allow}` })];
      }
      // The same GET's answers with the same status, in the run's order.
      // Not a GET sent in another form of the message (a wire variant: absolute form, spelled path, HTTP/1.0...): the same path, another request to a server.
      // Under the same Accept-Encoding (none for none): what the GET's content is depends on it (RFC 9110 §12.5.3), so a HEAD is compared with those GETs only.
      const coding = acceptEncodingOf(exchange);
      const gets = context.all.filter((e) => e.method === 'GET' && e.path === exchange.path && e.credential === exchange.credential && !e.keyVariant && e.response?.status === response.status && !(e.variant && VARIANT_KIND.get(e.variant.kind)?.wire) && acceptEncodingOf(e) === coding);
      const get = gets[0];
      const headType = mediaTypeOf(response.headers['content-type']);
      const getType = get?.response ? mediaTypeOf(get.response.headers['content-type']) : undefined;
      if (get && headType !== undefined && getType !== undefined && headType !== getType) {
        return [failed({ exchange, message: `${exchange.label}: Content-Type ${response.headers['content-type']}, where the same GET (request #${get.seq}) got ${get.response!.headers['content-type']}; HEAD's header fields are GET's (RFC 9110 §9.3.2).`, expected: `Content-Type ${getType}`, got: `Content-Type ${headType}` })];
      }
      // RFC 9110 §9.3.2: a HEAD answer's Content-Encoding, when it sends one, is the one the GET under the same Accept-Encoding got (red
      // team round fourteen: a compression step that skips HEAD). A HEAD that leaves it out is let be (§9.3.2: a field whose value is
      // determined only while generating the content MAY be omitted), unless its Content-Length then betrays the other content (below).
      const headCoding = codingOf(response.headers);
      const otherCoding = headCoding === '' || !isSuccess(response.status) ? undefined : gets.find((e) => codingOf(e.response!.headers) !== headCoding);
      if (otherCoding) {
        const got = codingOf(otherCoding.response!.headers) || 'identity (no Content-Encoding)';
        return [failed({ exchange, message: `${exchange.label}: Content-Encoding ${headCoding}, where the same GET under the same Accept-Encoding (request #${otherCoding.seq}) got ${got}; HEAD's header fields are GET's (RFC 9110 §9.3.2).`, expected: `Content-Encoding ${got}`, got: `Content-Encoding ${headCoding}` })];
      }
      // RFC 9110 §8.6: a Content-Length in a HEAD answer is the length the GET's content would have: a server MUST NOT send another. Compared
      // on a success only (an error body holds a fresh id), against every length the GETs under the same Accept-Encoding had, in whatever
      // coding they came (an answer that changes from read to read is answers-agree's finding, not this one's).
      const headLength = response.headers['content-length']?.trim();
      const getLengths = headLength === undefined || !isSuccess(response.status) ? [] : gets.flatMap((e) => {
              // The recorded body has its coding undone: a coded GET without Content-Length gives no length to compare.
              const length = e.response!.headers['content-length']?.trim();
              if (length !== undefined) return [length];
              return codingOf(e.response!.headers) === '' ? [String(Buffer.byteLength(e.response!.body))] : [];
            });
      if (getLengths.length > 0 && !getLengths.includes(headLength!)) {
        return [failed({ exchange, message: `${exchange.label}: Content-Length ${headLength}${headCoding === '' ? '' : ` (${headCoding})`}, where the same GET (request #${get!.seq}) got ${getLengths[0]} bytes${codingOf(get!.response!.headers) === '' ? '' : ` in ${codingOf(get!.response!.headers)}`}; a HEAD answer's Content-Length is the length the GET's content would have (RFC 9110 §8.6, §9.3.2).`, expected: `Content-Length ${[...new Set(getLengths)].join(' or ')} (or none)`, got: `Content-Length ${headLength}` })];
      }
      return [passed(exchange)];
    });
  },
};

/** The Accept-Encoding a request carried, as sent (undefined when none). */
function acceptEncodingOf(exchange: Exchange): string | undefined {
  return Object.entries(exchange.request?.headers ?? {}).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1];
}

/** The content codings an answer names, lower case, identity left out (RFC 9110 §8.4): '' for none. */
function codingOf(headers: Readonly<Record<string, string>>): string {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1] ?? '';
  return value.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity').join(', ');
}
