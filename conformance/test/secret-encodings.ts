/**
 * The forms issue 13 says a secret must not appear in, written independently of the redactor (so
 * that a test of it is not the redactor agreeing with itself), and what a report must not hold
 * for each: the encoding of every 8-character run of the secret.
 */
const bytes = (text: string) => [...Buffer.from(text)];
const NAMED: Record<string, string> = { '.': '&period;', '+': '&plus;', '/': '&sol;', _: '&lowbar;', '-': '&#45;' };
/** Every form the issue names, written independently of the redactor. */
export const ENCODINGS: Record<string, (s: string) => string> = {
  plain: (s) => s,
  'upper-case': (s) => s.toUpperCase(),
  percent: (s) => bytes(s).map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join(''),
  'percent, lower-case hex': (s) => bytes(s).map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
  base64: (s) => Buffer.from(s).toString('base64'),
  'base64 after one byte': (s) => Buffer.from(`:${s}`).toString('base64'),
  'base64 after two bytes': (s) => Buffer.from(`u:${s}`).toString('base64'),
  base64url: (s) => Buffer.from(`??${s}`).toString('base64url'),
  '\\u escapes': (s) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'HTML named entities': (s) => [...s].map((c) => NAMED[c] ?? c).join(''),
  'HTML decimal entities': (s) => [...s].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  'HTML hex entities': (s) => [...s].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
  hex: (s) => Buffer.from(s).toString('hex'),
  'hex, upper-case': (s) => Buffer.from(s).toString('hex').toUpperCase(),
  reversed: (s) => [...s].reverse().join(''),
  'reversed, upper-case': (s) => [...s].reverse().join('').toUpperCase(),
  'space-separated': (s) => [...s].join(' '),
  // UTF-16 (issue 19): a key a server echoes as UTF-16LE or UTF-16BE code units, in hex or percent-encoded.
  'UTF-16LE hex': (s) => Buffer.from(s, 'utf16le').toString('hex'),
  'UTF-16BE hex': (s) => Buffer.from(s, 'utf16le').swap16().toString('hex'),
  'UTF-16LE percent': (s) => [...Buffer.from(s, 'utf16le')].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join(''),
};
export const B64 = new Set(['base64', 'base64 after one byte', 'base64 after two bytes', 'base64url']);

/**
 * How much of a key names things rather than being secret: Unleash's API tokens are
 * `<project>:<environment>.<secret>` (docs.getunleash.io, "API tokens": `default:development.be7c…`),
 * and a project `default` or an environment `development` is data, not a secret (issue 19).
 */
export function namingPrefixLength(secret: string): number {
  return /^[^:.\s]+:[^:.\s]+\./.exec(secret)?.[0].length ?? 0;
}

/** Every 8 consecutive characters of `secret` that reach past its naming prefix, forwards and reversed. */
export function windows(secret: string): string[] {
  const forwards: string[] = [];
  const prefix = namingPrefixLength(secret);
  for (let i = 0; i + 8 <= secret.length; i++) if (i + 8 > prefix) forwards.push(secret.slice(i, i + 8));
  return [...forwards, ...forwards.map((w) => [...w].reverse().join(''))];
}

/** What must not be in a report for one secret in one encoding: the encoding of each 8-character run (base64: every two groups of the planted text that hold only bytes of the secret). */
export function forbiddenForms(secret: string, encoding: string): string[] {
  if (!B64.has(encoding)) return windows(secret).map(ENCODINGS[encoding]!);
  const planted = ENCODINGS[encoding]!(secret).replaceAll('-', '+').replaceAll('_', '/');
  const prefix = Buffer.from(planted, 'base64').length - Buffer.byteLength(secret);
  const out: string[] = [];
  for (let g = 0; 4 * g + 8 <= planted.length; g++) if (3 * g >= prefix && 3 * g + 6 <= prefix + Buffer.byteLength(secret) && 3 * g + 6 > prefix + namingPrefixLength(secret)) out.push(ENCODINGS[encoding]!(secret).slice(4 * g, 4 * g + 8));
  return out;
}

/**
 * What of `secrets` an output holds, for every encoding above: each entry names the encoding, the
 * secret and the form found; empty when the output is clean. The output is read as a user would:
 * as written, with JSON's doubled backslashes single, with `&amp;` as `&`, and two adjacent JSON
 * string values read as one.
 */
export function leaks(output: string, secrets: readonly string[]): string[] {
  const folded = output.toLowerCase();
  const readable = [folded, folded.replaceAll('\\\\', '\\'), folded.replaceAll('&amp;', '&')];
  const found: string[] = [];
  for (const secret of secrets) {
    for (const encoding of Object.keys(ENCODINGS)) {
      for (const form of forbiddenForms(secret, encoding)) {
        const hit = B64.has(encoding) ? output.includes(form) : readable.some((h) => h.includes(form.toLowerCase()));
        if (hit) found.push(`${encoding} of ${secret}: ${form}`);
      }
    }
    for (const w of windows(secret)) if (readable.some((h) => h.replaceAll(/"\s*,\s*"/g, '').includes(w.toLowerCase()))) found.push(`${w} rebuilt from two values`);
  }
  return [...new Set(found)];
}
