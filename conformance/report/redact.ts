import { REDACTED, pointerTokens } from '../../src/contract/index.ts';
import type { Redact } from './secret-redactor.ts';

/**
 * What a report shows of a body: built from the bytes the server sent, with the values of
 * `format: password` properties and every echo of a secret redacted, and cut short. Never
 * re-serializes a whole body: a hostile one may be megabytes long or thousands of levels deep.
 */

export { REDACTED };
export const EXCERPT_LIMIT = 600;

export interface ExcerptOptions {
  secretProperties: ReadonlySet<string>;
  redact: Redact;
  limit?: number;
}

/** The body as a report shows it: JSON compacted (parsed, so escaped echoes are decoded before redaction), anything else as text. */
export function bodyExcerpt(body: string, parsed: { ok: true; value: unknown } | { ok: false }, options: ExcerptOptions): string {
  const limit = options.limit ?? EXCERPT_LIMIT;
  if (parsed.ok) return jsonExcerpt(parsed.value, options, body.length);
  return cut(options.redact(body.slice(0, limit + reach(limit))), limit, body.length);
}

/** The value at a pointer inside a body, for `got`: redacted when the pointer passes through a secret property. */
export function valueAtPointer(body: unknown, pointer: string, options: ExcerptOptions): string {
  let node = body;
  for (const token of pointerTokens(pointer)) {
    if (options.secretProperties.has(token)) return JSON.stringify(REDACTED);
    if (node === null || typeof node !== 'object') return '(absent)';
    node = (node as Record<string, unknown>)[token];
  }
  return node === undefined ? '(absent)' : jsonExcerpt(node, options);
}

function cut(text: string, limit = EXCERPT_LIMIT, total = text.length): string {
  return text.length > limit || total > text.length ? `${text.slice(0, limit)}… (${total} characters)` : text;
}

/** How far past a cut a string is kept for redaction, so an encoded secret straddling the cut is still recognised whole. */
function reach(limit: number): number {
  return Math.max(limit, 1024);
}

type Frame = { open: '[' | '{'; entries: [string | undefined, unknown][]; next: number };

/**
 * JSON text of `value`, iteratively (no recursion a body's depth can exhaust), stopping once
 * `limit` characters are written. Property names and strings are redacted; the value of a
 * secret property is replaced.
 */
export function jsonExcerpt(value: unknown, options: ExcerptOptions, total?: number): string {
  const limit = options.limit ?? EXCERPT_LIMIT;
  const quote = (text: string) => JSON.stringify(options.redact(text.length > limit + reach(limit) ? text.slice(0, limit + reach(limit)) : text));
  let out = '';
  const stack: Frame[] = [];
  const write = (item: unknown): void => {
    if (item === null || typeof item !== 'object') {
      out += typeof item === 'string' ? quote(item) : item === undefined ? 'null' : String(item);
      return;
    }
    const array = Array.isArray(item);
    const keys = array ? item.map((_, i) => i) : Object.keys(item);
    const entries: Frame['entries'] = [];
    // Only as many entries as can still show; a million-element array is not copied.
    for (const key of keys) {
      if (entries.length > limit) break;
      entries.push([array ? undefined : String(key), (item as Record<string, unknown>)[key]]);
    }
    out += array ? '[' : '{';
    stack.push({ open: array ? '[' : '{', entries, next: 0 });
  };
  write(value);
  while (stack.length > 0 && out.length <= limit) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.entries.length) {
      out += frame.open === '[' ? ']' : '}';
      stack.pop();
      continue;
    }
    const [name, item] = frame.entries[frame.next]!;
    if (frame.next > 0) out += ',';
    frame.next++;
    if (name !== undefined) {
      out += `${quote(name)}:`;
      if (options.secretProperties.has(name)) {
        out += JSON.stringify(REDACTED);
        continue;
      }
    }
    write(item);
  }
  const complete = stack.length === 0;
  if (complete && out.length <= limit) return out;
  return `${out.slice(0, limit)}… (${total === undefined ? 'cut' : `${total} characters`})`;
}
