import { judgeExpectedStatus, type Rule } from '../rule.ts';

export const unknownTokenNotFound: Rule = {
  id: 'unknown-token-not-found',
  severity: 'error',
  title: 'An unknown token: 404',
  proves:
    'deleting a token that does not exist, in an account that does, gets 404',
  level: 'behaviour',
  anotherClientMayExplain: true,
  claims: [{ kinds: ['resource-missing'], where: (e) => e.method !== 'GET' }],
  steps: ['unknown-token'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: there is no such token, so nothing can be deleted: 404 (API §4.3).`),
};
