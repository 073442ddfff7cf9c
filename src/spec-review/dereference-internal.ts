/**
 * Dereferences, in place, a document whose every `$ref` names a component of the same document
 * (`#/components/schemas/Pet`, RFC 6901 pointer in a fragment, OAS 3.1 §4.8.23): each reference
 * object is replaced by the component it names, after the references the component itself is
 * (`Alias: {$ref: Error}`), so one component is one object wherever it is used and a recursive
 * schema becomes a cycle. That is what swagger-parser's dereference produces for such a document
 * (dereference-internal.test.ts holds the two to the same values and the same sharing); done
 * here, it costs one walk instead of swagger-parser's resolver and crawler, which took ~2.3 s of
 * GitHub's 22 -> 23 diff (~10,000 references each, all to components).
 *
 * Returns false, the document untouched, for anything else: a reference to another file or to a
 * place that is not a component, one with siblings (swagger-parser merges those), one not written
 * as a plain name, one that does not resolve (swagger-parser's error names it), a loop of
 * references, a `$id` (it moves the base a fragment resolves against, JSON Schema 2020-12 Core
 * §8.2.1). swagger-parser reads those.
 */
export function dereferenceComponentRefs(document: Record<string, unknown>): boolean {
  const found: { holder: Record<string, unknown>; key: string; ref: string }[] = [];
  const readable = (node: Record<string, unknown>): boolean => {
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (value === null || typeof value !== 'object') continue;
      const child = value as Record<string, unknown>;
      if ('$id' in child) return false;
      if ('$ref' in child) {
        const ref = child.$ref;
        if (typeof ref !== 'string' || !COMPONENT_REF.test(ref) || Object.keys(child).length !== 1) return false;
        found.push({ holder: node, key, ref });
        continue;
      }
      if (!readable(child)) return false;
    }
    return true;
  };
  if ('$id' in document || '$ref' in document || !readable(document)) return false;

  const components = document.components;
  const targets = new Map<string, object>();
  const targetOf = (ref: string): object | undefined => {
    const known = targets.get(ref);
    if (known) return known;
    const chain = new Set<string>();
    let at = ref;
    for (;;) {
      if (chain.has(at)) return undefined;
      chain.add(at);
      const [, kind, name] = COMPONENT_REF.exec(at)!;
      const map = components !== null && typeof components === 'object' ? (components as Record<string, unknown>)[kind!] : undefined;
      if (map === null || typeof map !== 'object' || '$ref' in map || !Object.hasOwn(map, name!)) return undefined;
      const value = (map as Record<string, unknown>)[name!];
      if (value === null || typeof value !== 'object') return undefined;
      const next = (value as { $ref?: unknown }).$ref;
      if (typeof next !== 'string') {
        for (const link of chain) targets.set(link, value);
        return value;
      }
      at = next;
    }
  };
  // Every target is found before anything is replaced: a document given back to swagger-parser is as written.
  const resolved = found.map(({ ref }) => targetOf(ref));
  if (resolved.some((target) => target === undefined)) return false;
  found.forEach(({ holder, key }, index) => {
    holder[key] = resolved[index];
  });
  return true;
}

/** `#/components/{kind}/{name}` with names that need no unescaping (RFC 6901 §4, RFC 3986 §2.1): others go to swagger-parser. */
const COMPONENT_REF = /^#\/components\/([A-Za-z0-9._-]+)\/([A-Za-z0-9._-]+)$/;
