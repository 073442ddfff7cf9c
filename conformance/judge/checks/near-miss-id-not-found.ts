import { isSuccess, NOT_FOUND } from '../../http-status.ts';
import type { StepKind } from '../../types.ts';
import { judgeExpectedStatus, type Check } from './check.ts';

/**
 * One check per kind of near-miss id. `baseline` is the step whose request for an id that
 * cannot exist shows the server answers 404 at all; if that already failed, its own check says
 * so and the near-misses add nothing.
 */
function nearMissIdCheck(options: { id: string; steps: StepKind[]; what: string; baseline: StepKind; baselineCheck: string; harm: string; proves: string; resolved: string }): Check {
  return {
    id: options.id,
    severity: 'error',
    title: `A near-miss of a given ${options.what} id: 404`,
    proves: options.proves,
    level: 'behaviour',
    steps: options.steps,
    judge: (exchanges, context) =>
      judgeExpectedStatus(
        exchanges,
        (exchange, status) =>
          `${exchange.label}: answered ${status}; ids are compared exactly (spec decision), so this id names no ${options.what}.${isSuccess(status) ? ` ${options.resolved}` : ''}`,
        () => {
          const baseline = context.all.find((e) => e.step === options.baseline);
          return baseline?.response && baseline.response.status !== NOT_FOUND ? `an id that cannot exist is not answered 404 either (see ${options.baselineCheck})` : undefined;
        },
      ),
  };
}

export const nearMissTokenNotFound = nearMissIdCheck({
  id: 'near-miss-token-not-found',
  steps: ['near-miss-token', 'near-miss-account'],
  what: 'token',
  baseline: 'unknown-token',
  baselineCheck: 'unknown-token-not-found',
  harm: 'nothing is deleted',
  proves:
    'near-misses of a given token id, or of its account id, drawn by the id grammar from those that can name nothing real (every Unicode whitespace at either end, Unicode look-alikes and normalization forms, a character percent-encoded twice, number spellings, a format suffix or matrix parameter) name no token: ids are compared exactly (spec decision), so 404 (or 400 for one holding a control character) and nothing is deleted',
  resolved: 'The server resolved it to the given token and may have deleted that token.',
});

export const nearMissProjectNotFound = nearMissIdCheck({
  id: 'near-miss-project-not-found',
  steps: ['near-miss-project'],
  what: 'project',
  baseline: 'missing-project',
  baselineCheck: 'missing-project-not-found',
  harm: 'no environments of another project are returned',
  proves:
    'near-misses of the --project id drawn by the id grammar (another case, every Unicode whitespace at either end, Unicode look-alikes and normalization forms, a character percent-encoded twice, number spellings, a prefix, a character more, a format suffix or matrix parameter) name no project: ids are compared exactly (spec decision), so 404 and never the environments of --project; a spelling RFC 3986 makes the same id (an unreserved character percent-encoded) may get the project\'s own answer or 404',
  resolved: 'The server resolved it to the given project.',
});
