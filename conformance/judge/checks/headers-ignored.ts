import { passed, type Check } from './check.ts';
import { variantsOf } from './variant-exchanges.ts';

/** Judged by the model: its verdicts on the header variants are filed here (conformance/judge/model-categories.ts). */
export const headersIgnored: Check = {
  id: 'headers-ignored',
  severity: 'error',
  title: 'Headers the spec does not name change no answer',
  proves:
    "each operation, with every credential class, answers as it does to the suite's own request when the request has no Accept, curl's, fetch()'s or a browser's Accept (with Accept-Language, Accept-Encoding, User-Agent), no User-Agent, the field name authorization in lower case, X-Requested-With, or X-HTTP-Method-Override naming another method; an empty Authorization value is no key (401). None of them grants or removes a permission (spec decisions accept-negotiation, required-request-headers)",
  level: 'behaviour',
  steps: ['variant'],
  judge: (exchanges) => variantsOf(exchanges, 'headers-ignored').filter((e) => e.response).map(passed),
};
