import { isSuccess } from '../http-status.ts';
import type { Exchange, StepKind, TokenRef } from '../types.ts';

/** The earlier exchange of `step` on the same disposable token, if the scenario sent one. */
export function earlierStep(all: readonly Exchange[], before: Exchange, step: StepKind, token: TokenRef | undefined = before.token): Exchange | undefined {
  return all.find((e) => e.step === step && e.seq < before.seq && e.token?.account === token?.account && e.token?.token === token?.token);
}

/**
 * A 404 for a token the user named is ambiguous evidence: the suite cannot list tokens, so it
 * cannot tell a token that was gone before the run (deleted by an earlier run, or by hand) from
 * one the server failed to find or delete. Findings say what was observed and name both readings.
 */
export function goneOrDefect(token: TokenRef | undefined, defect: string): string {
  return `Either ${defect}, or ${goneBeforeRun(token)}; the answers cannot tell which.`;
}

/** The other reading of a 404 for a given token, on its own: the finding's `alsoPossible`, shown in full beside the message. */
export function goneBeforeRun(token: TokenRef | undefined): string {
  const name = token ? `token ${token.account}/${token.token}` : 'the token';
  return `${name} no longer existed when the run started (deleted by an earlier run or by hand: pass fresh disposable --token values)`;
}

/**
 * An earlier request of another step that already deleted this exchange's token (the restricted
 * key, no key, a near-miss id): that request's own check owns the defect, and this step then
 * proves nothing. Returns the reason to report it as not checked.
 */
export function deletedEarlierBy(all: readonly Exchange[], exchange: Exchange): string | undefined {
  const token = exchange.token;
  if (!token) return undefined;
  const earlier = all.find((e) => e.seq < exchange.seq && e.step !== exchange.step && e.token?.account === token.account && e.token?.token === token.token && succeeded(e));
  return earlier && `an earlier request had already deleted the token ("${earlier.label}", step ${earlier.step})`;
}

export function succeeded(exchange: Exchange | undefined): boolean {
  return exchange?.response !== undefined && isSuccess(exchange.response.status);
}
