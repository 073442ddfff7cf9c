import { isSuccess } from '../../http-status.ts';
import { passed, type Check } from './check.ts';

/** Judged by the model (rule answer-stable, conformance/judge/model): this check is its category in the report. */
export const answersAgree: Check = {
  id: 'answers-agree',
  severity: 'error',
  title: 'The same read, asked again, answers alike',
  proves:
    'identical reads at the start, the middle and the end of the run get the same status and body, apart from the per-instance fields the spec names (x-instance-id, x-per-instance) and the order of lists keyed by x-unique-by; and a resource once found is found again',
  level: 'behaviour',
  steps: ['repeat-read'],
  judge: (exchanges) => exchanges.filter((e) => e.response && isSuccess(e.response.status)).map(passed),
};
