import { isSuccess } from '../http-status.ts';
import type { Exchange, StepKind, TokenRef } from '../types.ts';

/** The earlier exchange of `step` on the same disposable token, if the scenario sent one. */
export function earlierStep(all: readonly Exchange[], before: Exchange, step: StepKind, token: TokenRef | undefined = before.token): Exchange | undefined {
  return all.find((e) => e.step === step && e.seq < before.seq && e.token?.account === token?.account && e.token?.token === token?.token);
}

export function succeeded(exchange: Exchange | undefined): boolean {
  return exchange?.response !== undefined && isSuccess(exchange.response.status);
}
