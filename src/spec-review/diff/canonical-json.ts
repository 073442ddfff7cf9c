import { createHash } from 'node:crypto';

/** JSON with sorted keys, so key order never makes a difference. Only for acyclic values. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
}

/**
 * A structural key of a value that may be a cycle or a heavily shared graph (a dereferenced spec
 * whose schemas refer to one another): keys sorted, documentation keywords left out so two schemas
 * that accept the same values compare equal, and compared to a depth of 16. A key is a pure
 * function of (value, depth, what it is), so it is memoized, and long ones are hashed: walking the
 * graph as a tree instead is exponential in the number of references (minutes on a few hundred schemas).
 *
 * Only a schema's keywords are documentation: the names of a `properties` map (a property may be
 * called `title` or `description`) and the values of `enum`, `const` and `default` (data, 2020-12
 * §6.1.2-3) are kept whole.
 */
export function shapeKey(value: unknown, depth = 16, what: 'schema' | 'names' | 'data' = 'schema'): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (depth === 0) return '…';
  const byDepth = KEYS[what].get(value) ?? new Map<number, string>();
  const known = byDepth.get(depth);
  if (known !== undefined) return known;
  const inner = (key: string): 'schema' | 'names' | 'data' => (what === 'data' ? 'data' : what === 'names' ? 'schema' : NAME_MAPS.has(key) ? 'names' : DATA.has(key) ? 'data' : 'schema');
  const body = Array.isArray(value)
    ? `[${value.map((v) => shapeKey(v, depth - 1, what === 'data' ? 'data' : 'schema')).join(',')}]`
    : `{${Object.entries(value)
        .filter(([key]) => what !== 'schema' || (!DOCUMENTATION_ONLY.has(key) && !key.startsWith('x-')))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, v]) => `${JSON.stringify(key)}:${shapeKey(v, depth - 1, inner(key))}`)
        .join(',')}}`;
  const key = body.length > 80 ? `#${createHash('sha1').update(body).digest('base64')}` : body;
  KEYS[what].set(value, byDepth.set(depth, key));
  return key;
}

const KEYS = { schema: new WeakMap<object, Map<number, string>>(), names: new WeakMap<object, Map<number, string>>(), data: new WeakMap<object, Map<number, string>>() };

const DOCUMENTATION_ONLY = new Set(['description', 'title', 'example', 'examples', '$comment', 'externalDocs', 'xml', 'deprecated']);
/** Keywords whose value is a map from names (of properties, patterns, definitions, parts) to schemas or objects. */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependentRequired', '$defs', 'definitions', 'encoding', 'headers', 'content', 'mapping']);
/** Keywords whose value is data, not schema. */
const DATA = new Set(['enum', 'const', 'default']);
