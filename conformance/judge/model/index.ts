/**
 * The model of the contract: for any request, the set of answers the contract allows given what
 * the run has seen so far, and verdicts on exchanges anyone sent (the suite's plan, random
 * sequences, a proxy's live traffic). Built from the spec and its decisions (`x-decisions`, and
 * the machine-readable annotations listed in spec-annotations.ts); it holds no copy of them.
 *
 * Stable API (extend, do not break):
 *
 *   const state = createRunState({ contract, forbidden: ['getOidcSettings'] });
 *   state.declare({ method: 'DELETE', path: '/api/admin/service-account/1/token/1' }, 'exists');
 *   allowedAnswers(request, state)  -> { statuses, rule, because, malformed, ... }
 *   judgeExchange(exchange, state)  -> Verdict[]   (then state.observe(exchange))
 *   judgeConcurrent(batch, state)   -> Verdict[][] (then observe each)
 *   judgeRun(exchanges, state)      -> Verdict[][] (judges and observes in order, batches at once)
 *   credentialOf(headerValue, keys) -> ModelCredential, for traffic whose keys are partly known
 *
 * A request is `{ method, path, credential }`: the path relative to the base URL as sent, the
 * credential `none | invalid | restricted | full | unknown`. A verdict names its kind (VERDICT_KINDS);
 * the rule of the registry that claims that kind reports it (conformance/judge/judge.ts).
 *
 * Why not the mock's core (src/mock/core)? The mock answers from a complete state it owns: one
 * answer per request. A judge of a server it does not own knows only part of the state (a token
 * nobody named may or may not exist) and must accept every answer the contract allows, so it
 * reasons over facts (exists / missing / deleted / unknown) rather than records. What both share
 * is the contract layer: routes, path decoding, documented statuses, error kinds and validators
 * come from src/contract for both, and the auth order is the same decision read from the spec.
 */
export { allowedAnswers, brokenRule, toleratedRefusal, unlistedMethodRefusals, COMPARING_KINDS, VERDICT_KINDS, type AllowedAnswers, type VerdictKind } from './allowed-answers.ts';
export { credentialOf } from './credential-of.ts';
export { judgeConcurrent, judgeExchange, type Verdict } from './judge-exchange.ts';
export { judgeRun } from './judge-run.ts';
export { createRunState, readKey, resourceOf, type ModelCredential, type ModelExchange, type ModelRequest, type ModelResponse, type ResourceFact, type RunState, type RunStateOptions } from './run-state.ts';
export { comparableForm, instanceIds, perInstanceValues, repeatedKeys, toleratedRefusals } from './spec-annotations.ts';
