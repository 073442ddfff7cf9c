import { shapeKey } from './canonical-json.ts';

/** One branch of `allOf`/`anyOf`/`oneOf`: its dereferenced schema and the component it references, if any. */
export interface Branch {
  schema: unknown;
  /** The authored `$ref` target (`/components/schemas/Cat`), or undefined for an inline branch; asked only when structure does not pair it. */
  ref: () => string | undefined;
}

/**
 * Pairs OLD branches with NEW ones by what they are, not where they sit: first branches that are
 * the same schema, then the same `$ref`, then the same title, then the same discriminating value
 * (a property with a `const` or one-value `enum`), then the same type with the most property
 * names in common. What stays unpaired was removed or added.
 */
export function pairBranches(before: Branch[], after: Branch[]): { pairs: [number, number][]; removed: number[]; added: number[] } {
  const freeOld = new Set(before.keys());
  const freeNew = new Set(after.keys());
  const pairs: [number, number][] = [];
  const pairBy = (key: (branch: Branch) => string | undefined) => {
    // Each key computed once: a structural key walks the whole branch.
    const newKeys = new Map([...freeNew].map((n) => [n, key(after[n]!)]));
    for (const i of [...freeOld]) {
      const k = key(before[i]!);
      if (k === undefined) continue;
      const j = [...freeNew].find((n) => newKeys.get(n) === k);
      if (j === undefined) continue;
      pairs.push([i, j]);
      freeOld.delete(i);
      freeNew.delete(j);
    }
  };
  pairBy((b) => shapeKey(b.schema));
  pairBy((b) => b.ref());
  pairBy((b) => titleOf(b.schema));
  pairBy((b) => discriminatingValue(b.schema));
  // Last, the closest remaining pair by shared property names (at least half of either side's).
  for (const i of [...freeOld]) {
    let best: { j: number; score: number } | undefined;
    for (const j of freeNew) {
      const score = similarity(before[i]!.schema, after[j]!.schema);
      if (score > 0.5 && (!best || score > best.score)) best = { j, score };
    }
    if (!best) continue;
    pairs.push([i, best.j]);
    freeOld.delete(i);
    freeNew.delete(best.j);
  }
  return { pairs, removed: [...freeOld], added: [...freeNew] };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function titleOf(schema: unknown): string | undefined {
  const title = record(schema)?.title;
  return typeof title === 'string' ? `title ${title}` : undefined;
}

function discriminatingValue(schema: unknown): string | undefined {
  const properties = record(record(schema)?.properties) ?? {};
  const found = Object.entries(properties).flatMap(([name, property]) => {
    const p = record(property);
    if (p?.const !== undefined) return [`${name}=${JSON.stringify(p.const)}`];
    if (Array.isArray(p?.enum) && p.enum.length === 1) return [`${name}=${JSON.stringify(p.enum[0])}`];
    return [];
  });
  return found.length > 0 ? found.sort().join('&') : undefined;
}

/** Jaccard similarity of property names, or of the types for schemas without properties. */
function similarity(a: unknown, b: unknown): number {
  const names = (s: unknown) => {
    const props = Object.keys(record(record(s)?.properties) ?? {});
    if (props.length > 0) return new Set(props.map((p) => `p:${p}`));
    const type = record(s)?.type;
    return new Set((Array.isArray(type) ? type : type === undefined ? [] : [type]).map((t) => `t:${String(t)}`));
  };
  const x = names(a);
  const y = names(b);
  if (x.size === 0 || y.size === 0) return 0;
  const common = [...x].filter((n) => y.has(n)).length;
  return common / (x.size + y.size - common);
}
