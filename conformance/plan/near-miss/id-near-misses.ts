import { pick, type Random } from '../seeded-random.ts';
import { bounded } from './bounded.ts';
import { encodedReserved, isMalformedId, RESERVED_CHARACTERS } from '../../reserved-characters.ts';
import { acuteAccented, codePointLabel, compatibilityLookalikes, invisibleFormatCharacters, unicodeWhitespace } from './unicode-forms.ts';

/**
 * The grammar of near-misses of a given id (spec decisions project-id-compared-exactly,
 * token-ids-compared-exactly): the spellings a sloppy server resolves to the real id (another
 * case, separators swapped or dropped, trimmed Unicode whitespace, Unicode normalization, a second percent-decoding, a number
 * parser, a prefix match, a format suffix or matrix parameter stripped by the router, the id
 * cut at a control character, an encoded dot segment resolved, the id taken for a pattern: SQL
 * LIKE, a glob, a regular expression, or a word meaning every id, a percent-encoded delimiter
 * taken for the delimiter it encodes).
 *
 * What a variant means decides what a conformant server may answer: percent-encoding an
 * unreserved character gives the SAME id (RFC 3986 §2.3, §6.2.2.2), so the real id's answer (or
 * a 404 from a server that does not normalize) is right; every other variant names ANOTHER id,
 * which does not exist, so 404.
 */
export type IdFamily = 'case' | 'separator' | 'whitespace' | 'invisible' | 'unicode' | 'accent' | 'percent-encoding' | 'double-encoding' | 'numeric' | 'prefix' | 'extension' | 'control' | 'dot-segment' | 'sql-like' | 'glob' | 'regex' | 'delimiter';

export interface IdNearMiss {
  family: IdFamily;
  /** e.g. `with U+00A0 after it`. */
  describe: string;
  /** The path segment exactly as sent. */
  segment: string;
  /** What one percent-decoding of the segment gives: the id a conformant server looks up. */
  decoded: string;
  /** `same`: RFC 3986 makes it the given id itself; `other`: another id, which names nothing. */
  names: 'same' | 'other';
  /**
   * Could be a real id of its own (another case, a prefix, a character more): never sent where it
   * would be deleted. The other variants hold whitespace, non-ASCII, `%`, `;` or a number spelling.
   */
  lookalike: boolean;
  /** Holds a control character, an encoded slash or another encoded reserved character: a server may refuse the request as malformed (400; 405 from a router for the slash) before any lookup. */
  malformed: boolean;
}

export interface IdNearMissOptions {
  /** The suite may delete what the id names: only variants that can name nothing real, none naming the id itself. */
  deletable: boolean;
  /** Every real id of the kind the user gave: no `other` variant may be one of them. */
  given: ReadonlySet<string>;
  random: Random;
  budget: number;
  /** Families and rules earlier ids of the same kind already sent (bounded): they come after the ones not met yet. */
  covered?: Set<string>;
}

/** RFC 3986 §2.3. */
const UNRESERVED = /[A-Za-z0-9\-._~]/;
const ID_LIKE = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Separators of ids (slugs, snake and kebab case, dotted names), by name. */
const ID_SEPARATORS: ReadonlyMap<string, string> = new Map([
  ['-', 'hyphen'],
  ['_', 'underscore'],
  ['.', 'full stop'],
  [' ', 'space'],
]);

const percent = (char: string, lower = false) =>
  [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).map((code) => (lower ? code : code.toUpperCase())).join('');

