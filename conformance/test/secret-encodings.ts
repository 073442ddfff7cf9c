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
};
export const B64 = new Set(['base64', 'base64 after one byte', 'base64 after two bytes', 'base64url']);

/** Every 8 consecutive characters of `secret`, forwards and reversed. */
export function windows(secret: string): string[] {
  const out: string[] = [];
  for (const s of [secret, [...secret].reverse().join('')]) for (let i = 0; i + 8 <= s.length; i++) out.push(s.slice(i, i + 8));
  return out;
}

/** What must not be in a report for one secret in one encoding: the encoding of each 8-character run (base64: every two groups of the planted text that hold only bytes of the secret). */
export function forbiddenForms(secret: string, encoding: string): string[] {
  if (!B64.has(encoding)) return windows(secret).map(ENCODINGS[encoding]!);
  const planted = ENCODINGS[encoding]!(secret).replaceAll('-', '+').replaceAll('_', '/');
  const prefix = Buffer.from(planted, 'base64').length - Buffer.byteLength(secret);
  const out: string[] = [];
  for (let g = 0; 4 * g + 8 <= planted.length; g++) if (3 * g >= prefix && 3 * g + 6 <= prefix + Buffer.byteLength(secret)) out.push(ENCODINGS[encoding]!(secret).slice(4 * g, 4 * g + 8));
  return out;
}
