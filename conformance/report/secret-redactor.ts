import { REDACTED } from '../../src/contract/index.ts';

/**
 * Keeps secrets (the keys the suite sends, values of `format: password` properties it saw) out of
 * the text a report renders. It runs on rendered text only (a JSON string after parsing, a header
 * value, an excerpt, a message), never on what the checks judge: a short key such as `k` must not
 * corrupt a body before it is judged (issue 7).
 *
 * The principle (issue 13): no report holds a secret, or any run of SUBSTRING_MIN or more
 * consecutive characters of it, forwards or reversed, in any case, in any form a server may
 * reasonably encode text in, nor rebuilt from adjacent values of one body. Rather than a list of
 * encoded spellings, the text is read through *views*: each decoding of the whole text (percent,
 * quoted-printable, `\u`/`\x`/octal escapes, HTML entities, hex, base64 and base64url, Unicode
 * compatibility forms), each way of joining its pieces (without whitespace or separators, every
 * second or third character, the values of its string literals, the text of its markup) and each
 * of those decoded once more. Every character of a view remembers the span of the original text it
 * came from, so a match in any view redacts exactly the original characters that spell it.
 *
 * A secret shorter than SUBSTRING_MIN has no "part" worth hiding, but the whole of it is a secret
 * whatever its length (issue 19: a 7-character OIDC secret echoed in an error message): one of
 * TOKEN_MIN characters or more is redacted wherever it shows whole as a word of its own (no letter
 * or digit beside it) in any of the same views. One shorter still would match ordinary words (a
 * learned OIDC secret `x` would censor every `x`, issue 13 item 3): it is redacted only where a
 * whole value (the whole text, or one of its string literals) is it.
 */
export type Redact = (text: string) => string;

/** Secrets at least this long are redacted wherever this many consecutive characters of them show; shorter ones only as whole values. */
export const SUBSTRING_MIN = 8;

/**
 * Short secrets this long or longer are redacted wherever they show whole as a word; shorter ones only as whole values.
 * 4 is the shortest value the proxy takes for a key under a credential's name (traffic-secrets.ts MIN_NAMED_VALUE):
 * below it every secret is also an ordinary word (`x`, `id`, `on`), which would let a target censor the evidence.
 */
export const TOKEN_MIN = 4;

/** A reading of the text: each character with the span [from, to) of the original it came from. */
interface View {
  text: string;
  from: Int32Array;
  to: Int32Array;
}

/** One way to read a view; `minRun` is the shortest run of encoded text worth decoding. */
interface Decoder {
  /** Joins rather than decodes: left out where whole values are compared. */
  joinsOnly?: boolean;
  /** Which decoders read its views further: all (the default), none (every third character of a decoding is noise), or hex only (base64 has the separators this view drops). */
  then?: 'none' | 'hex';
  /** Reads hex digits as bytes (the one decoder a separator-less view is worth). */
  hex?: boolean;
  read(view: View, minRun: number): View[];
}

/** How many views of one text at most: decodings of decodings are bounded, whatever the text. */
const MAX_VIEWS = 96;
/** Redacting the same text again (the same error body quoted by several findings) is a lookup. */
const CACHE_LIMIT = 4096;

/**
 * The one redactor of every output (DESIGN.md, "One redaction for every output"): the suite's
 * reports, the proxy's journal, access log, dashboard and reports, and the recording all call
 * this, never a redactor of their own. `createRedactor(secrets)` returns a pure function of text;
 * give it every secret the traffic carried (keys from any header, query, cookie or path, `format:
 * password` values) and call it on each text an output writes. Building one is cheap enough to
 * build again when a new secret is learned; redacting twice changes nothing.
 */
