import { passed, type Check } from './check.ts';
import { variantsOf } from './variant-exchanges.ts';

/** Judged by the model (a 304 is no status it allows to these requests): its verdicts on the conditional variants are filed here. */
export const conditionalAfterAuth: Check = {
  id: 'conditional-after-auth',
  severity: 'error',
  title: 'Conditional requests: a 304 only where a 200 with that validator would be given',
  proves:
    'If-None-Match with a tag the server never gave and If-Modified-Since a date before any change get the answer the request gets without them: never a 304, and never before auth (spec decision conditional-requests)',
  level: 'behaviour',
  steps: ['variant'],
  judge: (exchanges) => variantsOf(exchanges, 'conditional-after-auth').filter((e) => e.response).map(passed),
};
