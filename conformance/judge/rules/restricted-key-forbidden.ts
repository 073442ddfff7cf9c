import { judgeExpectedStatus, type Rule } from '../rule.ts';
import { judgeSpellingProbes } from './another-resource.ts';

export const restrictedKeyForbidden: Rule = {
  id: 'restricted-key-forbidden',
  severity: 'error',
  title: 'The restricted key: 403 on --forbidden operations',
  proves:
    'the restricted key gets 403 on each `--forbidden` operation; the delete is tried on a real disposable token, so a 404 is no excuse; on the path spelled equivalently (RFC 3986 §6.2.2: an unreserved character of a static segment percent-encoded) and with a trailing slash 403 too, or the router\'s 400, 404, 405 or redirect; and 403 still when asked once more after the deletes (a delete changes no key)',
  level: 'behaviour',
  claims: [{ kinds: ['permission-required'] }],
  steps: ['restricted-forbidden', 'equivalent-path-restricted'],
  judge: (exchanges, context) => judgeSpellingProbes(exchanges, context, (mine) => judgeExpectedStatus(mine, (e) => `${e.label}: a valid key lacking the permission must get 403 (API §5).`)),
};