export function createRedactor(secrets: Iterable<string>): Redact {
  const all = [...new Set([...secrets].filter((s) => s.length > 0))];
  const fragments = new Set<string>();
  const whole = new Set<string>();
  const words = new Set<string>();
  for (const secret of all) {
    const length = [...secret].length;
    for (const { form, named } of spellings(secret)) {
      if (length < SUBSTRING_MIN) {
        whole.add(form);
        if (length >= TOKEN_MIN) words.add(form);
      }
      // A run that lies inside the naming prefix (`default:development.`) is data a body may hold for its own sake.
      else for (let i = 0; i + SUBSTRING_MIN <= form.length; i++) if (i + SUBSTRING_MIN > named[0] && i < named[1]) fragments.add(form.slice(i, i + SUBSTRING_MIN));
    }
  }
  if (fragments.size === 0 && whole.size === 0) return (text) => text;
  // The first two characters of every fragment: most positions of a view are ruled out without a slice.
  const pairs = new Set([...fragments].map((f) => f.charCodeAt(0) * 65536 + f.charCodeAt(1)));
  const cache = new Map<string, string>();
  return (text) => {
    const known = cache.get(text);
    if (known !== undefined) return known;
    const spans = [...(fragments.size > 0 ? fragmentSpans(text, fragments, pairs) : []), ...(whole.size > 0 ? wholeValueSpans(text, whole) : []), ...(words.size > 0 ? wordSpans(text, words) : [])];
    const out = replaceSpans(text, spans);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(text, out);
    return out;
  };
}

/**
 * How much of a key names things rather than being secret. Unleash's API tokens are
 * `<project>:<environment>.<secret>` (docs.getunleash.io, "API tokens": `default:development.be7c…`,
 * `*:*.…` for all): the project `default` and the environment `development` are data every body of
 * the API holds, and a report that shows them as `<redacted>` hides the evidence (issue 19). Runs of
 * a key that lie wholly inside this prefix are not redacted; any run that reaches past it is.
 */
export function namingPrefixLength(secret: string): number {
  // After a scheme, if any: `Bearer default:development.` as an Authorization header sends it.
  return /^(?:[A-Za-z][A-Za-z0-9._~+-]*[ \t]+)?[^:.\s]+:[^:.\s]+\./.exec(secret)?.[0].length ?? 0;
}

/**
 * The forms a view is compared with: case-folded, forwards and reversed, as characters and as
 * UTF-8 bytes read one per character; `named` is where in the form the secret part lies past the
 * naming prefix (at its end when reversed).
 */
function spellings(secret: string): { form: string; named: [number, number] }[] {
  const chars = foldCase(secret);
  const bytes = foldCase(latin1(new TextEncoder().encode(secret)));
  const prefix = secret.slice(0, namingPrefixLength(secret));
  const prefixBytes = new TextEncoder().encode(prefix).length;
  return [
    { form: chars, named: [prefix.length, chars.length] },
    { form: reverse(chars), named: [0, chars.length - prefix.length] },
    { form: bytes, named: [prefixBytes, bytes.length] },
    { form: reverse(bytes), named: [0, bytes.length - prefixBytes] },
  ];
}

/** Spans where a run of SUBSTRING_MIN characters of a long secret shows in some view. */
function fragmentSpans(text: string, fragments: ReadonlySet<string>, pairs: ReadonlySet<number>): [number, number][] {
  const spans: [number, number][] = [];
  for (const view of views(text, SUBSTRING_MIN)) {
    const folded = foldCase(view.text);
    for (let i = 0; i + SUBSTRING_MIN <= folded.length; i++) {
      if (!pairs.has(folded.charCodeAt(i) * 65536 + folded.charCodeAt(i + 1))) continue;
      // Each character's own span: a key split across two values leaves the text between them.
      if (fragments.has(folded.slice(i, i + SUBSTRING_MIN))) for (let k = i; k < i + SUBSTRING_MIN; k++) spans.push([view.from[k]!, view.to[k]!]);
    }
  }
  return spans;
}

