import { decodedOrAsIs } from '../../src/contract/index.ts';
import { isSuccess } from '../http-status.ts';
import { credentialName } from '../credential-name.ts';
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
export function goneOrDefect(token: TokenRef | undefined, defect: string, history?: History): string {
  const earlier = history && touchedBefore(history);
  return `Either ${defect}, or ${earlier ? `${earlier}, or ` : ''}${goneBeforeRun(token)}; the answers cannot tell which.`;
}

/** The other readings of a 404 for a given token, on their own: the finding's `alsoPossible`, shown in full beside the message. */
export function goneBeforeRun(token: TokenRef | undefined, history?: History): string {
  const name = token ? `token ${token.account}/${token.token}` : 'the token';
  const earlier = history && touchedBefore(history);
  return `${earlier ? `${earlier}; or ` : ''}${name} no longer existed when the run started (deleted by an earlier run or by hand: pass fresh disposable --token values)`;
}

/** The run's exchanges and the one that found the token gone. */
export interface History {
  all: readonly Exchange[];
  exchange: Exchange;
}

/**
 * The earlier requests of the run to this token's path that must change nothing (a refused key, a
 * method the spec does not list there, an OPTIONS or HEAD), named as a reading of a 404: one of
 * them may have deleted the token (spec decisions credentials-and-permissions, unlisted-methods).
 * A full-key DELETE is no suspect: one that succeeded is deletedEarlierBy()'s. Paths are compared
 * decoded, without the query (RFC 3986 §6.2.2).
 */
function touchedBefore({ all, exchange }: History): string | undefined {
  const path = samePath(exchange.path);
  const suspects = all.filter((e) => e.seq < exchange.seq && e.response !== undefined && !(e.method === 'DELETE' && e.credential === 'full') && samePath(e.path) === path);
  if (suspects.length === 0) return undefined;
  // The likeliest first: an answer that did something (2xx) over a refusal, then a key that passes auth (the full key, the restricted one) over none.
  const rank = (e: Exchange) => (isSuccess(e.response!.status) ? 0 : 3) + (e.credential === 'full' ? 0 : e.credential === 'restricted' ? 1 : 2);
  const named = [...suspects].sort((a, b) => rank(a) - rank(b) || a.seq - b.seq).slice(0, 3).map((e) => `${e.method} ${credentialName(e.credential)} (#${e.seq}, answered ${e.response!.status})`);
  const more = suspects.length > 3 ? ` and ${suspects.length - 3} more` : '';
  const which = suspects.length === 1 ? 'the earlier request' : `one of the ${suspects.length} earlier requests`;
  return `${which} to this token that must change nothing deleted it (${named.join(', ')}${more}: a refused request, or one of a method the spec does not list there, leaves the token as it was; spec decisions credentials-and-permissions, unlisted-methods)`;
}

function samePath(path: string): string {
  return decodedOrAsIs(path.split('?')[0]!);
}



const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * An earlier request of another step that already deleted this exchange's token (the restricted
 * key, no key, a near-miss id): that request's own check owns the defect, and this step then
 * proves nothing. Returns the reason to report it as not checked.
 */

export function deletedEarlierBy(all: readonly Exchange[], exchange: Exchange): string | undefined {
  const token = exchange.token;
  if (!token) return undefined;
  // A success to a safe method (RFC 9110 §9.2.1: GET, HEAD, OPTIONS, TRACE; a preflight's 204 among them) deleted nothing.
  const earlier = all.find((e) => e.seq < exchange.seq && e.step !== exchange.step && !SAFE_METHODS.has(e.method) && e.token?.account === token.account && e.token?.token === token.token && succeeded(e));
  return earlier && `an earlier request had already deleted the token ("${earlier.label}", step ${earlier.step})`;
}

export function succeeded(exchange: Exchange | undefined): boolean {
  return exchange?.response !== undefined && isSuccess(exchange.response.status);
}
