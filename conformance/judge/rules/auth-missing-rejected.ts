import { judgeExpectedStatus, type Rule } from '../rule.ts';
import { judgeSpellingProbes } from './another-resource.ts';

export const authMissingRejected: Rule = {
  id: 'auth-missing-rejected',
  severity: 'error',
  title: 'No credentials: 401',
  proves:
    'every operation refuses a request without the key header with 401 (API §5), even for a resource that does not exist; on the path spelled with a trailing slash too (spec decision `trailing-slash`): 401, or the router\'s 404, 405 or a 301/308 redirect, never an answer past auth (an answer that is not in a media type of the operation, e.g. a web UI\'s page, is another resource\'s, as the router\'s 404 is); and on the path spelled equivalently (RFC 3986 §6.2.2: an unreserved character of a static segment percent-encoded): 401 or the router\'s 400, 404, 405 or redirect',
  level: 'behaviour',
  claims: [{ kinds: ['auth-required'], where: (e) => !e.keyVariant && e.credential === 'none' }],
  steps: ['no-credentials', 'trailing-slash', 'equivalent-path'],
  judge: (exchanges, context) => judgeSpellingProbes(exchanges, context, (mine) => judgeExpectedStatus(mine, (e) => `${e.label}: a request without credentials must be refused with 401 (API §5).`)),
};
