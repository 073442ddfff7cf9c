import { failed, passed, statusList, type Check, type Judgement } from './check.ts';

export const nearMissKeyRejected: Check = {
  id: 'near-miss-key-rejected',
  severity: 'error',
  title: 'A near-miss of the full key: 401',
  proves: 'the full key with a character appended, its last character dropped, or in another case gets 401 on every operation: keys are compared exactly, not by prefix or without case (spec decision on API §5)',
  level: 'behaviour',
  steps: ['near-miss-key'],
  judge: (exchanges, context) =>
    exchanges.flatMap((exchange): Judgement[] => {
      if (!exchange.response) return [];
      const invalid = context.all.find((e) => e.step === 'invalid-key' && e.operationId === exchange.operationId);
      // A server that accepts any key fails auth-invalid-rejected; near-misses then add nothing.
      if (invalid?.response && !invalid.expects.includes(invalid.response.status)) {
        return [{ operationId: exchange.operationId, verdict: 'not checked', reason: 'any invalid key is accepted here (see auth-invalid-rejected)' }];
      }
      if (exchange.expects.includes(exchange.response.status)) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: answered ${exchange.response.status}; a key that is not exactly a valid key is invalid (401), however close it is (spec decision on API §5).`,
          expected: `status ${statusList(exchange.expects)}`,
          got: `status ${exchange.response.status}`,
        }),
      ];
    }),
};
