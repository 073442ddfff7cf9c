import { judgeExpectedStatus, type Rule } from '../rule.ts';

export const authMissingRejected: Rule = {
  id: 'auth-missing-rejected',
  severity: 'error',
  title: 'No credentials: 401',
  proves:
    'every operation refuses a request without the key header with 401 (API §5), even for a resource that does not exist; on the path spelled with a trailing slash too (spec decision `trailing-slash`): 401, or the router\'s 404, 405 or a 301/308 redirect, never an answer past auth',
  level: 'behaviour',
  claims: [{ kinds: ['auth-required'], where: (e) => !e.keyVariant && e.credential === 'none' }],
  steps: ['no-credentials', 'trailing-slash'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: a request without credentials must be refused with 401 (API §5).`),
};
