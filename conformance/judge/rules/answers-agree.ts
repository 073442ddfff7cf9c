import { isSuccess } from '../../http-status.ts';
import { RESOURCE_KINDS, passed, type Rule } from '../rule.ts';

/** Judged by the model (rule answer-stable, conformance/judge/model): this check is its category in the report. */
export const answersAgree: Rule = {
  id: 'answers-agree',
  severity: 'error',
  title: 'The same read, asked again, answers alike',
  proves:
    'the reads of the start, sent again in the middle and at the end, get the same status and body (per-instance fields the spec names and the order of keyed lists aside); a resource once found is found again, one once missing stays missing; a read answered with a success to two keys that may both call it (the full and the restricted key) has the same content for both (spec decision key-decides-access-only)',
  level: 'behaviour',
  anotherClientMayExplain: true,
  claims: [{ kinds: ['answer-stable'] }, { kinds: RESOURCE_KINDS, steps: ['repeat-read'] }],
  steps: ['repeat-read'],
  judge: (exchanges) => exchanges.filter((e) => e.response && isSuccess(e.response.status)).map(passed),
};
