import { judgeExpectedStatus, type Rule } from '../rule.ts';

export const restrictedKeyAccepted: Rule = {
  id: 'restricted-key-accepted',
  severity: 'error',
  title: 'The restricted key is a valid key elsewhere',
  proves:
    'elsewhere the restricted key gets a documented success or 403, never 401 (the same on every resource: permission-same-on-every-resource)',
  level: 'behaviour',
  claims: [{ kinds: ['valid-key-accepted'], where: (e) => e.credential === 'restricted' }],
  steps: ['restricted-allowed'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: the restricted key is valid, so it gets the documented success or 403, never 401 (API §5).`),
};
