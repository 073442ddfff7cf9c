import { NOT_FOUND, isSuccess } from '../../http-status.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN } from '../../operation-ids.ts';
import { DELETES_AT_ONCE } from '../../plan/scenarios/token-deletion.ts';
import type { Exchange } from '../../types.ts';
import { failed, passed, type Judgement, type Rule } from '../rule.ts';
import { goneBeforeRun, goneOrDefect } from '../token-history.ts';

/** The full key's deletes of given tokens in the batch of deletes sent at once (token-deletion.ts). */
function deletesAtOnce(exchanges: readonly Exchange[]): Exchange[] {
  return exchanges.filter((e) => e.batch === DELETES_AT_ONCE && e.method === 'DELETE' && e.credential === 'full' && e.token !== undefined);
}

/** The other tokens of this delete's account that the batch deleted at once with it; empty when it was not in that batch. */
export function sameAccountAtOnce(exchange: Exchange, all: readonly Exchange[]): string[] {
  if (exchange.batch !== DELETES_AT_ONCE || !exchange.token) return [];
  const { account, token } = exchange.token;
  return [...new Set(deletesAtOnce(all).filter((e) => e.token!.account === account && e.token!.token !== token).map((e) => `${account}/${e.token!.token}`))];
}

/** The other tokens of this delete's account that a delete of the batch did delete (a success). */
export function siblingsDeleted(exchange: Exchange, all: readonly Exchange[]): string[] {
  const others = new Set(sameAccountAtOnce(exchange, all));
  return [...new Set(deletesAtOnce(all).filter((e) => others.has(`${e.token!.account}/${e.token!.token}`) && e.response && isSuccess(e.response.status)).map((e) => `${e.token!.account}/${e.token!.token}`))];
}

/**
 * A delete in the batch sent at once that this rule reports rather than the rule of its step (delete-token-succeeds and
 * concurrent-delete-single-success step aside): no success for its token while another token of its account was deleted at once, with
 * success. Where no delete of the account succeeded, the batch shows nothing about overlap (every token gone before the run reads the
 * same): the step's rule reports it with its readings. A 404 to the cross-account token's own delete stays cross-account-delete-rejected's,
 * which names this reading beside its own.
 */
export function failedAtOnce(exchange: Exchange, all: readonly Exchange[]): boolean {
  if (!exchange.token || siblingsDeleted(exchange, all).length === 0) return false;
  const mine = deletesAtOnce(all).filter((e) => e.token!.account === exchange.token!.account && e.token!.token === exchange.token!.token && e.response);
  if (mine.length === 0 || mine.some((e) => isSuccess(e.response!.status))) return false;
  return !(exchange.step === 'delete-after-cross' && mine.every((e) => e.response!.status === NOT_FOUND));
}

/**
 * Red team round fifteen (issue 18: an answer depends only on what the contract names). API §4.3: a delete of an existing token by a
 * key that may delete answers 200 and the token is gone; nothing in the contract makes one delete depend on another token's. The run
 * deletes its tokens at once in one batch (token-deletion.ts: the first token, one of another account, the cross-account token through
 * its own account, the concurrent deletes of a third), which holds two tokens of one account whenever the given tokens allow. Each
 * token of an account that had another token deleted at once must have been deleted by its request: a 404 (an optimistic lock's
 * conflict reported as not found), a 409 (a busy account), a 5xx, or no answer fails here. That each is gone afterwards and that no
 * other token was touched is judged where the run reads them back (delete-again-not-found, the final probes, bystanders-untouched).
 */
export const deletesAtOnceIndependent: Rule = {
  id: 'deletes-at-once-independent',
  severity: 'error',
  title: 'Deletes of different tokens of one account at once each succeed',
  proves:
    'of the deletes sent at once (the batch that also holds the concurrent deletes of one token), every token of an account with another token deleted in the same batch is deleted by its own request: a 2xx, never a 404, 409 or 5xx because another delete of the account was in flight (API §4.3); needs two --token of one service account',
  level: 'behaviour',
  appliesTo: (planned) => planned.operationId === DELETE_SERVICE_ACCOUNT_TOKEN,
  // No steps of its own: it judges the deletes of the steps delete, delete-after-cross and concurrent-delete that went at once, and a
  // --skip-check of their own rules still drops them (plan.ts, withoutSwitchedOff).
  judge: (exchanges, context) => {
    const batch = deletesAtOnce(exchanges);
    if (exchanges.length === 0) return [];
    const shared = batch.filter((e) => sameAccountAtOnce(e, batch).length > 0);
    if (!exchanges.some((e) => e.method === 'DELETE' && e.credential === 'full' && e.token !== undefined)) {
      return [{ operationId: DELETE_SERVICE_ACCOUNT_TOKEN, verdict: 'not checked', reason: 'needs --allow-delete and two disposable --token of one service account, deleted at once' }];
    }
    if (shared.length === 0) {
      const accounts = [...new Set(batch.map((e) => e.token!.account))];
      const sent = batch.length === 0 ? 'no deletes were sent at once' : `the deletes sent at once were of one token per account (${[...new Set(batch.map((e) => `${e.token!.account}/${e.token!.token}`))].join(', ')})`;
      return [{ operationId: DELETE_SERVICE_ACCOUNT_TOKEN, verdict: 'not checked', reason: `needs two --token of one service account deleted at once: ${sent}; give another disposable token of ${accounts.length > 0 ? `account ${accounts.join(' or ')}` : 'an account given'} (the first token, the cross-account token and the concurrent deletes' token go in the batch)` }];
    }
    const byToken = new Map<string, Exchange[]>();
    for (const e of shared) byToken.set(`${e.token!.account}/${e.token!.token}`, [...(byToken.get(`${e.token!.account}/${e.token!.token}`) ?? []), e]);
    return [...byToken.entries()].flatMap(([name, deletes]): Judgement[] => {
      const answered = deletes.filter((e) => e.response);
      const first = answered[0];
      if (!first) return [];
      if (answered.some((e) => isSuccess(e.response!.status))) return [passed(first)];
      if (!failedAtOnce(first, batch)) {
        return siblingsDeleted(first, batch).length > 0 ? [] : [{ operationId: first.operationId, verdict: 'not checked', reason: `no delete of service account ${first.token!.account} sent at once succeeded: the batch shows nothing about deletes depending on each other (see the rule of each step)` }];
      }
      // Only an earlier DELETE that succeeded took the token first (deletedEarlierBy would also count another step's POST or override).
      const earlier = context.all.find((e) => e.seq < first.seq && e.method === 'DELETE' && e.token?.account === first.token!.account && e.token?.token === first.token!.token && e.response && isSuccess(e.response.status));
      if (earlier) return [{ operationId: first.operationId, verdict: 'not checked', reason: `an earlier request had already deleted the token ("${earlier.label}", step ${earlier.step})` }];
      const others = sameAccountAtOnce(first, batch);
      const statuses = [...new Set(answered.map((e) => e.response!.status))].join(', ');
      return [
        failed({
          exchange: first,
          message: `${first.label}: answered ${statuses} while the deletes of ${others.join(', ')} (the same service account) were in flight, and no delete of token ${name} succeeded. ${goneOrDefect(first.token, 'the server let one delete depend on another token of the account (a lock conflict, a busy account), which the contract does not (API §4.3: a delete of an existing token answers 200 and the token is gone)', { all: context.all, exchange: first })}`,
          expected: `a success for token ${name}, whatever else the account is doing`,
          got: `status ${statuses}`,
          alsoPossible: goneBeforeRun(first.token, { all: context.all, exchange: first }),
        }),
      ];
    });
  },
};
