import { passed, type Check } from './check.ts';

/** Judged by the model (rule resource-exists on the bystanders' deletes): this check is its category in the report. */
export const bystandersUntouched: Check = {
  id: 'bystanders-untouched',
  severity: 'error',
  title: 'Tokens nobody deleted are still there at the end',
  proves:
    'given tokens the run keeps as bystanders (the same token id in another account, an account whose id is a prefix or extension of another) survive every other deletion: deleted last, they get the documented success (API §4.3: a token is identified by both ids)',
  level: 'behaviour',
  steps: ['bystander-delete'],
  judge: (exchanges) => exchanges.filter((e) => e.response).map(passed),
};
