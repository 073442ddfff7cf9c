import type { Exchange, StepKind } from '../../types.ts';
import { judgeExpectedStatus, type Rule } from '../rule.ts';

/** The auth probe on the other kind of resource that shows the server checks this credential at all. */
const COUNTERPART: Readonly<Record<string, StepKind>> = { none: 'no-credentials', invalid: 'invalid-key', restricted: 'restricted-forbidden' };

export const authBeforeLookup: Rule = {
  id: 'auth-before-lookup',
  severity: 'error',
  title: 'Auth is decided before the resource is looked up',
  proves:
    'the ordering decision on every operation against the resource the auth probes did not use: no key and an invalid key get 401 on a missing project and on a real disposable token (which survives), the restricted key 403 on a `--forbidden` operation\'s missing resource. Not checked where the credential is not refused at all (the checks above say so)',
  level: 'behaviour',
  steps: ['auth-order'],
  judge: (exchanges, context) =>
    judgeExpectedStatus(
      exchanges,
      (exchange, status) =>
        `${exchange.label}: answered ${status}; auth is decided before the resource is looked up (401 before 403 before 404, spec decision on API §5), whether it exists or not.`,
      (exchange) => {
        const counterpart = context.all.find((e: Exchange) => e.step === COUNTERPART[exchange.credential] && e.operationId === exchange.operationId);
        // Where the credential is not checked at all, auth-missing-rejected (and its siblings) say so; the order is then moot.
        return counterpart?.response && !counterpart.expects.includes(counterpart.response.status)
          ? `the same credential is not refused on the other resource either (see the ${COUNTERPART[exchange.credential]} probe's check)`
          : undefined;
      },
    ),
};
