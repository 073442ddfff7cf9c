import { pointerOf, pointerTokens } from './json-pointer.ts';

/**
 * Maps a pointer into the dereferenced spec onto the place it was authored: where the walk
 * passes a `$ref`, it continues at the referenced component. Findings then point at
 * `#/components/schemas/Environment/properties/type`, which a reader can open, rather than at a
 * path that exists only after dereferencing.
 */
export function authoredPointer(rawDocument: unknown, dereferencedPointer: string): string {
  let tokens: string[] = [];
  let node: unknown = rawDocument;
  for (const token of pointerTokens(dereferencedPointer)) {
    ({ tokens, node } = followRefs(rawDocument, tokens, node));
    if (node === null || typeof node !== 'object') return pointerOf([...tokens, token]);
    node = (node as Record<string, unknown>)[token];
    tokens = [...tokens, token];
  }
  return pointerOf(followRefs(rawDocument, tokens, node).tokens);
}

function followRefs(rawDocument: unknown, tokens: string[], node: unknown): { tokens: string[]; node: unknown } {
  const seen = new Set<unknown>();
  while (node && typeof node === 'object' && typeof (node as { $ref?: unknown }).$ref === 'string' && !seen.has(node)) {
    seen.add(node);
    const ref = (node as { $ref: string }).$ref;
    if (!ref.startsWith('#')) break;
    tokens = pointerTokens(ref);
    node = tokens.reduce<unknown>((n, t) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[t] : undefined), rawDocument);
  }
  return { tokens, node };
}
