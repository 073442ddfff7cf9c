/**
 * A dereferenced copy of a document whose every `$ref` names a component of the same document
 * (`#/components/schemas/Pet`, RFC 6901 pointer in a fragment, OAS 3.1 §4.8.23): each reference
 * object is replaced by the component it names, after the references the component itself is
 * (`Alias: {$ref: Error}`), so one component is one object wherever it is used and a recursive
 * schema becomes a cycle; the document itself is left as written. That is what swagger-parser's
 * dereference produces for such a document (dereference-internal.test.ts and the real-documents
 * tier hold the two to the same values and the same sharing); done here, it costs one walk, the
 * copy included, instead of a copy (structuredClone) and swagger-parser's resolver and crawler,
 * which took ~2.7 s of GitHub's 22 -> 23 diff (~10,000 references each, all to components).
 *
 * Returns undefined for anything else: a reference to another file or to a place that is not a
 * component, one with siblings (swagger-parser merges those), one not written as a plain name, one
 * that does not resolve (swagger-parser's error names it), a loop of references, a `$id` (it moves
 * the base a fragment resolves against, JSON Schema 2020-12 Core §8.2.1). swagger-parser reads those.
 */
export function dereferencedComponentRefs(document: Record<string, unknown>): Record<string, unknown> | undefined {
  if ('$id' in document || '$ref' in document) return undefined;
  const components = document.components;
  const targets = new Map<string, object | undefined>();
  /** The component a reference names, after the references the component itself is; undefined where it does not resolve or loops. */
  const targetOf = (ref: string): object | undefined => {
    if (targets.has(ref)) return targets.get(ref);
    const chain = new Set<string>();
    let at = ref;
    let found: object | undefined;
    for (;;) {
      if (chain.has(at) || !COMPONENT_REF.test(at)) break;
      chain.add(at);
      const [, kind, name] = COMPONENT_REF.exec(at)!;
      const map = components !== null && typeof components === 'object' ? (components as Record<string, unknown>)[kind!] : undefined;
      if (map === null || typeof map !== 'object' || '$ref' in map || !Object.hasOwn(map, name!)) break;
      const value = (map as Record<string, unknown>)[name!];
      if (value === null || typeof value !== 'object') break;
      const next = (value as { $ref?: unknown }).$ref;
      if (next === undefined) {
        found = value;
        break;
      }
      if (typeof next !== 'string' || Object.keys(value).length !== 1) break;
      at = next;
    }
    for (const link of chain) targets.set(link, found);
    targets.set(ref, found);
    return found;
  };
  // The copy of each object met, so a component is copied once and a recursive one becomes a cycle.
  const copies = new Map<object, object>();
  const copy = (node: object): object | undefined => {
    const known = copies.get(node);
    if (known) return known;
    const out: Record<string, unknown> = Array.isArray(node) ? ([] as unknown as Record<string, unknown>) : {};
    copies.set(node, out);
    for (const key of Object.keys(node)) {
      let value = (node as Record<string, unknown>)[key];
      if (value !== null && typeof value === 'object') {
        if ('$id' in value) return undefined;
        if ('$ref' in value) {
          const ref = (value as { $ref: unknown }).$ref;
          if (typeof ref !== 'string' || Object.keys(value).length !== 1) return undefined;
          value = targetOf(ref);
          if (value === undefined) return undefined;
        }
        value = copy(value as object);
        if (value === undefined) return undefined;
      }
      // A JSON member named __proto__ is an own property (JSON.parse makes it one), not the prototype.
      if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
    }
    return out;
  };
  return copy(document) as Record<string, unknown> | undefined;
}

/** `#/components/{kind}/{name}` with names that need no unescaping (RFC 6901 §4, RFC 3986 §2.1): others go to swagger-parser. */
const COMPONENT_REF = /^#\/components\/([A-Za-z0-9._-]+)\/([A-Za-z0-9._-]+)$/;
