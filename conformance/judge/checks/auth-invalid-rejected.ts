import { judgeExpectedStatus, type Check } from './check.ts';

export const authInvalidRejected: Check = {
  id: 'auth-invalid-rejected',
  severity: 'error',
  title: 'An invalid key: 401',
  proves: 'every operation refuses a key it does not know with 401 (API §5): the key is checked, not merely present',
  level: 'behaviour',
  steps: ['invalid-key'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: a key the server does not know must be refused with 401 (API §5).`),
};
