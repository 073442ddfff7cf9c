import { FORBIDDEN, isSuccess, UNAUTHORIZED } from '../http-status.ts';
import type { Judgement } from './rule.ts';
import { COMPARING_KINDS, type Verdict } from './model/index.ts';
import type { Exchange } from '../types.ts';
import { VARIANT_KIND } from '../plan/variants/variant-kinds.ts';

/** Steps whose requests were derived from the plan's own (issue 18): invariance variants and the overlap batch. */
const DERIVED_STEPS: ReadonlySet<Exchange['step']> = new Set(['variant', 'overlap']);

export const isDerived = (exchange: Exchange): boolean => DERIVED_STEPS.has(exchange.step);

/**
 * The plan's own request a derived one (a variant, the overlap batch) was made from, as far as the
 * contract tells them apart: the same operation and key, and where the full key is used the same
 * resource (a key that must be refused is refused before any lookup, API §5, so there the path
 * does not matter); HEAD is compared with GET.
 */
function isTwin(derived: Exchange, base: Exchange): boolean {
  if (DERIVED_STEPS.has(base.step) || base.keyVariant || base.step === 'random-step') return false;
  if (base.operationId !== derived.operationId || credentialOf(base) !== credentialOf(derived) || (base.keyIndex ?? 0) !== (derived.keyIndex ?? 0)) return false;
  const method = derived.method === 'HEAD' ? 'GET' : derived.method;
  if (base.method !== method) return false;
  // A query string the spec does not name addresses the same resource (the `query` variant).
  const resource = (e: Exchange) => e.path.split('?')[0];
  return credentialOf(derived) !== 'full' || resource(base) === resource(derived);
}

/** The credential a request presents: two Authorization lines with the full key among them are no key, an invalid one (spec decision malformed-requests). */
function credentialOf(exchange: Exchange): Exchange['credential'] {
  return exchange.variant && VARIANT_KIND.get(exchange.variant.kind)?.wire?.authorizationTwice ? 'invalid' : exchange.credential;
}

/**
 * Metamorphic testing judges a variant relative to its base request: a variant answered as its
 * base was, where the base's answer is already a finding, shows no defect of its own (the base's
 * finding is it), and neither does one whose answer differs from a base answer that is a finding.
 * Those findings are dropped, so that a server wrong on every request is not
 * reported again once per variant under the variants' rules; what a variant gets that its base
 * does not get stays.
 */
export function withoutBaseDefects(judged: Judgement[][], exchanges: readonly Exchange[], verdicts?: ReadonlyMap<number, readonly Verdict[]>): Judgement[][] {
  // Only findings on derived requests are ever dropped: with none among the exchanges (the proxy's, one at a time), nothing is.
  if (!exchanges.some(isDerived)) return judged;
  const failing = new Set<number>();
  for (const judgements of judged) for (const j of judgements) if (j.verdict === 'failed' && !DERIVED_STEPS.has(j.finding.exchange.step)) failing.add(j.finding.exchange.seq);
  // A base the model found wrong is failing too where its finding was filed on another request of the same defect (one defect, one
  // finding: a server that answers 200 for every missing id is reported once), e.g. Unleash's 200 for any project id. Only what the
  // contract says of the request itself: a verdict that compares answers (a read changed since an earlier one) may have been filed
  // on the derived request, which is then the finding, not a repeat of it.
  if (verdicts) for (const e of exchanges) if (!DERIVED_STEPS.has(e.step) && verdicts.get(e.seq)?.some((v) => !COMPARING_KINDS.has(v.rule))) failing.add(e.seq);
  // The same answer as a failing twin; or, for a key that must be refused, past auth where the twin got past auth too (what it reached then differs: a token the twin already deleted).
  const pastAuth = (status: number | undefined) => status !== undefined && status !== UNAUTHORIZED && status !== FORBIDDEN;
  // A 304 the run accepted stands for the 200 it confirms (judge/not-modified.ts): the same answer as a twin's 2xx.
  const statusOf = (derived: Exchange, base: Exchange) => (derived.response!.status === 304 && base.response !== undefined && isSuccess(base.response.status) ? base.response.status : derived.response!.status);
  const sameDefect = (derived: Exchange, base: Exchange) => base.response?.status === statusOf(derived, base) || (credentialOf(derived) !== 'full' && pastAuth(base.response?.status) && pastAuth(derived.response!.status));
  const repeatsBase = (derived: Exchange) => derived.response !== undefined && exchanges.some((base) => failing.has(base.seq) && isTwin(derived, base) && sameDefect(derived, base));
  // An answer that differs from a wrong one is no defect for differing: the wrong one is the finding (an empty Authorization refused where the request without any was let through).
  const contradictsDefect = (j: Judgement) => j.verdict === 'failed' && j.finding.contradicts !== undefined && failing.has(j.finding.contradicts);
  // On a derived request, a finding of its own (a 401 let through) is the defect; that its answer also differs from an earlier one says it again.
  const ownFinding = new Set<number>();
  for (const judgements of judged) for (const j of judgements) if (j.verdict === 'failed' && DERIVED_STEPS.has(j.finding.exchange.step) && j.finding.contradicts === undefined) ownFinding.add(j.finding.exchange.seq);
  const memo = new Map<number, boolean>();
  return judged.map((judgements) =>
    judgements.filter((j) => {
      if (j.verdict !== 'failed' || !DERIVED_STEPS.has(j.finding.exchange.step)) return true;
      if (contradictsDefect(j)) return false;
      if (j.finding.contradicts !== undefined && ownFinding.has(j.finding.exchange.seq)) return false;
      const seq = j.finding.exchange.seq;
      if (!memo.has(seq)) memo.set(seq, repeatsBase(j.finding.exchange));
      return !memo.get(seq);
    }),
  );
}
