import { passed, type Rule } from '../rule.ts';
import { variantClaim, variantsOf } from './variant-exchanges.ts';

/**
 * Spec decisions head-requests and requests-independent (red team round seventeen): an answer depends on its own request, the method
 * included, never on the request before it. The method sequence (invariance-scenario.ts) sends a request of one URL and key in another
 * method (HEAD, OPTIONS, a method the path does not list) or conditionally, and right after it the operation's own plain request on the
 * same connection: the model judges the second by what the plain request gets alone (its verdicts on it, and on the refused method
 * before it, are filed here), so a cache keyed without the method that hands a HEAD's empty 200, an OPTIONS's 204, a 405 or a 304 to
 * it shows.
 */
export const answersFollowOwnMethod: Rule = {
  id: 'answers-follow-own-method',
  severity: 'error',
  title: 'Each request is answered for its own method',
  proves:
    "each read, with the full key and with the restricted key where it may call it, sent right after a HEAD, an OPTIONS, a POST the path does not list or an If-None-Match: * request of the same URL and key on one connection, gets what the plain read gets (not the answer stored for the request before it: a HEAD's empty 200, an OPTIONS's 204, a 405, a 304); so does the delete of an unknown token right after a GET of its URL (spec decisions head-requests, requests-independent)",
  level: 'behaviour',
  // Whatever the model finds on a variant of its kinds: the request before it on the connection, in another method, is the cause.
  claims: [variantClaim('answers-follow-own-method')],
  // No steps of its own: appliesTo reads the plan's delete step (only with --allow-delete, as the sequence's delete pair).
  // Where its sequence goes (a set-up problem lists it there as not judged): every read, and the delete when the run deletes (--allow-delete).
  appliesTo: (planned, contract) => contract.operation(planned.operationId).method === 'GET' || ('step' in planned && planned.step === 'delete'),
  judge: (exchanges) => variantsOf(exchanges, 'answers-follow-own-method').filter((e) => e.response).map(passed),
};
