import { credentialName } from '../../credential-name.ts';
import { VARIANT_KIND } from '../../plan/variants/variant-kinds.ts';
import type { Exchange } from '../../types.ts';
import { COMPARING_KINDS, VERDICT_KINDS } from '../model/index.ts';
import type { VerdictClaim } from '../rule.ts';

/** The invariance variants among the exchanges whose kind files its findings under the check `check` (conformance/plan/variants/variant-kinds.ts). */
export function variantsOf(exchanges: readonly Exchange[], check: string): Exchange[] {
  return exchanges.filter((e) => e.variant !== undefined && VARIANT_KIND.get(e.variant.kind)?.check === check);
}

/** What the connection carried just before this request (a chain of invariance variants), for messages; undefined on a fresh connection. */
export function carriedBefore(exchange: Exchange, all: readonly Exchange[]): string | undefined {
  if (!exchange.variant || exchange.variant.fresh !== false) return undefined;
  const before = all.find((e) => e.seq === exchange.seq - 1 && e.variant?.chain === exchange.variant!.chain);
  if (!before) return undefined;
  const answer = before.response ? `answered ${before.response.status}` : 'not answered';
  const content = before.request?.body !== undefined ? ` and ${Buffer.byteLength(before.request.body)} bytes of content` : '';
  return `${before.method} ${before.path} ${credentialName(before.credential)}${content} (${answer})`;
}

/**
 * What a derived request (a variant, the overlap batch) can break on its own: every kind of
 * verdict but those that compare answers across the run (answer-stable, error-id-unique,
 * list-items-unique), which the rules of those kinds report with the variant's label: a stale
 * cache shows on whichever read comes third, variant or not.
 */
export const DERIVED_KINDS = VERDICT_KINDS.filter((kind) => !COMPARING_KINDS.has(kind));

/** The claim of a variant rule: the kinds of DERIVED_KINDS the model gives on a variant whose kind files under `rule`. */
export function variantClaim(rule: string): VerdictClaim {
  return { kinds: DERIVED_KINDS, steps: ['variant'], where: (e) => e.variant !== undefined && VARIANT_KIND.get(e.variant.kind)?.check === rule };
}
