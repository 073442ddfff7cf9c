import { resolvePointer } from '../src/contract/index.ts';
import { pointerTokens } from '../src/contract/json-pointer.ts';

/** Keeping secrets out of reports: the keys the suite sends, and properties the spec marks `format: password`. */

export const REDACTED = '<redacted>';
const EXCERPT_LIMIT = 600;

/** Every occurrence of a key in text a server sent back (an echoing error message, a header). */
export function redactKeys(text: string, keys: readonly string[]): string {
  let out = text;
  for (const key of keys) if (key) out = out.replaceAll(key, REDACTED);
  return out;
}

/** A copy of a JSON value with the value of every secret property replaced (OAS 3.1 §4.8.5.1: `password` marks a secret). */
export function redactSecrets(value: unknown, secretProperties: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, secretProperties));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [name, secretProperties.has(name) ? REDACTED : redactSecrets(item, secretProperties)]),
  );
}

/** The body as a report shows it: JSON compacted with secrets redacted, anything else as text; cut short. */
export function bodyExcerpt(body: string, secretProperties: ReadonlySet<string>): string {
  let text = body;
  try {
    text = JSON.stringify(redactSecrets(JSON.parse(body), secretProperties));
  } catch {
    // Not JSON: shown as sent, which is itself often the finding.
  }
  return cut(text);
}

/** The value at a pointer inside a body, for `got`: redacted when the pointer passes through a secret property. */
export function valueAtPointer(body: unknown, pointer: string, secretProperties: ReadonlySet<string>): string {
  if (pointerTokens(pointer).some((token) => secretProperties.has(token))) return JSON.stringify(REDACTED);
  const value = resolvePointer(body, pointer);
  return value === undefined ? '(absent)' : cut(JSON.stringify(redactSecrets(value, secretProperties)));
}

export function cut(text: string, limit = EXCERPT_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters)` : text;
}
