/**
 * Unicode facts the near-miss grammars draw on, derived from the runtime's Unicode data rather
 * than typed in, so a newer Unicode version brings its new characters along.
 */

/**
 * Every code unit of the Basic Multilingual Plane in order, as one string: scanned by one regular
 * expression instead of 65,536 tests. Made once (both scans below read it) by decoding the units
 * as UTF-16LE bytes, which keeps lone surrogates as they are: ~1 ms, where String.fromCharCode over
 * slices of the units took 3-12 ms of every check run (bench/run.ts, conformance).
 */
function basicMultilingualPlane(): string {
  if (plane === undefined) {
    const bytes = Buffer.alloc(0x20000);
    for (let cp = 0; cp < 0x10000; cp++) {
      bytes[2 * cp] = cp & 0xff;
      bytes[2 * cp + 1] = cp >> 8;
    }
    plane = bytes.toString('utf16le');
  }
  return plane;
}
let plane: string | undefined;

/**
 * Every code point of the Basic Multilingual Plane that some server's trim may remove: Unicode's
 * White_Space property, what ECMAScript's `trim()` removes (`\s`, which adds U+FEFF), and the
 * information separators U+001C–U+001F, which Python's `str.strip()` removes.
 */
export function unicodeWhitespace(): readonly number[] {
  // A match's index is its code point: the string holds every BMP code unit at its own value.
  whitespace ??= Array.from(basicMultilingualPlane().matchAll(/[\p{White_Space}\s\u001c-\u001f]/gu), (match) => match.index);
  return whitespace;
}
let whitespace: number[] | undefined;

/**
 * Every code point of the Basic Multilingual Plane that is invisible: a format character (Cf) that
 * Unicode says to ignore when not supported (Default_Ignorable_Code_Point): U+200B ZERO WIDTH SPACE,
 * U+200C/U+200D, U+2060 WORD JOINER, U+FEFF, the bidirectional controls... Sanitizers strip them
 * from input, which is how `default` followed by one becomes `default` again.
 */
export function invisibleFormatCharacters(): readonly number[] {
  invisible ??= Array.from(basicMultilingualPlane().matchAll(/(?=\p{Cf})\p{Default_Ignorable_Code_Point}/gu), (match) => match.index);
  return invisible;
}
let invisible: number[] | undefined;

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
 * A server that normalizes ids before the lookup resolves them to `char`. Scanned once, on first
 * use, and only among the characters NFKC_Casefold changes (the Unicode property
 * Changes_When_NFKC_Casefolded, which holds every character NFKC changes): a fifth of the plane,
 * found as runs (a few hundred matches, not ~4,000) and normalized in one call: the characters
 * joined by U+0000, which is stable under NFKC (a starter that composes with nothing, UAX #15
 * §9), so each comes out as it would alone. ~2 ms where a match and a normalize() per character
 * took ~8 ms of every check run.
 */
export function compatibilityLookalikes(char: string): readonly string[] {
  if (!lookalikes) {
    lookalikes = new Map();
    const candidates: string[] = [];
    const plane = basicMultilingualPlane();
    for (const run of plane.matchAll(/\p{Changes_When_NFKC_Casefolded}+/gu)) {
      // A surrogate pair where two halves meet in the string is no character of the BMP: only lone code units are candidates.
      for (let at = Math.max(run.index, 0x80), end = run.index + run[0].length; at < end; at++) {
        const unit = plane.charCodeAt(at);
        if (unit >= 0xd800 && unit <= 0xdfff) continue;
        candidates.push(plane[at]!);
      }
    }
    const folds = candidates.join('\0').normalize('NFKC').split('\0');
    candidates.forEach((original, i) => {
      const folded = folds[i]!;
      if (folded.length !== 1 || folded === original || folded.charCodeAt(0) >= 0x80) return;
      let list = lookalikes!.get(folded);
      if (!list) lookalikes!.set(folded, (list = []));
      list.push(original);
    });
  }
  return lookalikes.get(char) ?? [];
}

/** The tables above as derived on this runtime, to keep for the next run (src/cli/commands.ts keeps them beside the check bundle). */
export interface UnicodeFacts {
  /** The Unicode and ICU versions they were derived under: the regular expressions' properties and normalize() come from them. */
  runtime: string;
  whitespace: readonly number[];
  invisible: readonly number[];
  /** compatibilityLookalikes(), by the character they fold into. */
  lookalikes: Record<string, readonly string[]>;
}

const runtimeUnicode = () => `unicode ${process.versions.unicode}, icu ${process.versions.icu}`;

/** Every table, derived now unless derived or adopted already. */
export function unicodeFacts(): UnicodeFacts {
  const whitespace = unicodeWhitespace();
  const invisible = invisibleFormatCharacters();
  compatibilityLookalikes('a');
  return { runtime: runtimeUnicode(), whitespace, invisible, lookalikes: Object.fromEntries(lookalikes!) };
}

/**
 * Takes the tables an earlier run derived (unicodeFacts(), through JSON) instead of scanning the
 * plane again (~6 ms of every check run: three scans of 65,536 code units and one NFKC of ~13,000
 * characters), when they were derived under this runtime's Unicode and ICU versions and have the
 * shape unicodeFacts() gives. False, and nothing taken, otherwise.
 */
export function adoptUnicodeFacts(facts: unknown): boolean {
  if (typeof facts !== 'object' || facts === null) return false;
  const { runtime, whitespace: w, invisible: i, lookalikes: l } = facts as Partial<Record<keyof UnicodeFacts, unknown>>;
  const codePoints = (value: unknown): value is number[] => Array.isArray(value) && value.every((cp) => Number.isInteger(cp) && cp >= 0 && cp <= 0xffff);
  if (runtime !== runtimeUnicode() || !codePoints(w) || !codePoints(i) || typeof l !== 'object' || l === null || Array.isArray(l)) return false;
  const entries = Object.entries(l as Record<string, unknown>);
  if (!entries.every(([, list]) => Array.isArray(list) && list.every((char) => typeof char === 'string'))) return false;
  whitespace = w;
  invisible = i;
  lookalikes = new Map(entries as [string, string[]][]);
  return true;
}

/** The id as UTF-8 bytes, each written as one latin1 character: what goes on the wire in a header. */
export function utf8Wire(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/**
 * The vowels that have an acute-accented form in Latin-1 (ISO 8859-1 0xC1-0xFD), and those forms in the same order: a letter with
 * a diacritic that accent-insensitive collations (SQL Server _AI, ICU level 1) take for the letter, and that is one byte in latin1.
 */
export const ACUTE_FROM = 'aeiouyAEIOUY';
export const ACUTE_TO = '\u00e1\u00e9\u00ed\u00f3\u00fa\u00fd\u00c1\u00c9\u00cd\u00d3\u00da\u00dd';

/** The letter under an acute accent (composed), or undefined when Latin-1 has no such letter. */
export function acuteAccented(letter: string): string | undefined {
  const at = ACUTE_FROM.indexOf(letter);
  return at < 0 || letter.length !== 1 ? undefined : ACUTE_TO[at];
}