/** Spans where a short secret shows whole in some view, with no letter or digit on either side. */
function wordSpans(text: string, words: ReadonlySet<string>): [number, number][] {
  const spans: [number, number][] = [];
  const shortest = Math.min(...[...words].map((w) => w.length));
  for (const view of views(text, shortest)) {
    const folded = foldCase(view.text);
    for (const word of words) {
      for (let i = folded.indexOf(word); i >= 0; i = folded.indexOf(word, i + 1)) {
        const end = i + word.length;
        if ((i > 0 && WORD_CHAR.test(folded[i - 1]!)) || (end < folded.length && WORD_CHAR.test(folded[end]!))) continue;
        for (let k = i; k < end; k++) spans.push([view.from[k]!, view.to[k]!]);
      }
    }
  }
  return spans;
}

/** A character that makes a word longer: a secret beside one is part of another word. */
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Spans of whole values (the text itself, each string literal in it) that are a short secret in some view. */
function wholeValueSpans(text: string, whole: ReadonlySet<string>): [number, number][] {
  const spans: [number, number][] = [];
  for (const [start, end] of [[0, text.length] as [number, number], ...stringLiterals(text).map(({ start, end }): [number, number] => [start, end])]) {
    const value = text.slice(start, end);
    const trimmed = value.trim();
    if (trimmed.length === 0 || trimmed.length > 64) continue;
    // Joins are left out: every second character of a two-letter word would "be" a one-letter secret.
    if (views(trimmed, 1, false).some((view) => whole.has(foldCase(view.text.trim())))) spans.push([start, end]);
  }
  return spans;
}

/**
 * The original text with each span replaced by the marker; spans that touch, or are apart only by
 * separators (a spaced-out key, `","` between two halves), become one marker. The marker itself
 * is never eaten.
 */
