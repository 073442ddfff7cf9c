import { pointerOf } from '../../contract/neutral.ts';

/**
 * How deep a fixture or a rule may nest. The deepest value the fixture schema describes sits 5
 * levels down (/projects/0/environments/0/name); the limit leaves room for objects a spec may
 * add, and keeps every recursive reader after this check (the schema validator,
 * structuredClone, JSON.stringify) far from the stack's end, which ~10,000 levels reach.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Keys refused anywhere in a fixture or a rule: read into a plain object, `__proto__` would
 * replace its prototype, and `constructor`/`prototype` are how prototype pollution reaches
 * shared objects. None is a name the spec gives a property.
 */
export const FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

export interface StructureProblem {
  pointer: string;
  expected: string;
  got: string;
}

interface Visit {
  value: unknown;
  depth: number;
  token: string | number | undefined;
  parent: Visit | undefined;
}

/**
 * The first place where a parsed JSON value nests deeper than `maxDepth` or uses a forbidden
 * key, or undefined. A loop with its own stack, not recursion: the value may nest 400,000 deep
 * in under 1 MiB, and JSON.parse builds that without complaint.
 */
export function jsonStructureProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): StructureProblem | undefined {
  const stack: Visit[] = [{ value, depth: 0, token: undefined, parent: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (current === null || typeof current !== 'object') continue;
    if (visit.depth >= maxDepth) return { pointer: pointerTo(visit), expected: `JSON nested at most ${maxDepth} levels deep`, got: 'a value nested deeper' };
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], depth: visit.depth + 1, token: i, parent: visit });
      continue;
    }
    for (const key of Object.keys(current)) {
      const child: Visit = { value: (current as Record<string, unknown>)[key], depth: visit.depth + 1, token: key, parent: visit };
      if (FORBIDDEN_KEYS.includes(key)) return { pointer: pointerTo(child), expected: `no key named ${FORBIDDEN_KEYS.join(', ')} (they reach object prototypes)`, got: JSON.stringify(key) };
      stack.push(child);
    }
  }
  return undefined;
}

function pointerTo(visit: Visit): string {
  const tokens: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.token !== undefined; at = at.parent) tokens.push(at.token);
  return pointerOf(tokens.reverse());
}
