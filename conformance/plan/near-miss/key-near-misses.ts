import { pick, type Random } from '../seeded-random.ts';
import { bounded } from './bounded.ts';
import { ACUTE_FROM, ACUTE_TO, acuteAccented, codePointLabel, isControl, unicodeWhitespace, utf8Wire } from './unicode-forms.ts';

/**
 * The grammar of near-misses of a key (spec decisions keys-compared-exactly, key-in-header-only):
 * real bugs sit next to the valid key (compared by prefix or without case, trimmed of Unicode
 * whitespace, a scheme stripped however often it comes, the key taken from a query or a cookie),
 * not in fixed strings. Every near-miss is invalid: a conformant server answers 401. Each is data
 * (how the key is changed, what goes around it, where it is sent), so the sender makes it from
 * the key, and a curl line from the variable holding it without ever showing the key.
 */
export type KeyFamily = 'case' | 'prefix' | 'substitution' | 'accent' | 'extension' | 'separator' | 'separator-swap' | 'whitespace' | 'quoting' | 'list' | 'word' | 'scheme' | 'placement' | 'encoding';

/** How the key itself is changed. */
export type KeyTransform =
  | { kind: 'same' }
  | { kind: 'upper' }
  | { kind: 'lower' }
  /** The case of the ASCII letters at these positions changed. */
  | { kind: 'flip-case'; at: readonly number[] }
  /** The character at `at` replaced by `by` (same length). */
  | { kind: 'replace'; at: number; by: string }
  /**
   * The ASCII vowel at `at` under an acute accent: as its one Latin-1 byte, as the UTF-8 bytes of the composed letter, or as the
   * letter followed by the UTF-8 bytes of U+0301 (decomposed); each byte one latin1 character, as the wire carries it.
   */
  | { kind: 'accent'; at: number; form: 'latin1' | 'utf8' | 'utf8-decomposed' }
  /** HTTP Basic credentials (RFC 7617 §2): base64 of the key as the user name (`key:`) or as the password (`:key`), UTF-8. */
  | { kind: 'basic'; as: 'user' | 'password' }
  | { kind: 'first'; length: number }
  | { kind: 'from'; start: number }
  /** The characters at these positions each replaced by `by` (the empty string removes them; ASCII positions, `by` ASCII). */
  | { kind: 'replace-each'; at: readonly number[]; by: string }
  /** `by` put in after the first `after` characters. */
  | { kind: 'insert'; after: number; by: string }
  /** The characters at these positions (ASCII ones) percent-encoded, RFC 3986 §2.1, in upper- or lower-case hex. */
  | { kind: 'percent-encode'; at: readonly number[]; hex: 'upper' | 'lower' };

export interface KeyNearMiss {
  /** Stable for a key and seed, e.g. `whitespace-after-U+00A0-byte`. */
  id: string;
  family: KeyFamily;
  /** e.g. `the full key followed by U+00A0 as one byte`. */
  describe: string;
  transform: KeyTransform;
  /** What goes on the wire before and after the changed key, one latin1 character per byte. */
  before: string;
  after: string;
  /** The scheme's header, or instead of it a query parameter or cookie of this name. */
  placement: { in: 'header' } | { in: 'query' | 'cookie'; name: string };
}

/** Near-misses of one key sent per run at most; the seed picks which when there are more. 80 since the separator swaps (round thirteen) brought the mock's admin key's grammar from 74 to 78. */
export const KEY_NEAR_MISS_BUDGET = 80;

/**
 * Schemes a server may strip or accept: those of the IANA HTTP Authentication Scheme Registry
 * (RFC 9110 §16.4), one drawn per run and sent as `Scheme <key>`. None but Bearer is decided (key-in-header-only).
 */
const OTHER_SCHEMES = ['Basic', 'Digest', 'Negotiate', 'HOBA', 'Mutual', 'DPoP', 'GNAP', 'PrivateToken', 'Concealed'];
/**
 * Schemes that carry a key in their own syntax, each sent in that syntax: a server that parses one of them accepts its own form,
 * not a generic `Scheme <key>` (round 9: Rails' authenticate_with_http_token, Stripe-style Basic with the key as user name).
 */