export function idNearMisses(id: string, { deletable, given, random, budget, covered }: IdNearMissOptions): IdNearMiss[] {
  const all: IdNearMiss[] = [];
  const chars = [...id];
  const other = (family: IdFamily, describe: string, value: string, lookalike = false, segment = encodeURIComponent(value)) =>
    all.push({ family, describe, segment, decoded: value, names: 'other', lookalike, malformed: isMalformedId(segment) });

  if (id.toUpperCase() !== id) other('case', 'in upper case', id.toUpperCase(), true);
  if (id.toLowerCase() !== id) other('case', 'in lower case', id.toLowerCase(), true);
  const letters = chars.flatMap((c, i) => (c.toUpperCase() !== c.toLowerCase() && c.toUpperCase().length === 1 ? [i] : []));
  if (letters.length > 1) {
    const at = letters[pick(random, letters.length)]!;
    const flipped = chars[at] === chars[at]!.toUpperCase() ? chars[at]!.toLowerCase() : chars[at]!.toUpperCase();
    other('case', `with the case of character ${at + 1} changed`, [...chars.slice(0, at), flipped, ...chars.slice(at + 1)].join(''), true);
  }

  // Separators (red team round thirteen): slugify helpers, snake/kebab converters and "canonical id" columns map `_`, `.` and spaces to
  // `-`, or drop them all, before the lookup. Ids are compared exactly (decisions project-id-compared-exactly, token-ids-compared-exactly):
  // each separator written as each other one, and all of them dropped, name other ids (404); so does the id with a hyphen or a space put
  // inside it, for a server that drops separators from what it is sent. Separators by name, so each is a rule of its own for bounded().
  // A spelling with a space cannot be a real id of the kinds the suite is given (a lookalike otherwise).
  const present = [...ID_SEPARATORS.keys()].filter((sep) => id.includes(sep));
  for (const from of present) {
    for (const [to, toName] of ID_SEPARATORS) {
      if (to !== from) other('separator', `with its ${ID_SEPARATORS.get(from)}s written as ${toName}s`, id.replaceAll(from, to), !to.includes(' '));
    }
  }
  if (present.length > 0) other('separator', 'with its separators removed', [...id].filter((c) => !ID_SEPARATORS.has(c)).join(''), true);
  if (chars.length > 1) {
    const cut = 1 + pick(random, chars.length - 1);
    for (const inserted of ['-', ' ']) other('separator', `with a ${ID_SEPARATORS.get(inserted)} inserted after character ${cut}`, [...chars.slice(0, cut), inserted, ...chars.slice(cut)].join(''), inserted !== ' ');
  }

  for (const cp of unicodeWhitespace()) {
    const char = String.fromCodePoint(cp);
    other('whitespace', `with ${codePointLabel(cp)} before it`, char + id);
    other('whitespace', `with ${codePointLabel(cp)} after it`, id + char);
  }

  // Invisible format characters, which are no whitespace (so trim() leaves U+200B), but which sanitizers strip: ZERO WIDTH SPACE, the one
  // every such list holds, after the id, and one drawn from the seed before it.
  const invisible = invisibleFormatCharacters();
  const drawn = invisible[pick(random, invisible.length)]!;
  other('invisible', `with ${codePointLabel(0x200b)}, an invisible format character, after it`, `${id}\u200b`);
  other('invisible', `with ${codePointLabel(drawn)}, an invisible format character, before it`, String.fromCodePoint(drawn) + id);

  for (const form of ['NFC', 'NFD', 'NFKC', 'NFKD'] as const) {
    if (id.normalize(form) !== id) other('unicode', `in Unicode normalization form ${form}`, id.normalize(form));
  }
  const foldable = chars.flatMap((c, i) => (compatibilityLookalikes(c).length > 0 ? [i] : []));
  if (foldable.length > 0) {
    const at = foldable[pick(random, foldable.length)]!;
    const options = compatibilityLookalikes(chars[at]!);
    const lookalike = options[pick(random, options.length)]!;
    other('unicode', `with character ${at + 1} as ${codePointLabel(lookalike.codePointAt(0)!)}, which NFKC folds into it`, [...chars.slice(0, at), lookalike, ...chars.slice(at + 1)].join(''));
    const fullwidth = chars.map((c) => compatibilityLookalikes(c).find((l) => l.codePointAt(0)! >= 0xff01 && l.codePointAt(0)! <= 0xff5e));
    if (fullwidth.every(Boolean)) other('unicode', 'in fullwidth forms, which NFKC folds into it', fullwidth.join(''));
  }

  // A letter under an accent (défault, composed and decomposed): ids equal under an accent-insensitive collation (SQL Server _AI,
  // Postgres ICU level 1, MySQL's default utf8mb4_0900_ai_ci) are other ids, since the decisions compare ids exactly (round 9).
  const vowels = chars.flatMap((c, i) => (acuteAccented(c) ? [i] : []));
  if (vowels.length > 0) {
    const at = vowels[pick(random, vowels.length)]!;
    const accented = [...chars.slice(0, at), acuteAccented(chars[at]!)!, ...chars.slice(at + 1)].join('');
    other('accent', `with character ${at + 1} under an acute accent, composed (NFC)`, accented);
    other('accent', `with character ${at + 1} under an acute accent, decomposed (the letter and U+0301)`, accented.normalize('NFD'));
  }

  const unreserved = chars.flatMap((c, i) => (UNRESERVED.test(c) ? [i] : []));
  const same = (describe: string, segment: string) => all.push({ family: 'percent-encoding', describe, segment, decoded: id, names: 'same', lookalike: false, malformed: false });
  if (unreserved.length > 0) {
    const at = unreserved[pick(random, unreserved.length)]!;
    const encodeAt = (lower: boolean) => chars.map((c, i) => (i === at ? percent(c, lower) : encodeURIComponent(c))).join('');
    same(`with character ${at + 1} percent-encoded (the same id, RFC 3986 §6.2.2.2)`, encodeAt(false));
    if (/[a-f]/.test(percent(chars[at]!, true))) same(`with character ${at + 1} percent-encoded in lower-case hex (the same id)`, encodeAt(true));
    if (unreserved.length > 1) same('with every unreserved character percent-encoded (the same id)', chars.map((c) => (UNRESERVED.test(c) ? percent(c) : encodeURIComponent(c))).join(''));
    // Encoded twice, the segment decodes once to "%XX" in place of the character: another id.
    const twice = chars.map((c, i) => (i === at ? percent(c).replaceAll('%', '%25') : encodeURIComponent(c))).join('');
    other('double-encoding', `with character ${at + 1} percent-encoded twice`, chars.map((c, i) => (i === at ? percent(c) : c)).join(''), false, twice);
  }

  if (/^[0-9]+$/.test(id)) {
    const zeros = '0'.repeat(1 + pick(random, 3));
    other('numeric', `with ${zeros.length} leading zero${zeros.length > 1 ? 's' : ''}`, zeros + id);
    other('numeric', 'with a plus sign', `+${id}`);
    other('numeric', 'written as a decimal', `${id}.0`);
    other('numeric', 'with a trailing decimal point', `${id}.`);
    other('numeric', 'in exponent notation', `${id}e0`);
    const value = Number(id);
    if (Number.isSafeInteger(value)) other('numeric', 'in hexadecimal', `0x${value.toString(16)}`);
    if (value === 0) other('numeric', 'as negative zero', '-0');
    if (id.length > 1 && id.startsWith('0')) other('numeric', 'without its leading zeros', String(value));
  }

  if (chars.length > 1) {
    other('prefix', 'without its last character', chars.slice(0, -1).join(''), true);
    other('prefix', 'without its first character', chars.slice(1).join(''), true);
  }
  if (chars.length > 3) {
    const length = 1 + pick(random, chars.length - 2);
    other('prefix', `cut to its first ${length} characters`, chars.slice(0, length).join(''), true);
  }
  const appended = ID_LIKE[pick(random, ID_LIKE.length)]!;
  other('extension', `with "${appended}" appended`, id + appended, true);
  // A router that strips a format suffix (Rails) or a matrix parameter (Spring's path matching).
  other('extension', 'with the format suffix .json', `${id}.json`);
  other('extension', 'with a matrix parameter ;v=1', `${id};v=1`, false, `${encodeURIComponent(id)};v=1`);

  // A control character and more after the real id (spec decision malformed-input-refusals: such an id is malformed, 400 or 404, never
  // the resource): a server that reads ids as NUL-terminated strings (a C library) or up to a line break (a line-based cache key or
  // protocol) finds the real id only when what comes before the character is one.
  const junk = Array.from({ length: 3 }, () => ID_LIKE[pick(random, ID_LIKE.length)]!).join('');
  other('control', `with a NUL and "${junk}" after it`, `${id}\0${junk}`);
  other('control', `with a line feed and "${junk}" after it`, `${id}\n${junk}`);
  // An encoded slash and a dot segment that resolve to the real id once the whole path is percent-decoded and normalized
  // (RFC 3986 §5.2.4 removes dot segments of the path as sent, never what %2F decodes to): no route (decision router-refusals).
  const lead = ID_LIKE[pick(random, 26)]!;
  other('dot-segment', `behind "${lead}%2F..%2F", a dot segment with its slashes percent-encoded`, `${lead}/../${id}`, false, `${lead}%2F..%2F${encodeURIComponent(id)}`);
  other('dot-segment', `behind "${lead}%2F%2E%2E%2F", a dot segment with its dots percent-encoded too`, `${lead}/../${id}`, false, `${lead}%2F%2E%2E%2F${encodeURIComponent(id)}`);

  // The id taken for a pattern (red team round ten: `WHERE id LIKE $1` unescaped, a "revoke all" shortcut): the wildcard characters of SQL
  // LIKE (_ %), of globs (* ? [...]) and of regular expressions (. .*) built on the real id, which such a server resolves to it (or to
  // every id of the account, on the delete), and the words and characters for every id on their own. Ids are compared exactly (spec
  // decisions project-id-compared-exactly, token-ids-compared-exactly): each names nothing, 404. `_` and `.` are characters of real ids
  // (lookalikes).
  const stem = chars.slice(0, Math.floor(chars.length / 2)).join('');
  const at = pick(random, chars.length);
  const replaced = (by: string) => [...chars.slice(0, at), by, ...chars.slice(at + 1)].join('');
  const cut = stem === '' ? 'as' : `cut to its first ${stem.length} characters and`;
  other('sql-like', `with character ${at + 1} replaced by the SQL LIKE wildcard _`, replaced('_'), true);
  other('sql-like', `${cut} the SQL LIKE wildcard %`, `${stem}%`);
  other('sql-like', 'as the SQL LIKE pattern for every id, % alone', '%');
  other('glob', `${cut} the glob wildcard *`, `${stem}*`);
  other('glob', `with character ${at + 1} replaced by the glob wildcard ?`, replaced('?'));
  other('glob', `with character ${at + 1} in a bracket class`, replaced(`[${chars[at]}]`));
  other('glob', 'as the glob for every id, * alone', '*');
  // Where ids are numbers a word is no id of the kind; elsewhere `all` could be a real one, and names nothing built on this id.
  if (/^[0-9]+$/.test(id)) other('glob', 'as the word all (every id, to a "revoke all" shortcut)', 'all');
  if (!['.', '..'].includes(replaced('.'))) other('regex', `with character ${at + 1} replaced by the regular expression wildcard .`, replaced('.'), true);
  other('regex', `${cut} the regular expression .*`, `${stem}.*`);
  other('regex', 'as the regular expression for every id, .* alone', '.*');

  // A percent-encoded delimiter is data (RFC 3986 §2.2; red team round seventeen: the target decoded whole before the query was split
  // off, so `default%3Fx` was project default and `3%3F` deleted token 3). A server that decodes first and splits after reads the id
  // before the delimiter: a query or a fragment (? #), matrix parameters (;), a list (,), a `name@version` spec (@), a segment (/).
  // Each of those after the id, alone or with more after it (drawn), is a rule of its own; the other reserved characters share one
  // rule after it, and one inside the id (drawn from all of them, for a sanitizer that strips it). Each names another id: 404, or a
  // refusal of malformed input (400: decision malformed-input-refusals).
  const tail = pick(random, 2) === 0 ? '' : Array.from({ length: 1 + pick(random, 3) }, () => ID_LIKE[pick(random, ID_LIKE.length)]!).join('');
  const reserved = [...RESERVED_CHARACTERS.keys()];
  const drawnReserved = (among: readonly string[]) => among[pick(random, among.length)]!;
  const CUTTING = ['?', '#', ';', ',', '@', '/'];
  const encode = (text: string) => [...text].map((c) => (RESERVED_CHARACTERS.has(c) ? encodedReserved(c) : encodeURIComponent(c))).join('');
  for (const d of CUTTING) other('delimiter', `with an encoded ${RESERVED_CHARACTERS.get(d)} (${encodedReserved(d)}) and "${tail}" after it`, id + d + tail, false, encode(id) + encodedReserved(d) + encode(tail));
  const rest = drawnReserved(reserved.filter((c) => !CUTTING.includes(c)));
  other('delimiter', `with the encoded reserved character "${encodedReserved(rest)}" and "${tail}" after it`, id + rest + tail, false, encode(id) + encodedReserved(rest) + encode(tail));
  if (chars.length > 1) {
    const inside = drawnReserved(reserved);
    const after = 1 + pick(random, chars.length - 1);
    const value = [...chars.slice(0, after), inside, ...chars.slice(after)].join('');
    other('delimiter', `with the encoded reserved character "${encodedReserved(inside)}" inserted after character ${after}`, value, false, encode(chars.slice(0, after).join('')) + encodedReserved(inside) + encode(chars.slice(after).join('')));
  }

  const segments = new Set<string>();
  const usable = all.filter((variant) => {
    if (segments.has(variant.segment)) return false;
    if (variant.names === 'other' && (variant.decoded === id || given.has(variant.decoded))) return false;
    if (deletable && (variant.names === 'same' || variant.lookalike)) return false;
    segments.add(variant.segment);
    return true;
  });
  return bounded(usable, budget, random, covered);
}
