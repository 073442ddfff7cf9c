import { REDACTED, pointsIntoSecret, redactSecrets, resolvePointer } from '../src/contract/index.ts';

/** Keeping secrets out of reports: the keys the suite sends, and properties the spec marks `format: password`. */

export { REDACTED };
const EXCERPT_LIMIT = 600;

/** Every occurrence of a key in text a server sent back (an echoing error message, a header). */
export function redactKeys(text: string, keys: readonly string[]): string {
  let out = text;
  for (const key of keys) if (key) out = out.replaceAll(key, REDACTED);
  return out;
}

export { redactSecrets };

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
  if (pointsIntoSecret(pointer, secretProperties)) return JSON.stringify(REDACTED);
  const value = resolvePointer(body, pointer);
  return value === undefined ? '(absent)' : cut(JSON.stringify(redactSecrets(value, secretProperties)));
}

export function cut(text: string, limit = EXCERPT_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters)` : text;
}