const KEY_SCHEME_FORMS: readonly { id: string; describe: string; before: string; after?: string; transform?: KeyTransform }[] = [
  { id: 'token', describe: 'the full key after the scheme Token', before: 'Token ' },
  { id: 'token-rails', describe: 'the full key as Token token="…", the Rails form', before: 'Token token="', after: '"' },
  { id: 'apikey', describe: 'the full key after the scheme ApiKey', before: 'ApiKey ' },
  { id: 'key', describe: 'the full key after the scheme Key', before: 'Key ' },
  { id: 'basic-user', describe: 'the full key as the user name of Basic credentials (base64 of the key and a colon)', before: 'Basic ', transform: { kind: 'basic', as: 'user' } },
  { id: 'basic-password', describe: 'the full key as the password of Basic credentials (base64 of a colon and the key)', before: 'Basic ', transform: { kind: 'basic', as: 'password' } },
];
/** Query parameter and cookie names that servers read keys from, besides the header's own name. */
export const KEY_PARAMETER_NAMES: readonly string[] = ['apiKey', 'api_key', 'token', 'access_token'];
/** Separators of key formats, by name (words, so that each is a rule of its own for bounded()). */
const KEY_SEPARATORS: ReadonlyMap<string, string> = new Map([
  [':', 'colon'],
  ['.', 'full stop'],
  ['_', 'underscore'],
  ['/', 'slash'],
  ['-', 'hyphen'],
]);
/** The separators of words that slug, snake and kebab case converters map into one another (red team round thirteen). */
const WORD_SEPARATORS: ReadonlyMap<string, string> = new Map([
  ['-', 'hyphen'],
  ['_', 'underscore'],
  ['.', 'full stop'],
  [' ', 'space'],
]);
const KEY_LIKE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function applyTransform(key: string, transform: KeyTransform): string {
  switch (transform.kind) {
    case 'same':
      return key;
    case 'upper':
      return key.toUpperCase();
    case 'lower':
      return key.toLowerCase();
    case 'flip-case':
      return [...key].map((char, i) => (transform.at.includes(i) ? (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase()) : char)).join('');
    case 'replace':
      return key.slice(0, transform.at) + transform.by + key.slice(transform.at + 1);
    case 'accent': {
      const letter = key[transform.at]!;
      const accented = transform.form === 'latin1' ? acuteAccented(letter)! : transform.form === 'utf8' ? utf8Wire(acuteAccented(letter)!) : letter + utf8Wire('\u0301');
      return key.slice(0, transform.at) + accented + key.slice(transform.at + 1);
    }
    case 'basic':
      return Buffer.from(transform.as === 'user' ? `${key}:` : `:${key}`, 'utf8').toString('base64');
    case 'first':
      return key.slice(0, transform.length);
    case 'from':
      return key.slice(transform.start);
    case 'percent-encode':
      return [...key].map((char, i) => (transform.at.includes(i) ? percentEncoded(char, transform.hex) : char)).join('');
    case 'replace-each':
      return [...key].map((char, i) => (transform.at.includes(i) ? transform.by : char)).join('');
    case 'insert':
      return key.slice(0, transform.after) + transform.by + key.slice(transform.after);
  }
}

