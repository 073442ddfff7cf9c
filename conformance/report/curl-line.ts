import { KEY_VARIABLES } from '../key-variables.ts';
import { keyExpansion, type KeyNearMiss } from '../plan/near-miss/key-near-misses.ts';
import type { Credential, KeyVariable, RecordedRequest } from '../types.ts';

export { KEY_VARIABLES };

/**
 * The variable a curl line reads a key from, one per key (issue 19): `KEY_1` the full-access
 * key, `KEY_2`, `KEY_3`, ... the restricted keys in the order given. The generated invalid key is
 * written as it is (it is no secret, and a replay needs it as sent).
 */
export function keyVariable(credential: Credential, keyIndex = 0): string | undefined {
  if (credential === 'full') return 'KEY_1';
  if (credential === 'restricted') return `KEY_${keyIndex + 2}`;
  return undefined;
}

/**
 * How a key appears in recorded headers, findings and curl lines: the variable that holds it,
 * or for a near-miss of the key the shell expansion that makes it from that variable.
 */
export function keyPlaceholder(credential: Credential, nearMiss?: KeyNearMiss, keyIndex = 0): string | undefined {
  const variable = keyVariable(credential, keyIndex);
  if (variable === undefined) return undefined;
  return nearMiss ? keyExpansion(nearMiss, variable) : `$${variable}`;
}

/** What each variable of a run's curl lines stands for; the CLI's own variables are named, so `KEY_1="$FLAG_ADMIN_API_KEY"` sets one up. */
export function keyLegend(restrictedKeys: number): KeyVariable[] {
  return [
    { variable: 'KEY_1', standsFor: `the full-access key, given as --api-key (or ${KEY_VARIABLES.full}); its near-misses are made from it in the line` },
    ...Array.from({ length: restrictedKeys }, (_, i) => ({ variable: `KEY_${i + 2}`, standsFor: `the restricted key given as --restricted-key #${i + 1}${i === 0 ? ` (or ${KEY_VARIABLES.restricted})` : ''}` })),
  ];
}

/** The legend lines of the variables a text (a curl line) uses: `KEY_2: the restricted key given as --restricted-key #1`. */
export function keysUsed(text: string, keys: readonly KeyVariable[]): string[] {
  return keys.filter((k) => new RegExp(`\\$\\{?${k.variable}\\b`).test(text)).map((k) => `${k.variable}: ${k.standsFor}`);
}

/**
 * A shell line that sends the same request. Header values go in double quotes so that the key
 * placeholder expands; everything else is escaped. `--path-as-is` and `--globoff` keep odd
 * ids exactly as the suite sent them.
 */
export function curlLine(request: RecordedRequest, credential: Credential, nearMiss?: KeyNearMiss, keyIndex?: number, keyVariable?: string): string {
  // A variable of the caller's (the proxy's `KEY_3`) stands for the key as sent, wherever it was.
  const placeholder = keyVariable !== undefined ? `$${keyVariable}` : keyPlaceholder(credential, nearMiss, keyIndex);
  const where = nearMiss?.placement;
  // The key's placeholder (alone, or as a cookie's value) is left to the shell to expand.
  const expanded = placeholder === undefined ? undefined : where?.in === 'cookie' ? `${where.name}=${placeholder}` : placeholder;
  const headers = Object.entries(request.headers).map(([name, value]) => {
    // curl drops a header given as `Name:`; `Name;` sends it with an empty value (an empty Authorization is a variant of its own).
    if (value === '') return `-H "${escapeDoubleQuoted(name)};"`;
    // A key the suite put in another header than the credential's (the full key in X-API-Key, a variant of its own) is a placeholder too.
    const shown = value === expanded || KEY_PLACEHOLDER.test(value) ? value : escapeDoubleQuoted(value);
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
  // The content as sent; its Content-Type and Content-Length are among the headers.
  const data = request.body === undefined ? [] : [`--data-raw ${singleQuoted(request.body)}`];
  // A target that names no path (`OPTIONS *`, `CONNECT host:port`) goes on the request line as sent; curl takes the connection from the URL.
  const target = request.target === undefined ? [] : [`--request-target ${singleQuoted(request.target)}`];
  return ['curl -i --path-as-is --globoff', `-X ${request.method}`, ...target, ...headers, ...query, ...data, singleQuoted(url)].join(' ');
}

/** A recorded value that is a key's variable and nothing else (`$KEY_1`): the suite's own request headers hold no such text otherwise. */
const KEY_PLACEHOLDER = /^\$KEY_\d+$/;

function escapeDoubleQuoted(text: string): string {
  return text.replace(/["\\$`]/g, '\\$&');
}

function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
