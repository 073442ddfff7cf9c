import { passed, type Rule } from '../rule.ts';
import { variantClaim, variantsOf } from './variant-exchanges.ts';

/** Judged by the model: it claims its verdicts on the header variants (claimed by variantClaim). */
export const headersIgnored: Rule = {
  id: 'headers-ignored',
  severity: 'error',
  title: 'Headers the spec does not name change no answer',
  proves:
    "each operation, with every credential class, answers as it does to the suite's own request when the request has no Accept, curl's, fetch()'s or a browser's Accept (with Accept-Language, Accept-Encoding, User-Agent), no User-Agent or a real client's (okhttp, CFNetwork, Dart, Go-http-client, python-requests, a mobile browser; each where a 200 shows every member), an Accept generated clients send (problem+json or vnd.api+json beside JSON, q-values, `application/*`; errors meet them: the documented JSON still), `Expect: 100-continue` without content, the auth field name in lower, upper or mixed case, X-Requested-With, X-HTTP-Method-Override naming another method, a Content-Type on a request without content (text/plain, form-urlencoded, multipart, XML, JSON with a charset, JSON with Content-Length: 0) and no-cache, the request framed chunked with only the last chunk (with a chunk extension, or a trailer section) or with Content-Length: 0 (on raw sockets), or the cookies earlier answers set sent back; an empty Authorization value is no key (401), and nor is the full key in X-API-Key, Api-Key, X-Auth-Token, X-Access-Token, Proxy-Authorization, X-Authorization or Authentication, nor a Referer, Origin or Sec-Fetch-Site naming the server's own origin. A POST whose X-HTTP-Method-Override, X-HTTP-Method or X-Method-Override names the operation's method gets the POST's refusal or what that operation allows the key, never more; X-Original-URL, X-Rewrite-URL, X-Forwarded-Prefix and X-Forwarded-Path naming another operation's path change neither the operation that answers nor the permission; X-Forwarded-For chains (IPv6, ports), Forwarded and Accept-Language lists change nothing. None of them grants or removes a permission (spec decisions accept-negotiation, required-request-headers, key-in-header-only, bodyless-requests)",
  level: 'behaviour',
  // Whatever the model finds on a variant of this kind: the variant is the cause (issue 18).
  claims: [variantClaim('headers-ignored')],
  steps: ['variant'],
  judge: (exchanges) => variantsOf(exchanges, 'headers-ignored').filter((e) => e.response).map(passed),
};
