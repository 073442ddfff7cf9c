/**
 * A media type as RFC 9110 §8.3.1 reads one: `type/subtype` (case-insensitive) followed by
 * `;`-separated parameters whose names are case-insensitive and whose values may be quoted
 * strings (§5.6.4; the quotes are not part of the value). The `charset` value is case-insensitive
 * too (§8.3.2). Whitespace around the `;` and `=` is optional (§5.6.3, §5.6.6).
 */
export interface MediaType {
  /** `type/subtype`, lower case. */
  essence: string;
  /** Lower-case names; values unquoted (charset's lower case). */
  parameters: ReadonlyMap<string, string>;
}

export function parseMediaType(text: string): MediaType | undefined {
  const [head, ...rest] = splitParameters(text);
  const essence = head!.trim().toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/.test(essence)) return undefined;
  const parameters = new Map<string, string>();
  for (const part of rest) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    const name = part.slice(0, equals).trim().toLowerCase();
    let value = part.slice(equals + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    if (name === 'charset') value = value.toLowerCase();
    if (name !== '' && !parameters.has(name)) parameters.set(name, value);
  }
  return { essence, parameters };
}

/**
 * Whether a Content-Type a server sent is the media type a spec documents: the same type and
 * subtype, and every parameter the spec names with the same value; parameters the spec does not
 * name (`application/json; charset=utf-8` for `application/json`) do not make it another type.
 */
export function mediaTypeMatches(documented: string, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const want = parseMediaType(documented);
  const got = parseMediaType(sent);
  if (!want || !got || want.essence !== got.essence) return false;
  for (const [name, value] of want.parameters) if (got.parameters.get(name) !== value) return false;
  return true;
}

/** The parts between `;`, a `;` inside a quoted string kept. */
function splitParameters(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '\\' && i + 1 < text.length) {
      current += char + text[++i];
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === ';' && !quoted) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}
