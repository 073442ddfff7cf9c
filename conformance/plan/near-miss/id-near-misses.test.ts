import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../seeded-random.ts';
import { idNearMisses, type IdNearMissOptions } from './id-near-misses.ts';
import { PROJECT_RULES_AT_LEAST } from '../scenarios/near-misses.ts';

const options = (overrides: Partial<IdNearMissOptions> = {}): IdNearMissOptions => ({ deletable: false, given: new Set(), random: seededRandom(1), budget: 1000, ...overrides });
const decodedOf = (id: string, o?: Partial<IdNearMissOptions>) => idNearMisses(id, options(o)).map((v) => v.decoded);

describe('idNearMisses', () => {
  it('means what it says: one percent-decoding of each segment gives its id; "same" is the id itself, "other" never is, nor a given id', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 10, unit: 'binary' }), fc.array(fc.string({ maxLength: 4 })), fc.integer(), fc.boolean(), (id, given, seed, deletable) => {
        const list = idNearMisses(id, options({ given: new Set(given), random: seededRandom(seed), deletable, budget: 40 }));
        expect(list.length).toBeLessThanOrEqual(40);
        for (const variant of list) {
          expect(decodeURIComponent(variant.segment)).toBe(variant.decoded);
          expect(variant.segment).not.toContain('/');
          if (variant.names === 'same') expect(variant.decoded).toBe(id);
          else expect([id, ...given]).not.toContain(variant.decoded);
        }
        expect(new Set(list.map((v) => v.segment)).size).toBe(list.length);
      }),
      { numRuns: 50 },
    );
  });

  it('writes each separator of an id (- _ . space) as each other one and removes them all, and inserts a hyphen and a space into any id: other ids, the spaced ones no lookalikes', () => {
    const list = idNearMisses('mobile-app', options()).filter((v) => v.family === 'separator');
    expect(list.map((v) => v.decoded)).toEqual(expect.arrayContaining(['mobile_app', 'mobile.app', 'mobile app', 'mobileapp']));
    expect(list.every((v) => v.names === 'other' && v.lookalike === !v.decoded.includes(' '))).toBe(true);
    expect(new Set(list.map((v) => v.describe.replace(/\d+/g, 'N'))).size).toBe(list.length);
    const mixed = idNearMisses('a_b.c', options()).filter((v) => v.family === 'separator').map((v) => v.decoded);
    expect(mixed).toEqual(expect.arrayContaining(['a-b.c', 'a b.c', 'a.b.c', 'a_b-c', 'a_b_c', 'a_b c', 'abc']));
    const plain = idNearMisses('default', options()).filter((v) => v.family === 'separator').map((v) => v.decoded);
    expect(plain.some((d) => /^d[a-z]*-[a-z]*t$/.test(d) && d.replace('-', '') === 'default')).toBe(true);
    expect(plain.some((d) => /^d[a-z]* [a-z]*t$/.test(d) && d.replace(' ', '') === 'default')).toBe(true);
    // Where the id may be deleted, only what can name nothing real: the spaced ones.
    expect(idNearMisses('tok-1', options({ deletable: true })).filter((v) => v.family === 'separator').every((v) => v.decoded.includes(' '))).toBe(true);
  });

  it('percent-encodes unreserved characters as the same id (RFC 3986 §6.2.2.2), and encodes twice as another', () => {
    const list = idNearMisses('default', options());
    const same = list.filter((v) => v.names === 'same');
    expect(same.length).toBeGreaterThan(0);
    expect(same.every((v) => /%[0-9A-Fa-f]{2}/.test(v.segment) && v.family === 'percent-encoding')).toBe(true);
    expect(same.map((v) => v.segment)).toContain('%64%65%66%61%75%6C%74');
    const twice = list.find((v) => v.family === 'double-encoding')!;
    expect(twice.segment).toMatch(/%25[0-9A-F]{2}/);
    expect(twice.decoded).toMatch(/^[a-z]*%[0-9A-F]{2}[a-z]*$/);
  });

  it('puts every Unicode whitespace at either end, marking control characters and those beyond ASCII as malformed', () => {
    const list = idNearMisses('7', options()).filter((v) => v.family === 'whitespace');
    expect(list.map((v) => v.decoded)).toEqual(expect.arrayContaining(['\u00a07', '7\u3000', '\ufeff7', '7\u2028', '7 ', '\t7']));
    expect(list.find((v) => v.decoded === '7\n')!.malformed).toBe(true);
    // Beyond ASCII: routers and proxies refuse such paths, so a 400 is tolerated there as the model tolerates it (decision malformed-input-refusals).
    expect(list.find((v) => v.decoded === '7\u00a0')!.malformed).toBe(true);
    expect(list.find((v) => v.decoded === '7 ')!.malformed).toBe(false);
  });

  it('spells a numeric id as a number parser reads it, and gives Unicode look-alikes that NFKC folds into it', () => {
    const decoded = decodedOf('12');
    expect(decoded).toEqual(expect.arrayContaining(['+12', '12.0', '12e0', '0xc', '12.']));
    expect(decoded.some((d) => /^0+12$/.test(d))).toBe(true);
    expect(decodedOf('007')).toContain('7');
    expect(decoded).toContain('\uff11\uff12');
    const folded = idNearMisses('12', options()).filter((v) => v.family === 'unicode');
    expect(folded.every((v) => v.decoded !== '12' && v.decoded.normalize('NFKC') === '12')).toBe(true);
  });

  it('puts U+200B ZERO WIDTH SPACE after the id and an invisible format character drawn from the seed before it, none of them whitespace', () => {
    for (const seed of [1, 2, 3]) {
      const invisible = idNearMisses('3', options({ deletable: true, random: seededRandom(seed) })).filter((v) => v.family === 'invisible');
      expect(invisible.map((v) => v.names)).toEqual(['other', 'other']);
      expect(invisible[0]!.decoded).toBe('3\u200b');
      expect(invisible[1]!.decoded).toMatch(/^\p{Cf}3$/u);
      expect(invisible[1]!.segment).toBe(encodeURIComponent(invisible[1]!.decoded));
    }
    expect('\u200b'.trim()).toBe('\u200b');
  });

  it('puts an acute accent on one vowel, composed and decomposed (défault, de\u0301fault), also where the id may be deleted', () => {
    for (const deletable of [false, true]) {
      const accents = idNearMisses('default', options({ deletable })).filter((v) => v.family === 'accent');
      expect(accents.map((v) => v.names)).toEqual(['other', 'other']);
      const [composed, decomposed] = accents.map((v) => v.decoded);
      expect(composed).toMatch(/^[a-z]*[\u00e1\u00e9\u00fa][a-z]*$/);
      expect(composed!.normalize('NFD').replace(/\p{M}/gu, '')).toBe('default');
      expect(decomposed).toBe(composed!.normalize('NFD'));
      expect(accents[0]!.segment).toBe(encodeURIComponent(composed!));
    }
    expect(idNearMisses('123', options()).filter((v) => v.family === 'accent')).toEqual([]);
  });

  it('gives Unicode normalization forms of a non-ASCII id', () => {
    expect(decodedOf('caf\u00e9')).toContain('cafe\u0301');
    expect(decodedOf('cafe\u0301')).toContain('caf\u00e9');
  });

  it('sends, where the id may be deleted, nothing that names the id itself or could be a real id of its own', () => {
    const list = idNearMisses('ci-token', options({ deletable: true }));
    expect(list.some((v) => v.names === 'same' || v.lookalike)).toBe(false);
    expect(list.map((v) => v.decoded)).not.toEqual(expect.arrayContaining(['CI-TOKEN']));
    expect(new Set(list.map((v) => v.family))).toEqual(new Set(['separator', 'whitespace', 'invisible', 'unicode', 'accent', 'double-encoding', 'extension', 'control', 'dot-segment', 'sql-like', 'glob', 'regex', 'delimiter']));
  });

  it('builds malformed ids on the real one: a NUL or a line feed and more after it, and an encoded dot segment in front that resolves to it', () => {
    for (const deletable of [false, true]) {
      const list = idNearMisses('default', options({ deletable, budget: 1000 }));
      const control = list.filter((v) => v.family === 'control');
      expect(control.map((v) => v.segment)).toEqual([expect.stringMatching(/^default%00[a-z0-9]{3}$/), expect.stringMatching(/^default%0A[a-z0-9]{3}$/)]);
      expect(control.every((v) => v.malformed && v.names === 'other')).toBe(true);
      const dots = list.filter((v) => v.family === 'dot-segment');
      expect(dots.map((v) => v.segment)).toEqual([expect.stringMatching(/^[a-z]%2F\.\.%2Fdefault$/), expect.stringMatching(/^[a-z]%2F%2E%2E%2Fdefault$/)]);
      // Decoded and normalized as a sloppy router does, each is the real id; as RFC 3986 reads it, an encoded slash is no route.
      for (const v of dots) expect(decodeURIComponent(v.segment).split('/').reduce<string[]>((path, part) => (part === '..' ? path.slice(0, -1) : [...path, part]), []).join('/')).toBe('default');
      expect(dots.every((v) => v.malformed && v.names === 'other' && !v.lookalike)).toBe(true);
    }
  });

  it('meets every rule across several ids that share a budget (projects), each keeping every family', () => {
    const covered = new Set<string>();
    const rulesOf = (list: ReturnType<typeof idNearMisses>) => new Set(list.map((v) => `${v.family} ${v.describe.replace(/U\+[0-9A-F]{4,6}/g, 'U+X').replace(/"[^"]*"/g, '"X"').replace(/\d+/g, 'N')}`));
    // The run's share per project (near-misses.ts PROJECT_RULES_AT_LEAST).
    const first = idNearMisses('default', options({ budget: PROJECT_RULES_AT_LEAST, covered }));
    const second = idNearMisses('staging', options({ budget: PROJECT_RULES_AT_LEAST, covered, random: seededRandom(9) }));
    const all = rulesOf(idNearMisses('default', options({ budget: 1000 })));
    expect(all.size).toBeGreaterThan(20);
    const met = new Set([...rulesOf(first), ...rulesOf(second)].map((r) => r.replace(/staging/g, 'default')));
    for (const rule of all) expect(met).toContain(rule);
    expect(new Set(second.map((v) => v.family))).toEqual(new Set(first.map((v) => v.family)));
  });

  it('takes the id for a pattern: the wildcards of SQL LIKE, globs and regular expressions built on it, and the ids for every id, each another id', () => {
    const list = idNearMisses('default', options({ budget: 1000 }));
    const patterns = list.filter((v) => ['sql-like', 'glob', 'regex'].includes(v.family));
    // Each matches the real id under its syntax, as a server that takes the id for a pattern reads it.
    const like = (p: string) => new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/_/g, '.').replace(/%/g, '.*')}$`);
    for (const v of patterns.filter((v) => v.family === 'sql-like')) expect(like(v.decoded).test('default')).toBe(true);
    for (const v of patterns.filter((v) => v.family === 'regex')) expect(new RegExp(`^${v.decoded}$`).test('default')).toBe(true);
    expect(patterns.map((v) => v.decoded)).toEqual(expect.arrayContaining(['%', '*', '.*']));
    // Malformed input only where an encoded reserved character (the glob's ? and [ ]) lets a server refuse it (400) before any lookup.
    expect(patterns.every((v) => v.names === 'other' && v.malformed === /%(3F|5B|5D|25|2E|5C)/.test(v.segment))).toBe(true);
    // Where the token may be deleted: only those no real id can be (not `_` or `.` in place of a character), the word all for numeric ids.
    const token = idNearMisses('1', options({ deletable: true, budget: 1000 })).filter((v) => ['sql-like', 'glob', 'regex'].includes(v.family));
    expect(token.map((v) => v.segment).sort()).toEqual(['%25', '%3F', '%5B1%5D', '*', '.*', 'all'].sort());
  });

  it('puts each encoded delimiter a decoder splits on after the id (? # ; , @ /), another reserved character after it and one inside it: other ids, malformed input, never lookalikes', () => {
    for (const [id, deletable] of [['default', false], ['1', true]] as const) {
      const list = idNearMisses(id, options({ deletable, budget: 1000 })).filter((v) => v.family === 'delimiter');
      const after = list.filter((v) => v.describe.endsWith('after it'));
      expect(after.map((v) => v.segment.slice(id.length, id.length + 3))).toEqual(expect.arrayContaining(['%3F', '%23', '%3B', '%2C', '%40', '%2F']));
      expect(after).toHaveLength(7);
      for (const v of after) expect(v.segment.startsWith(id) && v.decoded.startsWith(id)).toBe(true);
      expect(list.filter((v) => v.describe.includes('inserted after character'))).toHaveLength(id.length > 1 ? 1 : 0);
      expect(list.every((v) => v.names === 'other' && v.malformed && !v.lookalike && /%[0-9A-F]{2}/.test(v.segment))).toBe(true);
      // Decoded and cut at its delimiter, as a server that decodes before it splits reads it, the segment is the real id.
      for (const v of after.filter((v) => v.describe.startsWith('with an encoded'))) expect(decodeURIComponent(v.segment).split(/[?#;,@/]/)[0]).toBe(id);
    }
  });

  it('drops a variant that is a given id', () => {
    expect(decodedOf('1', { given: new Set(['01', '+1']) })).not.toEqual(expect.arrayContaining(['01']));
    expect(decodedOf('1', { given: new Set(['+1']) })).not.toContain('+1');
  });

  it('keeps one of each family within a small budget, and draws the rest from the seed', () => {
    const all = idNearMisses('default', options());
    const few = idNearMisses('default', options({ budget: 16, random: seededRandom(5) }));
    expect(few).toHaveLength(16);
    expect(new Set(few.map((v) => v.family))).toEqual(new Set(all.map((v) => v.family)));
    expect(idNearMisses('default', options({ budget: 16, random: seededRandom(5) }))).toEqual(few);
    expect(idNearMisses('default', options({ budget: 16, random: seededRandom(6) }))).not.toEqual(few);
  });
});
