import { judgeExpectedStatus, type Rule } from '../rule.ts';

export const restrictedKeyForbidden: Rule = {
  id: 'restricted-key-forbidden',
  severity: 'error',
  title: 'The restricted key: 403 on --forbidden operations',
  proves:
    'the restricted key gets 403 on each `--forbidden` operation; the delete is tried on a real disposable token, so a 404 is no excuse',
  level: 'behaviour',
  claims: [{ kinds: ['permission-required'] }],
  steps: ['restricted-forbidden'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: a valid key lacking the permission must get 403 (API §5).`),
};
