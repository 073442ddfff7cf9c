import { passed, type Rule } from '../rule.ts';
import { variantClaim, variantsOf } from './variant-exchanges.ts';

/** Judged by the model (a 304 is no status it allows to these requests): it claims its verdicts on the conditional variants. */
export const conditionalAfterAuth: Rule = {
  id: 'conditional-after-auth',
  severity: 'error',
  title: 'Conditional requests: a 304 only where a 200 with that validator would be given',
  proves:
    'If-None-Match with a tag the server never gave, If-Modified-Since a date before any change, and conditional headers whose value is not valid (no HTTP-date, no entity tag: RFC 9110 §13.1.3, §13.1.4) get the answer the request gets without them; the ETag and Last-Modified the server gave earlier, and If-None-Match: *, get a 304 only where the same request without them, with the same key, got a 200 those validators match: never before auth (spec decision conditional-requests)',
  level: 'behaviour',
  // Whatever the model finds on a variant of this kind: the variant is the cause (issue 18).
  claims: [variantClaim('conditional-after-auth')],
  steps: ['variant'],
  judge: (exchanges) => variantsOf(exchanges, 'conditional-after-auth').filter((e) => e.response).map(passed),
};
