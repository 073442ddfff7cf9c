import { passed, type Rule } from '../rule.ts';
import { variantClaim, variantsOf } from './variant-exchanges.ts';

/**
 * Spec decision request-target-forms (red team round ten): the request target in absolute form
 * is the same resource (RFC 9112 §3.2.2), and a path spelled so that a router or a proxy may
 * read it as another (a backslash, a doubled slash, `/./`, a `;` parameter, an encoded slash or
 * backslash) is the operation with its auth or nothing. Judged by the model (formAnswers in
 * judge/model/allowed-answers.ts); this rule reports its verdicts on those variants.
 */
export const requestTargetForms: Rule = {
  id: 'request-target-forms',
  severity: 'error',
  title: 'Another form or spelling of the request target gets no more than the target itself',
  proves:
    'each operation answers a request target in absolute form (`GET http://host/path HTTP/1.1`) as it answers the origin form, auth first (or refuses the form with 400), and a path with one slash spelled as a backslash, a doubled slash, a `/./` segment, a `;` ending a segment, `%2F` or `%5C` gets the operation with its auth and permission, or a 400, 404 or redirect: never the operation without a valid key or past a permission the key lacks (RFC 9112 §3.2.2; spec decision request-target-forms)',
  level: 'behaviour',
  claims: [variantClaim('request-target-forms')],
  steps: ['variant'],
  judge: (exchanges) => variantsOf(exchanges, 'request-target-forms').filter((e) => e.response).map(passed),
};
