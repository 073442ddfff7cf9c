import { describe, expect, it } from 'vitest';
import { repeatedMember } from './json-members-unique.ts';

describe('repeatedMember: a member name repeated within one JSON object', () => {
  it('finds a repeat at the root and in nested objects, with the object pointer', () => {
    expect(repeatedMember('{"enabled":false,"autoCreate":false,"enabled":true}')).toEqual({ name: 'enabled', pointer: '' });
    expect(repeatedMember('{"version":1,"environments":[{"name":"a"},{"name":"b","type":"x","name":"c"}]}')).toEqual({ name: 'name', pointer: '/environments/1' });
    expect(repeatedMember('{"a/b":{"x":1,"x":2}}')).toEqual({ name: 'x', pointer: '/a~1b' });
  });

  it('reads escaped names as the names they spell ("\\u0061" is "a")', () => {
    expect(repeatedMember('{"a":1,"\\u0061":2}')).toEqual({ name: 'a', pointer: '' });
  });

  it('finds none where names repeat only across objects, or as values, or inside strings', () => {
    expect(repeatedMember('{"environments":[{"name":"a"},{"name":"b"}],"x":{"name":"c"}}')).toBeUndefined();
    expect(repeatedMember('{"a":"a","b":"a","c":["a","a"],"d":"{\\"a\\":1,\\"a\\":2}"}')).toBeUndefined();
    expect(repeatedMember('[1,2,{"k":[{"k":1}],"j":2}]')).toBeUndefined();
  });
});
