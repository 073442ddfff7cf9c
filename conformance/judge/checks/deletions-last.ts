import { passed, type Check } from './check.ts';

/** Judged by the model (rule resource-gone on the final probes): this check is its category in the report. */
export const deletionsLast: Check = {
  id: 'deletions-last',
  severity: 'error',
  title: 'A deletion lasts: deleted tokens are still gone at the end',
  proves: 'every token the run deleted is deleted again at the end, after --settle-ms, and gets 404: the deletion was not undone by a cache, a replica or a retry (API §4.3, spec decision token-deletion-transition)',
  level: 'behaviour',
  steps: ['final-probe'],
  judge: (exchanges) => exchanges.filter((e) => e.response).map(passed),
};
