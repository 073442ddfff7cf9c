import { passed, type Rule } from '../rule.ts';
import { DERIVED_KINDS } from './variant-exchanges.ts';

/** Judged by the model: it claims its verdicts on the requests of the overlap batch. */
export const overlapIndependent: Rule = {
  id: 'overlap-independent',
  severity: 'error',
  title: 'Requests in flight at once do not borrow one another\'s credentials',
  proves:
    'every operation, sent at once with every credential class (full, restricted, none, invalid) in several orders (one with every refused or weaker key ahead of the full key), gets what each gets alone: no request borrows another\'s role or permission, auth does not fail open under load, and the errors answered at once carry ids of their own (spec decision requests-independent)',
  level: 'behaviour',
  claims: [{ kinds: DERIVED_KINDS, steps: ['overlap'] }],
  steps: ['overlap'],
  judge: (exchanges) => exchanges.filter((e) => e.response).map(passed),
};
