import type { JsonSchema } from '../../contract/index.ts';
import { shapeKey } from './canonical-json.ts';

/**
 * A schema with `allOf` read as the one schema it amounts to (JSON Schema 2020-12 §10.2.1, `allOf`: an
 * instance must match every branch), so `$ref X` and `allOf: [$ref X, {one more property}]` compare
 * as X and X plus that property. Merged only where the conjunction is a plain union of keywords:
 * properties and required joined, types intersected, each other keyword written in one part (or
 * the same in all). Where it is not (two different `pattern`s, an `additionalProperties` that
 * closes one branch against another's properties), the schema is left as written and compared
 * branch by branch. `origin` says under which branch a keyword (or `properties/NAME`) was written,
 * so a change is reported where it is written: `.../allOf/1/properties/tags`.
 */
export interface MergedView {
  schema: JsonSchema;
  origin: Map<string, string>;
}

const MERGED = new WeakMap<object, MergedView | null>();
const ORIGINS = new WeakMap<object, Map<string, string>>();

/** Where a keyword of a schema that may be a merged view is written, under `at`. */
export function keywordAt(schema: unknown, at: string, keyword: string): string {
  const origin = schema && typeof schema === 'object' ? ORIGINS.get(schema) : undefined;
  return `${at}${origin?.get(keyword) ?? ''}/${keyword}`;
}

/** Where a property of a schema that may be a merged view is written: `${at}/properties/NAME` or under its branch. */
export function propertyAt(schema: unknown, at: string, token: string, name: string): string {
  const origin = schema && typeof schema === 'object' ? ORIGINS.get(schema) : undefined;
  return `${at}${origin?.get(`properties/${name}`) ?? origin?.get('properties') ?? ''}/properties${token}`;
}

const DOCUMENTATION = new Set(['description', 'title', 'example', 'examples', '$comment', 'externalDocs', 'xml', 'deprecated', '$id', '$schema', '$anchor', '$dynamicAnchor', '$defs']);

/** The merged view of a schema with `allOf`, or undefined when it has none or it cannot be merged. */
export function mergeAllOf(schema: unknown): JsonSchema | undefined {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema) || !Array.isArray((schema as JsonSchema).allOf)) return undefined;
  const known = MERGED.get(schema);
  if (known !== undefined) return known?.schema;
  MERGED.set(schema, null); // a cycle through allOf is not merged
  const view = merge(schema as JsonSchema);
  MERGED.set(schema, view ?? null);
  if (view) ORIGINS.set(view.schema, view.origin);
  return view?.schema;
}

/** The parts of a conjunction, each with the pointer suffix it is written at. */
function partsOf(schema: JsonSchema, suffix: string, depth: number): { part: JsonSchema; suffix: string }[] | undefined {
  if (depth > 8) return undefined;
  const { allOf, ...rest } = schema;
  const parts = [{ part: rest as JsonSchema, suffix }];
  for (const [i, branch] of (allOf as unknown[]).entries()) {
    if (branch === true || (branch && typeof branch === 'object' && Object.keys(branch).length === 0)) continue;
    if (!branch || typeof branch !== 'object' || Array.isArray(branch)) return undefined;
    const b = branch as JsonSchema;
    if (Array.isArray(b.allOf)) {
      const inner = partsOf(b, `${suffix}/allOf/${i}`, depth + 1);
      if (!inner) return undefined;
      parts.push(...inner);
    } else parts.push({ part: b, suffix: `${suffix}/allOf/${i}` });
  }
  return parts;
}

const CONJUNCTIONS = new WeakMap<object, WeakMap<object, JsonSchema>>();

/** `{allOf: [a, b]}`, one object per pair, so a comparison met twice is recognised as the same. */
export function conjunctionOf(a: unknown, b: unknown): unknown {
  if (!a || typeof a !== 'object' || !b || typeof b !== 'object') return { allOf: [a, b] };
  let byB = CONJUNCTIONS.get(a);
  if (!byB) CONJUNCTIONS.set(a, (byB = new WeakMap()));
  let both = byB.get(b);
  if (!both) byB.set(b, (both = { allOf: [a, b] }));
  return both;
}

function merge(schema: JsonSchema): MergedView | undefined {
  const parts = partsOf(schema, '', 0);
  if (!parts) return undefined;
  const merged: JsonSchema = {};
  const origin = new Map<string, string>();
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  let types: Set<string> | undefined;
  for (const { part, suffix } of parts) {
    for (const [keyword, value] of Object.entries(part)) {
      if (keyword === 'properties' && value && typeof value === 'object') {
        for (const [name, property] of Object.entries(value as Record<string, unknown>)) {
          if (!(name in properties)) {
            properties[name] = property;
            origin.set(`properties/${name}`, suffix);
          } else if (properties[name] !== property && shapeKey(properties[name]) !== shapeKey(property)) {
            // The same name in two branches (`name: {type: string}` in a base error body and
            // `name: {const: NotFoundError}` in the branch that extends it): both apply to its
            // value, as their own conjunction, merged in turn. Reported where the first is written.
            properties[name] = conjunctionOf(properties[name], property);
          }
        }
        if (!origin.has('properties')) origin.set('properties', suffix);
      } else if (keyword === 'required' && Array.isArray(value)) {
        for (const name of value) required.add(String(name));
        if (!origin.has('required')) origin.set('required', suffix);
      } else if (keyword === 'type') {
        const own = new Set((Array.isArray(value) ? value : [value]).map(String));
        // integer is a number (2020-12 §6.1.1): number ∩ integer is integer.
        const meet = (a: Set<string>, b: Set<string>) => new Set([...a].filter((t) => b.has(t) || (t === 'integer' && b.has('number'))).concat([...b].filter((t) => t === 'integer' && a.has('number'))));
        types = types ? meet(types, own) : own;
        if (!origin.has('type')) origin.set('type', suffix);
      } else if (keyword in merged) {
        if (DOCUMENTATION.has(keyword) || keyword.startsWith('x-')) continue;
        if (merged[keyword] !== value && shapeKey(merged[keyword]) !== shapeKey(value)) return undefined;
      } else {
        merged[keyword] = value;
        origin.set(keyword, suffix);
      }
    }
  }
  // additionalProperties in one part judges names against that part's properties only (2020-12 §10.3.2.3).
  for (const { part } of parts) {
    const additional = part.additionalProperties;
    if (additional === undefined || additional === true) continue;
    const own = new Set(Object.keys((part.properties ?? {}) as object));
    if (Object.keys(properties).some((name) => !own.has(name))) return undefined;
  }
  if (types) {
    if (types.size === 0) return undefined;
    merged.type = types.size === 1 ? [...types][0] : [...types];
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return { schema: merged, origin };
}
