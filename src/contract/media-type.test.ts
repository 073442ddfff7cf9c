import { describe, expect, it } from 'vitest';
import { mediaTypeMatches } from './media-type.ts';

describe('mediaTypeMatches (RFC 9110 §8.3.1)', () => {
  it.each([
    ['application/json', 'application/json', true],
    ['application/json', 'application/json; charset=utf-8', true],
    ['application/json', 'Application/JSON ;charset="UTF-8"', true],
    ['application/json; version=2', 'application/json;version=2; charset=utf-8', true],
    ['application/json; version=2', 'application/json; Version="2"', true],
    ['application/json; version=2', 'application/json; version=3', false],
    ['application/json; version=2', 'application/json', false],
    ['application/json', 'application/problem+json', false],
    ['application/json', 'text/json', false],
    ['application/json', 'application/json-seq', false],
    ['application/json', '', false],
    ['application/json', undefined, false],
  ])('%s against %s: %s', (documented, sent, expected) => {
    expect(mediaTypeMatches(documented, sent)).toBe(expected);
  });
});
