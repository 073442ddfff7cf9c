import { describe, expect, it } from 'vitest';
import { secretsSeen } from './secrets-seen.ts';
import type { Exchange } from '../types.ts';

const NAMES = new Set(['secret']);
const seen = (...bodies: string[]) => secretsSeen(bodies.map((body) => ({ response: { status: 200, headers: {}, body } }) as Exchange), NAMES);

describe('secretsSeen: the values of secret properties anywhere in the bodies of a run', () => {
  it('finds a secret property at any depth, in any object', () => {
    expect(seen('{"enabled":true,"secret":"s3cr3t"}', '{"a":[{"b":{"secret":"deep"}}]}')).toEqual(['s3cr3t', 'deep']);
  });

  it('finds one whose member name is written with JSON escapes (RFC 8259 §7), which a plain text search would miss', () => {
    expect(seen('{"\\u0073ecret":"escaped"}', '{"sec\\u0072et":"also"}')).toEqual(['escaped', 'also']);
  });

  it('finds nothing in bodies that name no secret property, nor in a value that merely says "secret"', () => {
    expect(seen('{"id":"e-1","name":"AuthenticationRequired","message":"no key"}', '{"message":"the secret is wrong"}', 'not json')).toEqual([]);
  });
});
