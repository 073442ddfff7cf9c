/**
 * Unicode facts the near-miss grammars draw on, derived from the runtime's Unicode data rather
 * than typed in, so a newer Unicode version brings its new characters along.
 */

/**
 * Every code point of the Basic Multilingual Plane that some server's trim may remove: Unicode's
 * White_Space property, what ECMAScript's `trim()` removes (`\s`, which adds U+FEFF), and the
 * information separators U+001C–U+001F, which Python's `str.strip()` removes.
 */
export function unicodeWhitespace(): readonly number[] {
  if (!whitespace) {
    whitespace = [];
    for (let cp = 0; cp <= 0xffff; cp++) {
      const char = String.fromCharCode(cp);
      if (/\p{White_Space}/u.test(char) || /\s/.test(char) || (cp >= 0x1c && cp <= 0x1f)) whitespace.push(cp);
    }
  }
  return whitespace;
}
let whitespace: number[] | undefined;

/** `U+00A0` */
export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A control character (C0, DEL, C1): RFC 9110 §5.5 allows none but HTAB in a field value. */
export function isControl(cp: number): boolean {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

let lookalikes: Map<string, string[]> | undefined;

/**
 * The characters that compatibility normalization (NFKC, UAX #15) folds into `char`: for `d`
 * the fullwidth `ｄ`, the mathematical `𝐝`-style letters of the BMP, `ⅾ` (small roman numeral)...
 * A server that normalizes ids before the lookup resolves them to `char`. Scanned once, on first use.
 */
export function compatibilityLookalikes(char: string): readonly string[] {
  if (!lookalikes) {
    lookalikes = new Map();
    for (let cp = 0x80; cp <= 0xffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const original = String.fromCharCode(cp);
      const folded = original.normalize('NFKC');
      if (folded.length !== 1 || folded === original || folded.charCodeAt(0) >= 0x80) continue;
      let list = lookalikes.get(folded);
      if (!list) lookalikes.set(folded, (list = []));
      list.push(original);
    }
  }
  return lookalikes.get(char) ?? [];
}

/** The id as UTF-8 bytes, each written as one latin1 character: what goes on the wire in a header. */
export function utf8Wire(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}
