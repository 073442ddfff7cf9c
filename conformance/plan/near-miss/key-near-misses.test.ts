import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../seeded-random.ts';
import { KEY_NEAR_MISS_BUDGET, keyExpansion, keyNearMisses, nearMissValue, type KeyNearMiss } from './key-near-misses.ts';
import { unicodeWhitespace } from './unicode-forms.ts';

const KEY = 'mock-admin-key';
const grammar = (key = KEY, seed = 1, others: string[] = ['mock-viewer-key']) => keyNearMisses(key, others, 'Authorization', seededRandom(seed));
const inHeader = (list: KeyNearMiss[]) => list.filter((n) => n.placement.in === 'header').map((n) => nearMissValue(KEY, n));

describe('keyNearMisses', () => {
  it('puts every Unicode whitespace that may stand in a header value on both sides of the key, as UTF-8 and as its latin1 byte, and one of each on each side alone', () => {
    const values = inHeader(grammar());
    const expected = unicodeWhitespace().filter((cp) => cp > 0x20 && !(cp >= 0x7f && cp <= 0x9f));
    expect(expected.length).toBeGreaterThan(15);
    for (const cp of expected) {
      const utf8 = Buffer.from(String.fromCodePoint(cp), 'utf8').toString('latin1');
      expect(values).toContain(utf8 + KEY + utf8);
    }
    expect(values).toContain(`\u00a0${KEY}\u00a0`);
    const alone = (bytes: (v: string) => string) => values.filter((v) => v !== KEY && (v.startsWith(KEY) || v.endsWith(KEY)) && expected.some((cp) => bytes(v) === Buffer.from(String.fromCodePoint(cp), 'utf8').toString('latin1') || bytes(v) === String.fromCodePoint(cp)));
    expect(alone((v) => v.slice(KEY.length)).length).toBe(2);
    expect(alone((v) => v.slice(0, -KEY.length)).length).toBe(2);
  });

  it('sends no space or tab around the key (not part of a field value, RFC 9110 §5.5) and no control character', () => {
    for (const value of inHeader(grammar())) {
      expect(value.replace(/^[ \t]+|[ \t]+$/g, '')).toBe(value);
      expect(value).not.toMatch(/[\x00-\x08\x0a-\x1f\x7f]/);
    }
  });

  it('writes the separators of the key as each other word separator (- _ . space), removes them, and puts a hyphen inside a key without one, each value sent in a header and made in bash from the key', () => {
    const list = grammar().filter((n) => n.family === 'separator-swap');
    const values = list.map((n) => nearMissValue(KEY, n));
    expect(values.sort()).toEqual(['mock admin key', 'mock.admin.key', 'mock_admin_key', 'mockadminkey']);
    expect(list.every((n) => n.placement.in === 'header')).toBe(true);
    for (const n of list) expect(execFileSync('bash', ['-c', `V=${KEY}; printf %s "${keyExpansion(n, 'V')}"`], { encoding: 'latin1' })).toBe(nearMissValue(KEY, n));
    const plain = keyNearMisses('abcdef123', [], 'Authorization', seededRandom(1)).filter((n) => n.family === 'separator-swap').map((n) => nearMissValue('abcdef123', n));
    expect(plain.length).toBe(1);
    expect(plain[0]!.replace('-', '')).toBe('abcdef123');
  });

  it('has every family: case, prefix, extension, separator, whitespace, scheme, encoding, placement in query and cookie', () => {
    const list = grammar();
    expect(new Set(list.map((n) => n.family))).toEqual(
      new Set(['case', 'prefix', 'substitution', 'accent', 'extension', 'separator', 'separator-swap', 'whitespace', 'quoting', 'list', 'word', 'scheme', 'placement', 'encoding']),
    );
    expect(list.filter((n) => n.placement.in === 'query').map((n) => n.placement.in !== 'header' && n.placement.name)).toContain('Authorization');
    expect(list.some((n) => n.placement.in === 'cookie')).toBe(true);
    expect(inHeader(list)).toEqual(expect.arrayContaining([`Bearer Bearer ${KEY}`, `Bearer${KEY}`, KEY.toUpperCase(), KEY.slice(0, -1)]));
  });

  it('puts another word beside the key, a space between, after it and before it, under each form the header holds a key in (bare and Bearer), within the budget', () => {
    // A key long enough, and with separators enough, that the grammar has more near-misses than its budget: the four still come.
    const long = 'proj:env.0123456789abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJ/xyz-end';
    for (const [key, seed] of [[KEY, 1], [KEY, 2], [long, 3]] as const) {
      const list = keyNearMisses(key, [], 'Authorization', seededRandom(seed));
      expect(list.length).toBeLessThanOrEqual(KEY_NEAR_MISS_BUDGET);
      const values = list.filter((n) => n.family === 'word').map((n) => nearMissValue(key, n));
      const word = /^(?:Bearer )?(?:(\w+) \S+|\S+ (\w+))$/.exec(values[0]!)!.slice(1).find(Boolean)!;
      expect(word).toMatch(/^[A-Za-z0-9]+$/);
      expect(values.sort()).toEqual([`${key} ${word}`, `${word} ${key}`, `Bearer ${key} ${word}`, `Bearer ${word} ${key}`].sort());
    }
  });

  it("changes the case of some letters, not only all: each word's first letter (Mock-Admin-Key), one drawn letter", () => {
    const values = inHeader(grammar());
    expect(values).toEqual(expect.arrayContaining(['Mock-Admin-Key', KEY.toUpperCase()]));
    expect(values.filter((v) => v !== KEY && v.toLowerCase() === KEY && v.replace(/[A-Z]/g, '').length === KEY.length - 1)).toHaveLength(1);
  });

  it('replaces one character in place, the last and one in the middle: same length, another key', () => {
    for (const seed of [1, 2, 3]) {
      const values = inHeader(grammar(KEY, seed)).filter((v) => v.length === KEY.length && v.toLowerCase() !== KEY);
      const differing = values.map((v) => [...v].flatMap((c, i) => (c === KEY[i] ? [] : [i])));
      expect(differing).toContainEqual([KEY.length - 1]);
      expect(differing.some((at) => at.length === 1 && at[0]! > 0 && at[0]! < KEY.length - 1)).toBe(true);
    }
  });

  it('puts an acute accent on one vowel of the key: one Latin-1 byte, UTF-8 composed, UTF-8 decomposed', () => {
    const values = inHeader(grammar());
    const latin1 = values.find((v) => v.length === KEY.length && /[\u00e1\u00e9\u00ed\u00f3\u00fa\u00fd]/.test(v))!;
    expect(latin1.normalize('NFD').replace(/\p{M}/gu, '')).toBe(KEY);
    const utf8 = (v: string) => Buffer.from(v, 'latin1').toString('utf8');
    expect(utf8(values.find((v) => utf8(v) === latin1)!)).toBe(latin1);
    expect(values.map(utf8)).toContain(latin1.normalize('NFD'));
  });

  it('wraps the key in quotes and angle brackets, and in list syntax with another item before or after it', () => {
    const values = inHeader(grammar());
    expect(values).toEqual(expect.arrayContaining([`"${KEY}"`, `'${KEY}'`, `<${KEY}>`]));
    expect(values.filter((v) => v.startsWith(`${KEY}, `) || v.endsWith(`, ${KEY}`))).toHaveLength(2);
  });

  it('sends the schemes that carry a key in their own syntax: Token, the Rails form, ApiKey, Key, Basic with the key base64-encoded as user name and as password', () => {
    const values = inHeader(grammar());
    expect(values).toEqual(expect.arrayContaining([`Token ${KEY}`, `Token token="${KEY}"`, `ApiKey ${KEY}`, `Key ${KEY}`]));
    const basic = values.filter((v) => v.startsWith('Basic ')).map((v) => Buffer.from(v.slice(6), 'base64').toString('utf8'));
    expect(basic).toEqual(expect.arrayContaining([`${KEY}:`, `:${KEY}`]));
  });

  it('percent-encodes the key: a character that is not a letter or digit, every character, and a letter in lower-case hex', () => {
    const values = inHeader(grammar());
    expect(values.filter((v) => v.includes('%2D') && v.replace('%2D', '-') === KEY)).toHaveLength(1);
    expect(values).toContain([...KEY].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join(''));
    const lower = nearMissValue(KEY, grammar().find((n) => n.id.startsWith('encoding-percent-lower-'))!);
    expect(decodeURIComponent(lower)).toBe(KEY);
    expect(lower).toMatch(/^[a-z-]*%[67][0-9a-f][a-z-]*$/);
  });

  it('follows the key with each separator key formats use and a suffix, and cuts it before each separator of its own, within the budget', () => {
    const values = inHeader(grammar());
    for (const separator of [':', '.', '_', '/', '-']) expect(values.some((v) => v.startsWith(`${KEY}${separator}`) && v.length > KEY.length + 1)).toBe(true);
    expect(values).toEqual(expect.arrayContaining(['mock', 'mock-admin']));
    // Unleash's `<project>:<environment>.<secret>`: cut before its colon and before its full stop.
    const unleash = '*:*.964a287e1b728cb5';
    for (const seed of [1, 2, 3]) {
      const values = keyNearMisses(unleash, [], 'Authorization', seededRandom(seed)).map((n) => nearMissValue(unleash, n));
      expect(values).toEqual(expect.arrayContaining(['*', '*:*']));
      expect(values.filter((v) => v.startsWith(`${unleash}:`) && v.length > unleash.length + 1)).toHaveLength(1);
    }
  });

  it('never sends a restricted key that is the full key cut at a separator', () => {
    expect(inHeader(grammar(KEY, 1, ['mock-admin']))).not.toContain('mock-admin');
  });

  it('is the same for the same seed and draws other positions, characters and schemes for another', () => {
    expect(grammar(KEY, 7)).toEqual(grammar(KEY, 7));
    const drawn = new Set(Array.from({ length: 8 }, (_, seed) => JSON.stringify(grammar(KEY, seed).filter((n) => /flip|first-|appended|prepended|other-/.test(n.id)))));
    expect(drawn.size).toBeGreaterThan(1);
  });

  it('never sends a given key, the key itself, an empty value or the same value twice, and stays within its budget', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 12 }), fc.integer(), (key, other, seed) => {
        const list = keyNearMisses(key, [other], 'Authorization', seededRandom(seed));
        expect(list.length).toBeLessThanOrEqual(KEY_NEAR_MISS_BUDGET);
        const header = list.filter((n) => n.placement.in === 'header').map((n) => nearMissValue(key, n));
        expect(header).not.toContain(key);
        expect(header).not.toContain(other);
        expect(header).not.toContain('');
        expect(new Set(header).size).toBe(header.length);
      }),
    );
  });

  it('writes each as a bash expansion of the key variable that makes exactly the bytes sent', () => {
    const list = grammar('Ab3-xYz', 3);
    const script = list.map((n) => `printf '%s\\0' "${keyExpansion(n, 'K')}"`).join('\n');
    const out = execFileSync('bash', ['-c', script], { env: { K: 'Ab3-xYz', LC_ALL: 'C', PATH: process.env.PATH }, encoding: 'latin1' });
    expect(out.split('\0').slice(0, -1)).toEqual(list.map((n) => nearMissValue('Ab3-xYz', n)));
  });
});
