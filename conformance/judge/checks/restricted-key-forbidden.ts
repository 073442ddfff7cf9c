import { judgeExpectedStatus, type Check } from './check.ts';

export const restrictedKeyForbidden: Check = {
  id: 'restricted-key-forbidden',
  severity: 'error',
  title: 'The restricted key: 403 on --forbidden operations',
  proves: 'a valid key without the permission gets 403 (API §5) on each --forbidden operation; the delete is tried on a real disposable token, so a 404 is no excuse',
  level: 'behaviour',
  steps: ['restricted-forbidden'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: a valid key lacking the permission must get 403 (API §5).`),
};
