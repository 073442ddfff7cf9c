import { KEY_VARIABLES } from '../key-variables.ts';
import { keyExpansion, type KeyNearMiss } from '../plan/near-miss/key-near-misses.ts';
import type { Credential, RecordedRequest } from '../types.ts';

export { KEY_VARIABLES };

/**
 * How a key appears in recorded headers, findings and curl lines: the variable that holds it,
 * or for a near-miss of the key the shell expansion that makes it from that variable.
 */
export function keyPlaceholder(credential: Credential, nearMiss?: KeyNearMiss, keyIndex = 0): string | undefined {
  const base = KEY_VARIABLES[credential];
  if (base === undefined) return undefined;
  // The second restricted key and on: FLAG_ADMIN_RESTRICTED_KEY_2, _3, ... (the first keeps the CLI's own variable).
  const variable = keyIndex > 0 ? `${base}_${keyIndex + 1}` : base;
  return nearMiss ? keyExpansion(nearMiss, variable) : `$${variable}`;
}

/**
 * A shell line that sends the same request. Header values go in double quotes so that the key
 * placeholder expands; everything else is escaped. `--path-as-is` and `--globoff` keep odd
 * ids exactly as the suite sent them.
 */
export function curlLine(request: RecordedRequest, credential: Credential, nearMiss?: KeyNearMiss, keyIndex?: number): string {
  const placeholder = keyPlaceholder(credential, nearMiss, keyIndex);
  const where = nearMiss?.placement;
  // The key's placeholder (alone, or as a cookie's value) is left to the shell to expand.
  const expanded = placeholder === undefined ? undefined : where?.in === 'cookie' ? `${where.name}=${placeholder}` : placeholder;
  const headers = Object.entries(request.headers).map(([name, value]) => {
    // curl drops a header given as `Name:`; `Name;` sends it with an empty value (an empty Authorization is a variant of its own).
    if (value === '') return `-H "${escapeDoubleQuoted(name)};"`;
    const shown = value === expanded ? value : escapeDoubleQuoted(value);
    return `-H "${escapeDoubleQuoted(name)}: ${shown}"`;
  });
  let url = request.url;
  const query: string[] = [];
  if (placeholder !== undefined && where?.in === 'query') {
    // -G appends the encoded parameter to the URL as the suite did, with the key from the variable.
    const parameter = `${encodeURIComponent(where.name)}=${placeholder}`;
    if (url.endsWith(parameter)) url = url.slice(0, -parameter.length - 1);
    query.push(`-G --data-urlencode "${escapeDoubleQuoted(where.name)}=${placeholder}"`);
  }
  return ['curl -i --path-as-is --globoff', `-X ${request.method}`, ...headers, ...query, singleQuoted(url)].join(' ');
}

function escapeDoubleQuoted(text: string): string {
  return text.replace(/["\\$`]/g, '\\$&');
}

function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
