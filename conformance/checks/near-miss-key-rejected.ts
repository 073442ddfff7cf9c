import { judgeExpectedStatus, type Check } from './check.ts';

export const nearMissKeyRejected: Check = {
  id: 'near-miss-key-rejected',
  severity: 'error',
  title: 'A near-miss of the full key: 401',
  proves: 'the full key with a character appended, its last character dropped, or in another case gets 401 on every operation: keys are compared exactly, not by prefix or without case (spec decision on API §5)',
  level: 'behaviour',
  steps: ['near-miss-key'],
  judge: (exchanges, context) =>
    judgeExpectedStatus(
      exchanges,
      (exchange, status) => `${exchange.label}: answered ${status}; a key that is not exactly a valid key is invalid (401), however close it is (spec decision on API §5).`,
      (exchange) => {
        const invalid = context.all.find((e) => e.step === 'invalid-key' && e.operationId === exchange.operationId);
        // A server that accepts any key fails auth-invalid-rejected; near-misses then add nothing.
        return invalid?.response && !invalid.expects.includes(invalid.response.status) ? 'any invalid key is accepted here (see auth-invalid-rejected)' : undefined;
      },
    ),
};
