import { expect } from 'vitest';

/**
 * The same values and the same sharing: each object of `ours` stands for exactly one object of
 * `theirs` wherever it is met (a component used twice is one object on both sides; a recursive
 * schema is the same cycle), keys in the same order. Compared without an assertion per node
 * (GitHub's documents hold ~90,000 objects); the first difference fails with its pointer.
 */
export function expectSameGraph(ours: unknown, theirs: unknown): void {
  const forward = new Map<object, object>();
  const backward = new Map<object, object>();
  const walk = (a: unknown, b: unknown, at: string): void => {
    if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') {
      if (!Object.is(a, b)) expect(a, at).toStrictEqual(b);
      return;
    }
    if (forward.has(a) || backward.has(b)) {
      if (forward.get(a) !== b || backward.get(b) !== a) expect.unreachable(`${at}: shared otherwise than in swagger-parser's result`);
      return;
    }
    forward.set(a, b);
    backward.set(b, a);
    if (Array.isArray(a) !== Array.isArray(b)) expect(Array.isArray(a), `${at}: an array on one side only`).toBe(Array.isArray(b));
    const [keysA, keysB] = [Object.keys(a), Object.keys(b)];
    if (keysA.length !== keysB.length || keysA.some((key, i) => key !== keysB[i])) expect(keysA, at).toEqual(keysB);
    for (const key of keysA) walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${at}/${key}`);
  };
  walk(ours, theirs, '');
}
