import type { Exchange, StepKind } from '../../types.ts';
import { judgeExpectedStatus, type Check } from './check.ts';

/** The auth probe on the other kind of resource that shows the server checks this credential at all. */
const COUNTERPART: Readonly<Record<string, StepKind>> = { none: 'no-credentials', invalid: 'invalid-key', restricted: 'restricted-forbidden' };

export const authBeforeLookup: Check = {
  id: 'auth-before-lookup',
  severity: 'error',
  title: 'Auth is decided before the resource is looked up',
  proves:
    'on every operation, whether the resource exists or not, no or an invalid key gets 401 and the restricted key 403 on --forbidden operations: 401 before 403 before 404 (the spec decision on API §5), so a refusal reveals nothing about what exists and deletes nothing',
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