function replaceSpans(text: string, spans: [number, number][]): string {
  if (spans.length === 0) return text;
  const markers: [number, number][] = [];
  for (let at = text.indexOf(REDACTED); at >= 0; at = text.indexOf(REDACTED, at + REDACTED.length)) markers.push([at, at + REDACTED.length]);
  const kept = spans.filter(([a, b]) => !markers.some(([m, n]) => a >= m && b <= n)).sort((x, y) => x[0] - y[0]);
  let out = '';
  let at = 0;
  for (let i = 0; i < kept.length; ) {
    const start = kept[i]![0];
    let end = kept[i]![1];
    for (i++; i < kept.length && (kept[i]![0] <= end || onlySeparators(text.slice(end, kept[i]![0]))); i++) end = Math.max(end, kept[i]![1]);
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return out + text.slice(at);
}

function onlySeparators(text: string): boolean {
  return [...text].every((c) => SEPARATOR.test(c));
}

/** The text itself, every reading of it, and every decoding of each reading, at most MAX_VIEWS. */
function views(text: string, minRun: number, joins = true): View[] {
  // Indexed by UTF-16 unit, so that spans slice the original string directly.
  const from = new Int32Array(text.length);
  const to = new Int32Array(text.length);
  for (let i = 0; i < text.length; i++) [from[i], to[i]] = [i, i + 1];
  const identity: View = { text, from, to };
  const out = [identity];
  const first = DECODERS.flatMap((decoder) => (joins || !decoder.joinsOnly ? decoder.read(identity, minRun).map((view) => ({ view, then: decoder.then })) : []));
  out.push(...first.map(({ view }) => view));
  for (const { view, then } of first) {
    if (then === 'none') continue;
    for (const decoder of DECODERS) {
      if (decoder.joinsOnly || (then === 'hex' && !decoder.hex) || out.length >= MAX_VIEWS) continue;
      out.push(...decoder.read(view, minRun).slice(0, MAX_VIEWS - out.length));
    }
  }
  return out.filter((view) => view.text.length >= minRun);
}

/** Builds a view character by character, each from a span [a, b) of the view it reads. */
function builder(source: View) {
  // Typed arrays sized to the source (decodings rarely grow a text): the views of one text are many, their garbage was most of the cost.
  let from = new Int32Array(source.text.length + 8);
  let to = new Int32Array(source.text.length + 8);
  const chars: string[] = [];
  let length = 0;
  const room = (more: number) => {
    if (length + more <= from.length) return;
    const size = Math.max(from.length * 2, length + more);
    const grown = (array: Int32Array) => {
      const bigger = new Int32Array(size);
      bigger.set(array);
      return bigger;
    };
    from = grown(from);
    to = grown(to);
  };
  return {
    push(char: string, a: number, b: number) {
      room(1);
      chars.push(char);
      from[length] = source.from[a]!;
      to[length++] = source.to[b - 1]!;
    },
    /** The source's characters [a, b) as they are. */
    keep(a: number, b: number) {
      if (b <= a) return;
      room(b - a);
      chars.push(source.text.slice(a, b));
      from.set(source.from.subarray(a, b), length);
      to.set(source.to.subarray(a, b), length);
      length += b - a;
    },
    done(): View {
      return { text: chars.join(''), from: from.subarray(0, length), to: to.subarray(0, length) };
    },
  };
}

/**
 * Replaces each regex match by what `decode` makes of it: a string (every character of it from
 * the whole match), or characters it emits itself, each from offsets [a, b) within the match
 * (true when it did). Other characters pass.
 */
type Emit = (char: string, a: number, b: number) => void;
function substitute(view: View, pattern: RegExp, decode: (match: RegExpExecArray, emit: Emit) => string | boolean | undefined): View | undefined {
  const out = builder(view);
  let at = 0;
  let changed = false;
  for (const match of view.text.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    let emitted = false;
    const decoded = decode(match, (char, a, b) => {
      if (!emitted) out.keep(at, start);
      emitted = true;
      out.push(char, start + a, start + b);
    });
    if (decoded === undefined || decoded === false) continue;
    if (typeof decoded === 'string') {
      out.keep(at, start);
      for (const char of decoded) out.push(char, start, end);
    } else if (!emitted) out.keep(at, start);
    at = end;
    changed = true;
  }
  if (!changed) return undefined;
  out.keep(at, view.text.length);
  return out.done();
}

/** Keeps the characters `keep` accepts. */
function filtered(view: View, keep: (char: string, index: number) => boolean): View | undefined {
  const out = builder(view);
  for (let i = 0; i < view.text.length; i++) if (keep(view.text[i]!, i)) out.push(view.text[i]!, i, i + 1);
  const result = out.done();
  return result.text.length === view.text.length ? undefined : result;
}

const present = <T>(...items: (T | undefined)[]): T[] => items.filter((item): item is T => item !== undefined);

const HEX_PAIR = /[%=]([0-9a-fA-F]{2})/g;
const ESCAPE = /\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\([0-7]{1,3})|\\([^])/g;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', '0': '\0' };
const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));?/g;
/** HTML's named references for ASCII and the common Latin-1 characters (WHATWG HTML, named character references). */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  excl: '!', quot: '"', QUOT: '"', num: '#', dollar: '$', percnt: '%', amp: '&', AMP: '&', apos: "'", lpar: '(', rpar: ')', ast: '*', midast: '*',
  plus: '+', comma: ',', period: '.', sol: '/', colon: ':', semi: ';', lt: '<', LT: '<', equals: '=', gt: '>', GT: '>', quest: '?', commat: '@',
  lsqb: '[', lbrack: '[', bsol: '\\', rsqb: ']', rbrack: ']', Hat: '^', lowbar: '_', UnderBar: '_', grave: '`', DiacriticalGrave: '`',
  lcub: '{', lbrace: '{', verbar: '|', vert: '|', VerticalLine: '|', rcub: '}', rbrace: '}', tilde: '~', dash: '\u2010', hyphen: '\u2010',
  minus: '\u2212', nbsp: '\u00a0', NewLine: '\n', Tab: '\t', shy: '\u00ad',
};
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Map([...BASE64_ALPHABET].map((c, i) => [c, i] as const).concat([['-', 62], ['_', 63]]));
const IGNORABLE = /[\s\p{Cf}]/u;
const SEPARATOR = /[\s\p{Cf}:,.;|_+\-/\\'"`]/u;

const DECODERS: readonly Decoder[] = [
  // Percent-encoding (RFC 3986 §2.1) and quoted-printable (RFC 2045 §6.7): `%6B`, `=6B`, one byte each.
  { read: (view) => present(substitute(view, HEX_PAIR, (m) => String.fromCharCode(Number.parseInt(m[1]!, 16)))) },
  // Backslash escapes of JSON, JavaScript and C: \u006b, \u{6b}, \x6b, \153, \k.
  {
    read: (view) =>
      view.text.includes('\\')
        ? present(
            substitute(view, ESCAPE, (m) => {
              const code = m[1] ?? m[2] ?? m[3];
              if (code !== undefined) return Number.parseInt(code, 16) <= 0x10ffff ? String.fromCodePoint(Number.parseInt(code, 16)) : undefined;
              if (m[4] !== undefined) return String.fromCharCode(Number.parseInt(m[4], 8) & 0xff);
              return SIMPLE_ESCAPES[m[5]!] ?? m[5];
            }),
          )
        : [],
  },
  // HTML character references: &#107; &#x6B; &amp; (a missing `;` too, as browsers read it).
  {
    read: (view) =>
      view.text.includes('&')
        ? present(
            substitute(view, ENTITY, (m) => {
              const code = m[1] !== undefined ? Number.parseInt(m[1], 16) : m[2] !== undefined ? Number.parseInt(m[2], 10) : undefined;
              if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
              return NAMED_ENTITIES[m[3]!];
            }),
          )
        : [],
  },
  // Hex: runs of hex digits read as bytes, from the run's first digit and from its second.
  {
    hex: true,
    read: (view, minRun) =>
      [0, 1].flatMap((shift) =>
        present(
          substitute(view, hexRun(2 * minRun + shift), (m, emit) => {
            const run = m[0];
            for (let i = 0; i < shift; i++) emit(run[i]!, i, i + 1);
            for (let i = shift; i < run.length; i += 2) {
              if (i + 1 < run.length) emit(String.fromCharCode(Number.parseInt(run.slice(i, i + 2), 16)), i, i + 2);
              else emit(run[i]!, i, i + 1);
            }
            return true;
          }),
        ),
      ),
  },
  // Base64 and base64url (RFC 4648 §4, §5), at each of the four alignments an echo inside a longer run may have.
  { read: (view, minRun) => [0, 1, 2, 3].flatMap((shift) => present(base64View(view, Math.ceil((minRun * 4) / 3), shift))) },
  // UTF-16 code units (LE or BE) once hex, percent or base64 is decoded: the NUL halves of ASCII characters dropped, each belonging to the character beside it.
  { read: (view) => (view.text.includes('\0') ? [withoutNuls(view)] : []) },
  // Unicode compatibility forms (fullwidth ｋ, ligatures, superscripts) read as their plain letters (NFKC).
  {
    read: (view) => {
      if (!/[^\u0000-\u007f]/.test(view.text)) return [];
      const out = builder(view);
      for (let i = 0; i < view.text.length; i++) for (const char of view.text[i]!.normalize('NFKC')) out.push(char, i, i + 1);
      return [out.done()];
    },
  },
  // Joins: without whitespace and invisible characters (a key spaced out, wrapped base64), and without separators too (6b:65:79).
  { joinsOnly: true, read: (view) => present(filtered(view, (c) => !IGNORABLE.test(c))) },
  { joinsOnly: true, then: 'hex', read: (view) => present(filtered(view, (c) => !SEPARATOR.test(c))) },
  // Every second or third character: a key interleaved with any one- or two-character separator.
  {
    joinsOnly: true,
    then: 'none',
    read: (view, minRun) =>
      view.text.length < 2 * minRun
        ? []
        : [2, 3].flatMap((step) => present(...Array.from({ length: step }, (_, shift) => filtered(view, (_, i) => i % step === shift)))),
  },
  // Adjacent string values of one body joined (a key split across two JSON fields), with and without the property names.
  {
    joinsOnly: true,
    read: (view) => {
      if (!view.text.includes('"')) return [];
      const literals = stringLiterals(view.text);
      if (literals.length < 2) return [];
      const join = (pick: typeof literals) => {
        const out = builder(view);
        for (const { start, end } of pick) for (let i = start; i < end; i++) out.push(view.text[i]!, i, i + 1);
        return out.done();
      };
      return [join(literals), join(literals.filter((l) => !l.isName))];
    },
  },
  // The text of markup without its tags (a key split across two elements).
  { joinsOnly: true, read: (view) => (/<[A-Za-z/!?]/.test(view.text) ? present(substitute(view, /<[A-Za-z/!?][^<>]*>/g, () => '')) : []) },
];

/** The view without NUL characters; each kept character spans the NULs right before and after it, so a redaction covers them. */
function withoutNuls(view: View): View {
  const out = builder(view);
  const text = view.text;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\0') continue;
    let a = i;
    while (a > 0 && text[a - 1] === '\0') a--;
    let b = i + 1;
    while (b < text.length && text[b] === '\0') b++;
    out.push(text[i]!, a, b);
  }
  return out.done();
}

