import { pointerTokens } from './json-pointer.ts';

// Secrets are the properties the spec marks `format: password` (OAS 3.1 §4.8.5.1), found by
// Contract.secretProperties; the fixture adds its API keys. Neither ever reaches a log or report.

export const REDACTED = '<redacted>';

/** Whether a pointer passes through a secret property, e.g. `/oidcSettings/secret`. */
export function pointsIntoSecret(pointer: string, secretProperties: ReadonlySet<string>): boolean {
  return pointerTokens(pointer).some((token) => secretProperties.has(token));
}

/** A copy of a JSON value with the value of every secret property replaced. */
export function redactSecrets(value: unknown, secretProperties: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, secretProperties));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [name, secretProperties.has(name) ? REDACTED : redactSecrets(item, secretProperties)]),
  );
}
