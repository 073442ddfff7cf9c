import { passed, type Check } from './check.ts';

/** Judged by the model: its verdicts on the requests of the overlap batch are filed here (conformance/judge/model-categories.ts). */
export const overlapIndependent: Check = {
  id: 'overlap-independent',
  severity: 'error',
  title: 'Requests in flight at once do not borrow one another\'s credentials',
  proves:
    'every operation, sent at once with every credential class (full, restricted, none, invalid), gets what each gets alone: no request borrows another\'s role or permission, auth does not fail open under load, and the errors answered at once carry ids of their own (spec decision requests-independent)',
  level: 'behaviour',
  steps: ['overlap'],
  judge: (exchanges) => exchanges.filter((e) => e.response).map(passed),
};
