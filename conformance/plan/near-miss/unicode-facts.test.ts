// The near-miss grammars' Unicode tables, kept beside the check bundle (src/cli/commands.ts) so a
// run takes them from the one before instead of scanning the plane again (~6 ms of every run).
// A file of its own: adopting tables changes the module's state for the rest of the file.
import { describe, expect, it } from 'vitest';
import { adoptUnicodeFacts, compatibilityLookalikes, invisibleFormatCharacters, unicodeFacts, unicodeWhitespace } from './unicode-forms.ts';

describe('Unicode facts kept between runs', () => {
  it('refuses facts derived under another Unicode or ICU version, or not facts at all, and derives its own', () => {
    const derived = unicodeFacts();
    expect(derived.runtime).toBe(`unicode ${process.versions.unicode}, icu ${process.versions.icu}`);
    expect(adoptUnicodeFacts({ ...derived, runtime: 'unicode 1.0, icu 1.0', whitespace: [0x41] })).toBe(false);
    expect(adoptUnicodeFacts({ runtime: derived.runtime })).toBe(false);
    expect(adoptUnicodeFacts('not facts')).toBe(false);
    expect(adoptUnicodeFacts(JSON.parse(JSON.stringify({ ...derived, lookalikes: { d: [1] } })))).toBe(false);
    expect(unicodeWhitespace()).toContain(0x3000);
    expect(unicodeWhitespace()).not.toContain(0x41);
    expect(invisibleFormatCharacters()).toContain(0x200b);
    expect(compatibilityLookalikes('d')).toContain('\uff44');
  });

  it('adopts facts of this runtime as they come out of JSON, and answers from them', () => {
    const saved = JSON.parse(JSON.stringify(unicodeFacts()));
    expect(saved.lookalikes.d).toEqual(compatibilityLookalikes('d'));
    // A marked copy shows the answers come from what was adopted, not from a scan.
    expect(adoptUnicodeFacts({ ...saved, whitespace: [0x20, 0x3000], invisible: [0x200b], lookalikes: { d: ['\uff44'] } })).toBe(true);
    expect(unicodeWhitespace()).toEqual([0x20, 0x3000]);
    expect(invisibleFormatCharacters()).toEqual([0x200b]);
    expect(compatibilityLookalikes('d')).toEqual(['\uff44']);
    expect(compatibilityLookalikes('e')).toEqual([]);
  });
});
