import { judgeExpectedStatus, type Rule } from '../rule.ts';

export const documentedSuccess: Rule = {
  id: 'documented-success',
  severity: 'error',
  title: 'The full key reads an existing resource',
  proves:
    'with the full key, the environments of `--project` and the OIDC settings are read with the documented 2xx',
  level: 'behaviour',
  anotherClientMayExplain: true,
  claims: [
    { kinds: ['valid-key-accepted'], where: (e) => e.credential !== 'restricted' && e.method === 'GET' },
    { kinds: ['resource-exists'], where: (e) => e.method === 'GET' },
  ],
  steps: ['read'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: a full-access key reading an existing resource must get the documented success.`),
};
