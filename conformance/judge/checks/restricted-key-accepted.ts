import { judgeExpectedStatus, type Check } from './check.ts';

export const restrictedKeyAccepted: Check = {
  id: 'restricted-key-accepted',
  severity: 'error',
  title: 'The restricted key is a valid key elsewhere',
  proves:
    'on the operations not in --forbidden, the restricted key gets a documented success or 403, never 401: it is valid (API §5); and the same on every resource of an operation, every given project included (spec decision permissions-per-operation)',
  level: 'behaviour',
  steps: ['restricted-allowed'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: the restricted key is valid, so it gets the documented success or 403, never 401 (API §5).`),
};
