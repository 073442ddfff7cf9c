import { isSuccess, NOT_FOUND } from '../../http-status.ts';
import type { StepKind } from '../../types.ts';
import { RESOURCE_KINDS, judgeExpectedStatus, type Rule } from '../rule.ts';

/**
 * One check per kind of near-miss id. `baseline` is the step whose request for an id that
 * cannot exist shows the server answers 404 at all; if that already failed, its own check says
 * so and the near-misses add nothing.
 */
function nearMissIdRule(options: { id: string; steps: StepKind[]; what: string; baseline: StepKind; baselineRule: string; harm: string; proves: string; resolved: string }): Rule {
  return {
    id: options.id,
    severity: 'error',
    title: `A near-miss of a given ${options.what} id: 404`,
    proves: options.proves,
    level: 'behaviour',
    steps: options.steps,
    claims: [{ kinds: RESOURCE_KINDS, steps: options.steps }],
    judge: (exchanges, context) =>
      judgeExpectedStatus(
        // A 5xx is not-a-server-error's to report (one defect, one finding): a server that fails on an id holding NUL fails alike on a made-up one.
        exchanges.filter((e) => e.response === undefined || e.response.status < 500),
        (exchange, status) =>
          `${exchange.label}: answered ${status}; ids are compared exactly (spec decision), so this id names no ${options.what}.${isSuccess(status) ? ` ${options.resolved}` : ''}`,
        () => {
          const baseline = context.all.find((e) => e.step === options.baseline);
          return baseline?.response && baseline.response.status !== NOT_FOUND ? `an id that cannot exist is not answered 404 either (see ${options.baselineRule})` : undefined;
        },
      ),
  };
}

export const nearMissTokenNotFound = nearMissIdRule({
  id: 'near-miss-token-not-found',
  steps: ['near-miss-token', 'near-miss-account'],
  what: 'token',
  baseline: 'unknown-token',
  baselineRule: 'unknown-token-not-found',
  harm: 'nothing is deleted',
  proves:
    'near-misses of a given token\'s id under its real account, and of its account\'s id with the real token id, drawn from the id grammar\'s rules that can name nothing real (never another case, a prefix or the same id percent-encoded), get 404 (400 for one holding a control character, an encoded slash or another encoded reserved character such as `%3F` after the id, 405 too for the slash) and delete nothing: the token is still deleted by its own delete afterwards',
  resolved: 'The server resolved it to the given token and may have deleted that token.',
});

export const nearMissProjectNotFound = nearMissIdRule({
  id: 'near-miss-project-not-found',
  steps: ['near-miss-project'],
  what: 'project',
  baseline: 'missing-project',
  baselineRule: 'missing-project-not-found',
  harm: 'no environments of another project are returned',
  proves:
    'near-misses of `--project` drawn from the id grammar get 404 (400 for one holding a control character, an encoded slash or another encoded reserved character such as `%3F` after the id, 405 too for the slash), never the environments of `--project`; a spelling RFC 3986 makes the same id (an unreserved character percent-encoded) may get the project\'s own answer or 404',
  resolved: 'The server resolved it to the given project, or answered its not-found as a success (an empty list too is no 404: spec decision unknown-ids-not-found).',
});