function percentEncoded(char: string, hex: 'upper' | 'lower'): string {
  const code = char.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${hex === 'upper' ? code.toUpperCase() : code}`;
}

/** The near-miss made from the key: the value sent (header value, query or cookie value). */
export function nearMissValue(key: string, nearMiss: KeyNearMiss): string {
  return nearMiss.before + applyTransform(key, nearMiss.transform) + nearMiss.after;
}

/**
 * The near-misses of `key` worth sending: each differs from every key given (`others`: the
 * restricted key, the generated invalid one) and from the others, and is not empty.
 */
export function keyNearMisses(key: string, others: readonly (string | undefined)[], headerName: string, random: Random): KeyNearMiss[] {
  const all: KeyNearMiss[] = [];
  const header = { in: 'header' } as const;
  const add = (family: KeyFamily, id: string, describe: string, transform: KeyTransform, before = '', after = '', placement: KeyNearMiss['placement'] = header) =>
    all.push({ id: `${family}-${id}`, family, describe, transform, before, after, placement });

  add('case', 'upper', 'the full key in upper case', { kind: 'upper' });
  add('case', 'lower', 'the full key in lower case', { kind: 'lower' });
  const letters = [...key].flatMap((char, i) => (char.toUpperCase() !== char.toLowerCase() && key.length === [...key].length ? [i] : []));
  if (letters.length > 0) {
    const at = letters[pick(random, letters.length)]!;
    add('case', `flip-${at}`, `the full key with the case of character ${at + 1} changed`, { kind: 'flip-case', at: [at] });
    // Some letters changed, not all: a comparison that folds case in a locale (Turkish: i upper-cases to İ, Java's toUpperCase()
    // without Locale.ROOT) refuses the key in capitals and accepts every spelling that keeps its lower-case i (round 9).
    const wordStarts = letters.filter((i) => i === 0 || !/[A-Za-z]/.test(key[i - 1]!));
    add('case', 'word-starts', "the full key with the case of each word's first letter changed (title case for a key in lower case)", { kind: 'flip-case', at: wordStarts });
  }

  // Same length, one character replaced: a server that finds the key by a prefix (`<lookup prefix><secret>`) or by the hint it
  // shows (first and last characters) and checks only the length of the rest accepts it; a character more or less tells nothing there.
  const replacement = (at: number) => {
    const choices = KEY_LIKE.replace(key[at]!, '');
    return choices[pick(random, choices.length)]!;
  };
  if (key.length > 0 && key.length === [...key].length) {
    const last = key.length - 1;
    const byLast = replacement(last);
    add('substitution', 'last', `the full key with its last character replaced by "${byLast}"`, { kind: 'replace', at: last, by: byLast });
    if (key.length > 2) {
      const at = 1 + pick(random, key.length - 2);
      const by = replacement(at);
      add('substitution', `middle-${at}`, `the full key with character ${at + 1} replaced by "${by}"`, { kind: 'replace', at, by });
    }
  }

  // A letter under an accent: accent-insensitive collations (SQL Server _AI, ICU level 1) and "unaccent" folding take it for the
  // letter. As one Latin-1 byte (how Node, WSGI and Tomcat decode header bytes) and in UTF-8, composed and decomposed (U+0301).
  const vowels = key.length === [...key].length ? [...key].flatMap((char, i) => (acuteAccented(char) ? [i] : [])) : [];
  if (vowels.length > 0) {
    const at = vowels[pick(random, vowels.length)]!;
    add('accent', `latin1-${at}`, `the full key with character ${at + 1} under an acute accent as one Latin-1 byte`, { kind: 'accent', at, form: 'latin1' });
    add('accent', `utf8-${at}`, `the full key with character ${at + 1} under an acute accent in UTF-8, composed`, { kind: 'accent', at, form: 'utf8' });
    add('accent', `utf8-decomposed-${at}`, `the full key with character ${at + 1} under an acute accent in UTF-8, decomposed (the letter and U+0301)`, { kind: 'accent', at, form: 'utf8-decomposed' });
  }

  if (key.length > 1) {
    add('prefix', 'without-last', 'the full key without its last character', { kind: 'first', length: key.length - 1 });
    add('prefix', 'without-first', 'the full key without its first character', { kind: 'from', start: 1 });
  }
  if (key.length > 3) {
    const length = 1 + pick(random, key.length - 2);
    add('prefix', `first-${length}`, `the first ${length} characters of the full key`, { kind: 'first', length });
  }

  // Key formats with separators (Unleash's `<project>:<environment>.<secret>`, `<id>:<secret>`, `<key>.<signature>`, `<key>/<scope>`)
  // make servers compare only up to a separator: the key followed by a separator and more, and the key cut at one of its own.
  const suffix = Array.from({ length: 4 }, () => KEY_LIKE[pick(random, KEY_LIKE.length)]!).join('');
  for (const [separator, name] of KEY_SEPARATORS) {
    add('separator', `followed-by-${name.replace(/ /g, '-')}`, `the full key followed by a ${name} and "${suffix}"`, { kind: 'same' }, '', `${separator}${suffix}`);
  }
  [...key].forEach((char, at) => {
    const name = KEY_SEPARATORS.get(char);
    if (name !== undefined && at > 0 && key.length === [...key].length) add('separator', `cut-at-${at}`, `the full key cut before its ${name} at character ${at + 1}`, { kind: 'first', length: at });
  });

  // Separators normalized away (red team round thirteen): a lookup that drops the hyphens a UI groups a key with, or reads `_`, `.`
  // or spaces as the key format's own separator, takes another key for it. Keys are compared exactly (decision keys-compared-exactly):
  // each separator of the key written as each other word separator (- _ . space: what slug and case converters map), all of them
  // removed, and in a key without one a hyphen put inside it (a server that drops hyphens from what it is sent) are invalid keys (401).
  if (key.length === [...key].length) {
    let separated = false;
    for (const [separator, name] of KEY_SEPARATORS) {
      const at = [...key].flatMap((char, i) => (char === separator ? [i] : []));
      if (at.length === 0) continue;
      separated = true;
      const plural = `${name}s`;
      for (const [to, toName] of WORD_SEPARATORS) {
        if (to !== separator) add('separator-swap', `${name.replace(/ /g, '-')}-as-${toName.replace(/ /g, '-')}`, `the full key with its ${plural} written as ${toName}s`, { kind: 'replace-each', at, by: to });
      }
      add('separator-swap', `${name.replace(/ /g, '-')}-removed`, `the full key with its ${plural} removed`, { kind: 'replace-each', at, by: '' });
    }
    if (!separated && key.length > 1) {
      const after = 1 + pick(random, key.length - 1);
      add('separator-swap', `hyphen-inserted-${after}`, `the full key with a hyphen inserted after character ${after}`, { kind: 'insert', after, by: '-' });
    }
  }

  const appended = KEY_LIKE[pick(random, KEY_LIKE.length)]!;
  const prepended = KEY_LIKE[pick(random, KEY_LIKE.length)]!;
  add('extension', 'appended', `the full key with "${appended}" appended`, { kind: 'same' }, '', appended);
  add('extension', 'prepended', `the full key with "${prepended}" before it`, { kind: 'same' }, prepended);

  // Spaces and tabs around a field value are not part of it (RFC 9110 §5.5), and controls are not
  // allowed in one: what is left is every other whitespace, as UTF-8 and, where it is one byte in
  // latin1 (the encoding Node and WSGI decode header bytes with), as that byte too.
  // Every whitespace goes on both sides at once (what trim(), strip() and TrimSpace drop, each with its own set); one drawn per
  // encoding goes on each side alone, for a server that trims one side only (the rest after the scheme, a trailing line break).
  const sided: Record<'utf8' | 'byte', [number, string][]> = { utf8: [], byte: [] };
  for (const cp of unicodeWhitespace()) {
    if (cp === 0x20 || isControl(cp)) continue;
    const char = String.fromCodePoint(cp);
    sided.utf8.push([cp, utf8Wire(char)]);
    if (cp <= 0xff) sided.byte.push([cp, char]);
  }
  for (const encoding of ['utf8', 'byte'] as const) {
    const how = encoding === 'utf8' ? 'in UTF-8' : 'as one byte';
    for (const [cp, bytes] of sided[encoding]) add('whitespace', `both-${codePointLabel(cp)}-${encoding}`, `the full key with ${codePointLabel(cp)} on both sides ${how}`, { kind: 'same' }, bytes, bytes);
    if (sided[encoding].length === 0) continue;
    const [before, beforeBytes] = sided[encoding][pick(random, sided[encoding].length)]!;
    const [after, afterBytes] = sided[encoding][pick(random, sided[encoding].length)]!;
    add('whitespace', `before-${codePointLabel(before)}-${encoding}`, `the full key after ${codePointLabel(before)} ${how}`, { kind: 'same' }, beforeBytes);
    add('whitespace', `after-${codePointLabel(after)}-${encoding}`, `the full key followed by ${codePointLabel(after)} ${how}`, { kind: 'same' }, '', afterBytes);
  }

  // What config files, shells and documentation put around a key (a value pasted with its quotes, a placeholder's brackets).
  add('quoting', 'double', 'the full key in double quotes', { kind: 'same' }, '"', '"');
  add('quoting', 'single', 'the full key in single quotes', { kind: 'same' }, "'", "'");
  add('quoting', 'angle', 'the full key in angle brackets', { kind: 'same' }, '<', '>');

  // List syntax (RFC 9110 §5.6.1, how proxies merge repeated fields, §5.3): Authorization is no list, so the whole value is the key sent.
  const item = Array.from({ length: 4 }, () => KEY_LIKE[pick(random, KEY_LIKE.length)]!).join('');
  add('list', 'first', `the full key followed by ", ${item}" (list syntax, RFC 9110 §5.6.1)`, { kind: 'same' }, '', `, ${item}`);
  add('list', 'last', `the full key after "${item}, " (list syntax, RFC 9110 §5.6.1)`, { kind: 'same' }, `${item}, `);

  // Another word beside the key, a space between them, under each form the header holds a key in (key-in-header-only: the key
  // itself or `Bearer <key>`): a server that takes one word of the value (`value.split(" ")[1]` after testing for `Bearer `,
  // round 11; the first word after removing the scheme) takes the key. A token68 credential is one word (RFC 9110 §11.4).
  for (const [scheme, form] of [['', 'the full key'], ['Bearer ', 'the full key after the scheme Bearer,']] as const) {
    const id = scheme === '' ? '' : 'bearer-';
    add('word', `${id}followed`, `${form} followed by a space and "${item}"`, { kind: 'same' }, scheme, ` ${item}`);
    add('word', `${id}preceded`, `${form} preceded by "${item}" and a space`, { kind: 'same' }, `${scheme}${item} `);
  }

  add('scheme', 'bearer-twice', 'the full key after the scheme Bearer twice', { kind: 'same' }, 'Bearer Bearer ');
  add('scheme', 'bearer-glued', 'the full key right after "Bearer", without the space', { kind: 'same' }, 'Bearer');
  for (const form of KEY_SCHEME_FORMS) add('scheme', form.id, form.describe, form.transform ?? { kind: 'same' }, form.before, form.after);
  const scheme = OTHER_SCHEMES[pick(random, OTHER_SCHEMES.length)]!;
  add('scheme', `other-${scheme}`, `the full key after the scheme ${scheme}`, { kind: 'same' }, `${scheme} `);

  // A key compared exactly is compared as sent: a server that percent-decodes the header value (code shared with cookie or
  // query parsing) or normalizes escapes of unreserved characters (RFC 3986 §6.2.2.2, which is about URIs, not keys) takes
  // another spelling for the key. Only ASCII characters, so that each escape is one byte and one bash printf.
  const ascii = key.length === [...key].length ? [...key].flatMap((char, i) => (char.charCodeAt(0) < 0x80 ? [i] : [])) : [];
  const alphanumeric = ascii.filter((i) => /[A-Za-z0-9]/.test(key[i]!));
  const punctuation = ascii.filter((i) => !/[A-Za-z0-9]/.test(key[i]!));
  if (ascii.length > 0) {
    const at = punctuation.length > 0 ? punctuation[pick(random, punctuation.length)]! : ascii[pick(random, ascii.length)]!;
    add('encoding', `percent-${at}`, `the full key with character ${at + 1} percent-encoded`, { kind: 'percent-encode', at: [at], hex: 'upper' });
    add('encoding', 'percent-every', 'the full key with every character percent-encoded', { kind: 'percent-encode', at: ascii, hex: 'upper' });
  }
  if (alphanumeric.length > 0) {
    const at = alphanumeric[pick(random, alphanumeric.length)]!;
    add('encoding', `percent-lower-${at}`, `the full key with its letter or digit ${at + 1} percent-encoded in lower-case hex`, { kind: 'percent-encode', at: [at], hex: 'lower' });
  }

  for (const name of [headerName, ...KEY_PARAMETER_NAMES]) {
    add('placement', `query-${name}`, `the full key in the query parameter ${name} instead of the header`, { kind: 'same' }, '', '', { in: 'query', name });
    add('placement', `cookie-${name}`, `the full key in the cookie ${name} instead of the header`, { kind: 'same' }, '', '', { in: 'cookie', name });
  }

  const seen = new Set<string>((others.filter(Boolean) as string[]).concat(key));
  const distinct = all.filter((nearMiss) => {
    const value = nearMissValue(key, nearMiss);
    const where = nearMiss.placement.in === 'header' ? value : `${nearMiss.placement.in}:${nearMiss.placement.name}`;
    if (value === '' || (nearMiss.placement.in === 'header' && seen.has(value.replace(/^[ \t]+|[ \t]+$/g, ''))) || seen.has(where)) return false;
    seen.add(where);
    return true;
  });
  return bounded(distinct, KEY_NEAR_MISS_BUDGET, random);
}

/**
 * The bash words that make the near-miss's value from the variable holding the key, for use
 * inside double quotes: `${V^^}`, `${V:0:5}`, bytes that are not printable as `"$'\xc2\xa0'"`.
 */
export function keyExpansion(nearMiss: KeyNearMiss, variable: string): string {
  return bytesInDoubleQuotes(nearMiss.before) + transformExpansion(nearMiss.transform, variable) + bytesInDoubleQuotes(nearMiss.after);
}

function transformExpansion(transform: KeyTransform, v: string): string {
  switch (transform.kind) {
    case 'same':
      return `\${${v}}`;
    case 'upper':
      return `\${${v}^^}`;
    case 'lower':
      return `\${${v},,}`;
    case 'flip-case':
      return spliced(v, transform.at, (at) => `$(printf %s "\${${v}:${at}:1}" | tr a-zA-Z A-Za-z)`);
    case 'replace':
      return spliced(v, [transform.at], () => bytesInDoubleQuotes(transform.by));
    case 'accent': {
      // The accented byte is made from the key's own letter by tr (bytes, as in LC_ALL=C), never written out: it would show the letter.
      const latin1 = `printf %s "\${${v}:${transform.at}:1}" | LC_ALL=C tr ${ACUTE_FROM} $'${[...ACUTE_TO].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join('')}'`;
      if (transform.form === 'latin1') return spliced(v, [transform.at], () => `$(${latin1})`);
      if (transform.form === 'utf8') return spliced(v, [transform.at], () => `$(${latin1} | iconv -f ISO-8859-1 -t UTF-8)`);
      return `\${${v}:0:${transform.at + 1}}${bytesInDoubleQuotes(utf8Wire('\u0301'))}\${${v}:${transform.at + 1}}`;
    }
    case 'basic':
      return `$(printf '${transform.as === 'user' ? '%s:' : ':%s'}' "\${${v}}" | base64 | tr -d '\\n')`;
    case 'first':
      return `\${${v}:0:${transform.length}}`;
    case 'from':
      return `\${${v}:${transform.start}}`;
    case 'replace-each':
      return spliced(v, transform.at, () => bytesInDoubleQuotes(transform.by));
    case 'insert':
      return `\${${v}:0:${transform.after}}${bytesInDoubleQuotes(transform.by)}\${${v}:${transform.after}}`;
    case 'percent-encode': {
      // printf's "'c" argument is the character's code (POSIX printf): the escape is made from the key, never shown.
      const format = transform.hex === 'upper' ? '%%%02X' : '%%%02x';
      return spliced(v, transform.at, (at) => `$(printf '${format}' "'\${${v}:${at}:1}")`);
    }
  }
}

/** The variable's value with the character at each position replaced by what `replace` writes for it. */
function spliced(v: string, positions: readonly number[], replace: (at: number) => string): string {
  let out = '';
  let from = 0;
  for (const at of [...positions].sort((a, b) => a - b)) {
    if (at > from) out += `\${${v}:${from}:${at - from}}`;
    out += replace(at);
    from = at + 1;
  }
  return `${out}\${${v}:${from}}`;
}

function bytesInDoubleQuotes(bytes: string): string {
  if (/^[\x20-\x7e]*$/.test(bytes)) return bytes.replace(/["\\$`]/g, '\\$&');
  const escaped = [...bytes].map((char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  return `"$'${escaped}'"`;
}