/** The contents of each double-quoted string literal (escapes left as written), and whether it names a property (followed by `:`). */
function stringLiterals(text: string): { start: number; end: number; isName: boolean }[] {
  const out: { start: number; end: number; isName: boolean }[] = [];
  for (let i = text.indexOf('"'); i >= 0 && i < text.length; i = text.indexOf('"', i + 1)) {
    const start = i + 1;
    let end = start;
    while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
    if (end >= text.length) break;
    let next = end + 1;
    while (next < text.length && /\s/.test(text[next]!)) next++;
    out.push({ start, end, isName: text[next] === ':' });
    i = end;
  }
  return out;
}

/** Each base64 run of at least `minRun` characters decoded from its `shift`-th character on, one byte per character. */
function base64View(view: View, minRun: number, shift: number): View | undefined {
  return substitute(view, base64Run(Math.max(minRun, 2) + shift), (m, emit) => {
    const run = m[0].replace(/=+$/, '');
    // Padding belongs to the last group: it goes with it.
    const padding = m[0].length - run.length;
    for (let i = 0; i < shift; i++) emit(run[i]!, i, i + 1);
    // Each byte from its group of four characters: a group that holds a byte of a secret is redacted whole.
    let i = shift;
    for (; i + 1 < run.length; i += 4) {
      const group = Math.min(4, run.length - i);
      let bits = 0;
      for (let k = 0; k < 4; k++) bits = (bits << 6) | (k < group ? BASE64_VALUE.get(run[i + k]!)! : 0);
      const end = i + group >= run.length ? m[0].length : i + group;
      for (let k = 0; k < group - 1; k++) emit(String.fromCharCode((bits >> (16 - 8 * k)) & 0xff), i, end);
    }
    if (i < run.length) emit(run[i]!, i, i + 1 + padding);
    return true;
  });
}

/** The patterns of a run of at least n hex or base64 characters, made once per length. */
const runPatterns = new Map<string, RegExp>();
function cachedPattern(source: string): RegExp {
  let pattern = runPatterns.get(source);
  if (!pattern) runPatterns.set(source, (pattern = new RegExp(source, 'g')));
  return pattern;
}
const hexRun = (n: number) => cachedPattern(`[0-9a-fA-F]{${n},}`);
const base64Run = (n: number) => cachedPattern(`[A-Za-z0-9+/_-]{${n},}={0,2}`);

/** ASCII letters in lower case, every other character as it is (so a view keeps its length). */
function foldCase(text: string): string {
  return text.replace(/[A-Z]+/g, (s) => s.toLowerCase()).replace(/[^\u0000-\u007f]/g, (c) => (c.toLowerCase().length === 1 ? c.toLowerCase() : c));
}

function reverse(text: string): string {
  return [...text].reverse().join('');
}

function latin1(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += String.fromCharCode(byte);
  return out;
}
