import { RESOURCE_KINDS, passed, type Rule } from '../rule.ts';

/** Judged by the model (rule resource-gone on the final probes): this check is its category in the report. */
export const deletionsLast: Rule = {
  id: 'deletions-last',
  severity: 'error',
  title: 'A deletion lasts: deleted tokens are still gone at the end',
  proves:
    'every token the run deleted, deleted once more at the end after `--settle-ms`, gets 404: no cache, replica or retry undid the deletion',
  level: 'behaviour',
  claims: [{ kinds: RESOURCE_KINDS, steps: ['final-probe'] }],
  steps: ['final-probe'],
  judge: (exchanges) => exchanges.filter((e) => e.response).map(passed),
};
