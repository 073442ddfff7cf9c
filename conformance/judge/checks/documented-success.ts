import { judgeExpectedStatus, type Check } from './check.ts';

export const documentedSuccess: Check = {
  id: 'documented-success',
  severity: 'error',
  title: 'The full key reads an existing resource',
  proves: 'with the full key, the environments of --project and the OIDC settings are read with the 2xx the spec documents (API §4.1, §4.2)',
  level: 'behaviour',
  steps: ['read'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: a full-access key reading an existing resource must get the documented success.`),
};
