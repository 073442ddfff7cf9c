import { passed, type Rule } from '../rule.ts';
import { variantClaim, variantsOf } from './variant-exchanges.ts';

/**
 * Spec decision malformed-requests (red team round ten): an HTTP/1.1 request without Host gets
 * 400 (RFC 9112 §3.2: a server MUST), and two Authorization lines are one list of values (RFC
 * 9110 §5.3), no key: an invalid key then the full key is refused. Judged by the
 * model (formAnswers in judge/model/allowed-answers.ts); this rule reports its verdicts.
 */
export const malformedRequestsRefused: Rule = {
  id: 'malformed-requests-refused',
  // An error: both are MUSTs (RFC 9112 §3.2; the list of RFC 9110 §5.3 is no credential, decision malformed-requests). The conformant
  // node:net targets of red team rounds seven to nine broke them and were corrected (their BASELINE.md); node:http and the real Unleash
  // (Express) answer 400 without Host and keep the first of two Authorization lines.
  severity: 'error',
  title: 'A request HTTP makes invalid is refused',
  proves:
    'with the full key, an HTTP/1.1 request without Host gets 400 on every operation (RFC 9112 §3.2), and one with two Authorization lines, an invalid key then the full key, gets 400 or 401, never the data or the delete (RFC 9110 §5.3; spec decision malformed-requests)',
  level: 'behaviour',
  // message-refused is given only to such a message (ModelRequest.form): this rule owns it wherever it shows.
  claims: [variantClaim('malformed-requests-refused'), { kinds: ['message-refused'] }],
  steps: ['variant'],
  judge: (exchanges) => variantsOf(exchanges, 'malformed-requests-refused').filter((e) => e.response).map(passed),
};
