import { judgeExpectedStatus, type Check } from './check.ts';

export const unknownTokenNotFound: Check = {
  id: 'unknown-token-not-found',
  severity: 'error',
  title: 'An unknown token: 404',
  proves: 'deleting a token that does not exist, in an account that does, gets 404 NotFoundError (API §4.3)',
  level: 'behaviour',
  steps: ['unknown-token'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: there is no such token, so nothing can be deleted: 404 (API §4.3).`),
};
