import { RESOURCE_KINDS, passed, type Rule } from '../rule.ts';

/** Judged by the model (rule resource-exists on the bystanders' deletes): this check is its category in the report. */
export const bystandersUntouched: Rule = {
  id: 'bystanders-untouched',
  severity: 'error',
  title: 'Tokens nobody deleted are still there at the end',
  proves:
    'tokens kept as bystanders (the same token id in another account, an account whose id extends another\'s) survive every other deletion and are deleted last with the documented success',
  level: 'behaviour',
  claims: [{ kinds: RESOURCE_KINDS, steps: ['bystander-delete'] }],
  steps: ['bystander-delete'],
  judge: (exchanges) => exchanges.filter((e) => e.response).map(passed),
};
