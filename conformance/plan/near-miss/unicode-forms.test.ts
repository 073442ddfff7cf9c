import { describe, expect, it } from 'vitest';
import { compatibilityLookalikes, unicodeWhitespace } from './unicode-forms.ts';

/** The definitions, tested one code point at a time over the whole plane: what the fast scans must equal. */
const everyBmpCodePoint = Array.from({ length: 0x10000 }, (_, cp) => cp).filter((cp) => cp < 0xd800 || cp > 0xdfff);

describe('the Unicode facts of the near-miss grammars', () => {
  it('finds every white space a trim may remove: White_Space, ECMAScript \\s, and U+001C–U+001F', () => {
    const expected = everyBmpCodePoint.filter((cp) => /\p{White_Space}/u.test(String.fromCharCode(cp)) || /\s/.test(String.fromCharCode(cp)) || (cp >= 0x1c && cp <= 0x1f));
    expect(unicodeWhitespace()).toEqual(expected);
    expect(unicodeWhitespace()).toEqual(expect.arrayContaining([0x09, 0x20, 0xa0, 0x1c, 0xfeff, 0x3000]));
  });

  it('finds, for every ASCII character, every BMP character NFKC folds into it', () => {
    for (let code = 0; code < 0x80; code++) {
      const char = String.fromCharCode(code);
      const expected = everyBmpCodePoint.filter((cp) => cp >= 0x80 && String.fromCharCode(cp).normalize('NFKC') === char).map((cp) => String.fromCharCode(cp));
      expect(compatibilityLookalikes(char), `U+${code.toString(16)}`).toEqual(expected);
    }
    expect(compatibilityLookalikes('d')).toContain('ｄ');
  });
});
