/** JSON with sorted keys, so key order never makes a difference. Only for acyclic values. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
}

/**
 * Canonical JSON of a value that may be a cycle (a dereferenced recursive schema): keys sorted,
 * a value met again on its own path written as a back-reference, and documentation keys left out
 * so two schemas that accept the same values compare equal.
 */
export function shapeKey(value: unknown, path: unknown[] = []): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const depth = path.indexOf(value);
  if (depth >= 0) return `<cycle ${path.length - depth}>`;
  const inner = [...path, value];
  if (Array.isArray(value)) return `[${value.map((v) => shapeKey(v, inner)).join(',')}]`;
  const entries = Object.entries(value)
    .filter(([key]) => !DOCUMENTATION_ONLY.has(key) && !key.startsWith('x-'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, v]) => `${JSON.stringify(key)}:${shapeKey(v, inner)}`).join(',')}}`;
}

const DOCUMENTATION_ONLY = new Set(['description', 'title', 'example', 'examples', '$comment', 'externalDocs', 'xml', 'deprecated']);

