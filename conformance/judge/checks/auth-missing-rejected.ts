import { judgeExpectedStatus, type Check } from './check.ts';

export const authMissingRejected: Check = {
  id: 'auth-missing-rejected',
  severity: 'error',
  title: 'No credentials: 401',
  proves: 'every operation refuses a request without the API key header with 401 (API §5), even on a resource that does not exist (the spec decides auth comes first); on the path spelled with a trailing slash too, which names the operation or nothing (spec decision on trailing slashes): 401, or the router\'s 404, 405 or a redirect, never the resource',
  level: 'behaviour',
  steps: ['no-credentials', 'trailing-slash'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: a request without credentials must be refused with 401 (API §5).`),
};
