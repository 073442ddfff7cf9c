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
    if (!exchange.response || !mayNameOneOf(exchange.response.body, secretProperties)) continue;
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

/**
 * Whether a JSON text can hold a member named one of `names`: a member name is in the text as
 * written, or escaped (RFC 8259 §7), so a text with neither the name nor a backslash holds none.
 * Most bodies (every error body, the environments) name no secret property: no walk for them.
 */
function mayNameOneOf(text: string, names: ReadonlySet<string>): boolean {
  if (text.includes('\\')) return true;
  for (const name of names) if (text.includes(name)) return true;
  return false;
}
