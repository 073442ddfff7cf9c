import { parsedBodyOf } from './rule.ts';
import type { Exchange } from '../types.ts';

/**
 * Values of `format: password` properties (e.g. the OIDC secret) in the bodies of a run, so that
 * an echo of one elsewhere (in an error message, encoded) is redacted like the keys. Walked
 * iteratively: a body's depth cannot exhaust the stack.
 */
export function secretsSeen(exchanges: readonly Exchange[], secretProperties: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  if (secretProperties.size === 0) return [];
  for (const exchange of exchanges) {
    if (!exchange.response) continue;
    const body = parsedBodyOf(exchange.response);
    if (!body.ok) continue;
    const stack: unknown[] = [body.value];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node === null || typeof node !== 'object') continue;
      for (const [name, value] of Object.entries(node)) {
        if (secretProperties.has(name) && typeof value === 'string') found.add(value);
        else stack.push(value);
      }
    }
  }
  return [...found];
}
