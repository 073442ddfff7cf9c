import { createHash } from 'node:crypto';

/** JSON with sorted keys, so key order never makes a difference. Only for acyclic values. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
}

/**
 * A structural key of a value that may be a cycle or a heavily shared graph (a dereferenced spec
 * whose schemas refer to one another): keys sorted, documentation keys left out so two schemas
 * that accept the same values compare equal, and compared to a depth of 16. A key is a pure
 * function of (value, depth), so it is memoized, and long ones are hashed: walking the graph as a
 * tree instead is exponential in the number of references (minutes on a few hundred schemas).
 */
export function shapeKey(value: unknown, depth = 16): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (depth === 0) return '…';
  const byDepth = KEYS.get(value) ?? new Map<number, string>();
  const known = byDepth.get(depth);
  if (known !== undefined) return known;
  const body = Array.isArray(value)
    ? `[${value.map((v) => shapeKey(v, depth - 1)).join(',')}]`
    : `{${Object.entries(value)
        .filter(([key]) => !DOCUMENTATION_ONLY.has(key) && !key.startsWith('x-'))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, v]) => `${JSON.stringify(key)}:${shapeKey(v, depth - 1)}`)
        .join(',')}}`;
  const key = body.length > 80 ? `#${createHash('sha1').update(body).digest('base64')}` : body;
  KEYS.set(value, byDepth.set(depth, key));
  return key;
}

const KEYS = new WeakMap<object, Map<number, string>>();

const DOCUMENTATION_ONLY = new Set(['description', 'title', 'example', 'examples', '$comment', 'externalDocs', 'xml', 'deprecated']);

