import { judgeExpectedStatus, type Rule } from '../rule.ts';

export const authInvalidRejected: Rule = {
  id: 'auth-invalid-rejected',
  severity: 'error',
  title: 'An invalid key: 401',
  proves:
    'every operation refuses an unknown key with 401: the key is checked, not merely present',
  level: 'behaviour',
  claims: [{ kinds: ['auth-required'], where: (e) => !e.keyVariant && e.credential !== 'none' }],
  steps: ['invalid-key'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: a key the server does not know must be refused with 401 (API §5).`),
};
