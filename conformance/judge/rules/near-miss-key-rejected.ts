import { judgeExpectedStatus, type Rule } from '../rule.ts';
import type { Exchange, StepKind } from '../../types.ts';

export const nearMissKeyRejected: Rule = {
  id: 'near-miss-key-rejected',
  severity: 'error',
  title: 'A near-miss of the full key: 401',
  proves:
    'near-misses of the full key drawn from the key grammar (another case, wholly or in part, a prefix, a character more, a character replaced, a letter under an accent, a separator key formats use and more after the key, the key cut before one of its separators, every Unicode whitespace around it, quotes, brackets or list syntax around it, another word beside it, bare or after Bearer, another scheme in its own syntax, a repeated or a glued scheme, the key in a query parameter or a cookie instead of the header) get 401, each on one operation in turn: keys are compared exactly and taken from the `Authorization` header only. Not checked where any key (or, for a key moved out of the header, no key) is accepted',
  level: 'behaviour',
  claims: [{ kinds: ['auth-required'], where: (e) => e.keyVariant !== undefined }],
  steps: ['near-miss-key'],
  judge: (exchanges, context) =>
    judgeExpectedStatus(
      exchanges,
      (exchange, status) => `${exchange.label}: answered ${status}; a key that is not exactly a valid key in the Authorization header is no credential (401), however close it is (spec decisions on API §5).`,
      (exchange) => {
        // A server that accepts any key, or none, fails auth-invalid-rejected or auth-missing-rejected; near-misses then add nothing.
        const inHeader = exchange.keyVariant?.placement.in === 'header';
        const baseline: StepKind = inHeader ? 'invalid-key' : 'no-credentials';
        const accepted = (e: Exchange) => e.step === baseline && e.operationId === exchange.operationId && e.response !== undefined && !e.expects.includes(e.response.status);
        if (!context.all.some(accepted)) return undefined;
        return inHeader ? 'any invalid key is accepted here (see auth-invalid-rejected)' : 'a request without a key is accepted here (see auth-missing-rejected)';
      },
    ),
};
