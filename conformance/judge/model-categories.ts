import type { Rule, Verdict } from './model/index.ts';
import { VARIANT_KIND } from '../plan/variants/variant-kinds.ts';
import type { Exchange, StepKind } from '../types.ts';

/**
 * The named check under which the suite reports a model verdict: the report keeps its
 * categories (check ids, severities, --skip-check) while one model decides what is right.
 * A rule maps by the kind of request it was broken on, never by the status it got.
 */
export function categoryOf(rule: Rule, exchange: Exchange): string {
  // An invariance variant is judged by the allowed answers of the request it was made from: whatever rule it breaks, the variant is the defect's cause.
  if (exchange.variant) return VARIANT_KIND.get(exchange.variant.kind)!.check;
  if (exchange.step === 'overlap') return 'overlap-independent';
  switch (rule) {
    case 'server-error':
      return 'not-a-server-error';
    case 'status-documented':
      return 'status-code-documented';
    case 'media-type':
      return 'content-type-conformance';
    case 'body-schema':
      return 'response-schema-conformance';
    case 'error-kind':
      return 'error-kind-conformance';
    case 'no-body':
      return 'no-undocumented-body';
    case 'auth-required':
      return exchange.keyVariant ? 'near-miss-key-rejected' : exchange.credential === 'none' ? 'auth-missing-rejected' : 'auth-invalid-rejected';
    case 'permission-required':
      return 'restricted-key-forbidden';
    case 'valid-key-accepted':
      return exchange.credential === 'restricted' ? 'restricted-key-accepted' : exchange.method === 'GET' ? 'documented-success' : 'delete-token-succeeds';
    case 'full-key-allowed':
      return 'full-key-never-forbidden';
    case 'resource-exists':
      return STEP_CATEGORY[exchange.step] ?? (exchange.method === 'GET' ? 'documented-success' : 'delete-token-succeeds');
    case 'resource-missing':
      return STEP_CATEGORY[exchange.step] ?? (exchange.method === 'GET' ? 'missing-project-not-found' : 'unknown-token-not-found');
    case 'resource-gone':
      return STEP_CATEGORY[exchange.step] ?? 'delete-again-not-found';
    case 'method-refused':
      return 'unlisted-method-rejected';
    case 'answer-stable':
      return 'answers-agree';
    case 'error-id-unique':
      return 'error-ids-unique';
    case 'list-items-unique':
      return 'list-items-unique';
    case 'permission-consistent':
      return 'restricted-key-accepted';
  }
}

/** Steps whose resource rules have a check of their own. */
const STEP_CATEGORY: Partial<Record<StepKind, string>> = {
  'near-miss-project': 'near-miss-project-not-found',
  'near-miss-token': 'near-miss-token-not-found',
  'near-miss-account': 'near-miss-token-not-found',
  'cross-account-delete': 'cross-account-delete-rejected',
  'concurrent-delete': 'concurrent-delete-single-success',
  'final-probe': 'deletions-last',
  'bystander-delete': 'bystanders-untouched',
  'odd-id': 'odd-id-rejected',
  'repeat-read': 'answers-agree',
};

/**
 * Rules whose verdict is the only word on a defect that spans exchanges (it compares an answer
 * with earlier ones): reported even when a named check already has a finding on the exchange.
 */
export const RUN_WIDE_RULES: ReadonlySet<Rule> = new Set(['answer-stable', 'error-id-unique', 'list-items-unique']);

export type { Verdict };
