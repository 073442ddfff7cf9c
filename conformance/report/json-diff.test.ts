import { describe, expect, it } from 'vitest';
import { describeDifferences } from './json-diff.ts';

describe('describeDifferences', () => {
  it('names each changed, added and removed value by its pointer, in document order', () => {
    expect(describeDifferences('{"a":1,"b":{"c":"x","d":[1,2]},"e":true}', '{"a":1,"b":{"c":"y","d":[1,3]},"f":null}')).toBe('/b/c: "x" → "y"; /b/d/1: 2 → 3; - /e: true; + /f: null');
  });
  it('stops after the limit and counts the rest; escapes pointer tokens', () => {
    expect(describeDifferences('{"a/b":1,"c":2,"d":3}', '{"a/b":2,"c":3,"d":4}', 2)).toBe('/a~1b: 1 → 2; /c: 2 → 3; and 1 more');
  });
  it('compares texts that are not JSON whole, cut short', () => {
    expect(describeDifferences('plain', 'other')).toBe('plain → other');
    expect(describeDifferences('{"a":1}', '{"a":1}')).toBe('no difference');
  });
  it('walks a body thousands of levels deep without exhausting the stack', () => {
    const deep = (leaf: number) => `${'['.repeat(3000)}${leaf}${']'.repeat(3000)}`;
    expect(describeDifferences(deep(1), deep(2))).toMatch(/^\/0\/0\/.*: 1 → 2$/);
  });
});
