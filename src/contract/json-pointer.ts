/** RFC 6901 JSON pointers: escaping, building and resolving. */

export function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function unescapePointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

export function pointerOf(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => '/' + escapePointerToken(String(t))).join('');
}

export function pointerTokens(pointer: string): string[] {
  const body = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  return body === '' ? [] : body.slice(1).split('/').map(unescapePointerToken);
}

/** The value at `pointer` inside `document`, or undefined where the pointer leads nowhere. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  let node = document;
  for (const token of pointerTokens(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
