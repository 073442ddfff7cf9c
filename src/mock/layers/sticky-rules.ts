import type { Forcing } from './prefer-header.ts';

/** Rules one session holds at most by default (`--max-rules`): each request of the session scans them. */
export const DEFAULT_MAX_RULES = 100;

/** The largest `count` of a rule: more uses than any test sends, and a number a counter keeps exactly (1e308 and 2^53 do not). */
export const MAX_RULE_COUNT = 1_000_000;

/**
 * A forced answer that stays: set per session through the control API, e.g. "the next 2
 * deletes answer 403" ({operationId: 'deleteServiceAccountToken', code: 403, count: 2}) or
 * "every environments read waits 800 ms" ({operationId: 'getProjectEnvironments', delay: 800}).
 */
export interface StickyRule extends Forcing {
  operationId: string;
  /** Answers left; absent: every matching request, until the rules are cleared or reset. */
  count?: number;
}

/** Counts one use of a rule; a rule whose count reaches 0 is removed. */
export function useRule(rules: StickyRule[], rule: StickyRule): void {
  if (rule.count !== undefined && --rule.count <= 0) rules.splice(rules.indexOf(rule), 1);
}
