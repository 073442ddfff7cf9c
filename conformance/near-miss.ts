/**
 * Near-misses of what the user gave: real bugs sit next to valid inputs (a key compared by
 * prefix or without case, an id parsed as a number or trimmed), not in fixed strings. Each
 * variant names how it is made, so findings and curl lines can say so without showing a key.
 */

export type KeyVariant = 'appended' | 'truncated' | 'upper-case' | 'lower-case';

/**
 * How each key variant is made, and the bash parameter expansion that makes it from the
 * variable holding the key, so a curl line reproduces the request without the key in it.
 */
export const KEY_VARIANTS: Readonly<Record<KeyVariant, { describe: string; make: (key: string) => string; expansion: (variable: string) => string }>> = {
  appended: { describe: 'the full key with one character appended', make: (key) => `${key}x`, expansion: (v) => `\${${v}}x` },
  truncated: { describe: 'the full key without its last character', make: (key) => key.slice(0, -1), expansion: (v) => `\${${v}%?}` },
  'upper-case': { describe: 'the full key in upper case', make: (key) => key.toUpperCase(), expansion: (v) => `\${${v}^^}` },
  'lower-case': { describe: 'the full key in lower case', make: (key) => key.toLowerCase(), expansion: (v) => `\${${v},,}` },
};

/** The variants of the full key that differ from every key the user gave (a one-character key has no truncation, a lower-case key no lower-case variant). */
export function keyVariants(full: string, others: readonly (string | undefined)[]): KeyVariant[] {
  const seen = new Set<string>([full, ...others.filter((k): k is string => Boolean(k))]);
  return (Object.keys(KEY_VARIANTS) as KeyVariant[]).filter((variant) => {
    const value = KEY_VARIANTS[variant].make(full);
    if (value === '' || seen.has(value)) return false;
    seen.add(value);
    return true;
  });
}

export interface IdVariant {
  /** e.g. `with a leading zero`. */
  name: string;
  /** The id itself, not yet percent-encoded. */
  value: string;
}

/**
 * Ids that a server comparing ids exactly (spec decision) does not know, but a sloppy one
 * resolves to `id`: parsed as a number (`01`, `+1`, `1.0`), trimmed (`1 `), compared without
 * case, or by prefix. `lookalikes` (another case, a prefix) is off for ids the suite may delete:
 * they can name another real token (`12` -> `1`, `ci` -> `CI`), which a near-miss must never touch.
 */
export function idVariants(id: string, { lookalikes }: { lookalikes: boolean }): IdVariant[] {
  const variants: IdVariant[] = [];
  if (/^\d+$/.test(id)) {
    variants.push({ name: 'with a leading zero', value: `0${id}` }, { name: 'with a plus sign', value: `+${id}` }, { name: 'written as a decimal', value: `${id}.0` });
  }
  variants.push({ name: 'with a trailing space', value: `${id} ` });
  if (!lookalikes) return variants;
  if (id.toUpperCase() !== id) variants.push({ name: 'in upper case', value: id.toUpperCase() });
  else if (id.toLowerCase() !== id) variants.push({ name: 'in lower case', value: id.toLowerCase() });
  if (id.length > 1) variants.push({ name: 'without its last character', value: id.slice(0, -1) });
  return variants;
}
