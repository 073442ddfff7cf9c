import { REDACTED } from '../src/contract/index.ts';

/**
 * Keeps secrets (the keys the suite sends, values of `format: password` properties it saw) out of
 * the text a report renders. It runs on decoded text only (a JSON string after parsing, a header
 * value, the raw text of a non-JSON body), never on what the checks judge: a short key such as
 * `k` must not corrupt a body before it is judged (issue 7).
 *
 * A plain occurrence is replaced where it stands. Echoes a server may encode (percent-encoding,
 * `\u` escapes, base64, one inside another) are found by decoding each word of the text; a word
 * whose decoding holds a secret is replaced whole, so no prefix of the encoded secret survives.
 */
export type Redact = (text: string) => string;

/** Words are cut at whitespace and the punctuation that delimits values in JSON, headers and markup. */
const WORD = /[^\s"'<>(),;[\]{}`]+/g;
const BASE64_RUN = /[A-Za-z0-9+/_-]{4,}/g;
/** How many decodings deep an echo may hide (e.g. base64 of a percent-encoded key). */
const DECODE_DEPTH = 2;

export function createRedactor(secrets: Iterable<string>): Redact {
  const list = [...new Set([...secrets].filter((s) => s.length > 0))].sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  const holdsSecret = (text: string) => list.some((secret) => text.includes(secret));
  const redactPiece = (piece: string): string => {
    let out = piece;
    for (const secret of list) out = out.replaceAll(secret, REDACTED);
    return out.replace(WORD, (word) => (word !== REDACTED && decodings(word).some(holdsSecret) ? REDACTED : word));
  };
  // The marker itself is left alone, so redacting twice changes nothing (a key `e` would otherwise eat it).
  return (text) => text.split(REDACTED).map(redactPiece).join(REDACTED);
}

/** Every decoding of a word up to DECODE_DEPTH levels: percent, `\u`/`\x` escapes, base64 (standard and URL-safe). */
function decodings(word: string): string[] {
  const found: string[] = [];
  let level = [word];
  for (let depth = 0; depth < DECODE_DEPTH; depth++) {
    const next: string[] = [];
    for (const text of level) {
      for (const decoded of [percentDecoded(text), unescaped(text), ...base64Decoded(text)]) {
        if (decoded !== undefined && decoded !== text) next.push(decoded);
      }
    }
    found.push(...next);
    level = next;
  }
  return found;
}

function percentDecoded(text: string): string | undefined {
  if (!text.includes('%')) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '%' ? text.slice(i + 1, i + 3) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function unescaped(text: string): string | undefined {
  if (!text.includes('\\')) return undefined;
  return text.replace(/\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/g, (_, braced: string | undefined, u: string | undefined, x: string | undefined) => {
    const code = Number.parseInt(braced ?? u ?? x ?? '0', 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** Each base64-looking run decoded at each of the four alignments (an echo may sit inside a longer run). */
function base64Decoded(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(BASE64_RUN)) {
    const standard = run.replaceAll('-', '+').replaceAll('_', '/');
    for (let offset = 0; offset < 4 && offset + 4 <= standard.length; offset++) {
      out.push(Buffer.from(standard.slice(offset), 'base64').toString('latin1'));
    }
  }
  return out;
}
