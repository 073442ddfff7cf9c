import type { SchemaKind } from './diff-rules.ts';

/** Bodies that, between `^` and `$`, match any one-line string. */
const ANY_BODY = new Set(['.*', '[\\s\\S]*', '[\\S\\s]*', '[\\w\\W]*', '[\\d\\D]*', '[^]*', '(.*)', '(?:.*)']);

/**
 * Whether a pattern (ECMA-262, unanchored as JSON Schema applies it) accepts every string: an
 * absent one, one that can match the empty string with nothing that pins a position (an
 * unanchored search then succeeds everywhere), or `^.*$` and its spellings (every string without
 * a line break, which is what authors mean by it).
 */
export function matchesEverything(pattern: string | undefined): boolean {
  if (pattern === undefined) return true;
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern, 'u');
  } catch {
    return false;
  }
  if (!/[$^]|\\[bB]|\(\?<?[=!]/.test(pattern) && compiled.test('')) return true;
  return ANY_BODY.has(pattern.replace(/^\^/, '').replace(/\$$/, ''));
}

/**
 * What a pattern change does to the set of allowed strings, where that is decidable: a pattern
 * added or tightened from match-all narrows, one removed or relaxed to match-all widens. Between
 * two real patterns, inclusion of regular languages is decidable in theory but not by a regex
 * engine, so it is `pattern-changed`, a warning in both directions, never breaking by default.
 */
export function classifyPattern(before: string | undefined, after: string | undefined): { kind: SchemaKind; why: string } {
  const wasAll = matchesEverything(before);
  const isAll = matchesEverything(after);
  if (wasAll && !isAll) return { kind: 'constraint-narrowed', why: before === undefined ? 'pattern added' : 'from match-all to a pattern' };
  if (!wasAll && isAll) return { kind: 'constraint-widened', why: after === undefined ? 'pattern removed' : 'to match-all' };
  if (wasAll && isAll) return { kind: 'pattern-changed', why: 'both match every string' };
  return { kind: 'pattern-changed', why: 'neither pattern is known to include the other' };
}
