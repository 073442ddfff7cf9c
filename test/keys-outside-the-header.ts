import { rawRequest } from './raw-http.ts';

/**
 * Request targets that carry `key` where the spec does not put it: URL userinfo (absolute
 * form), a query value equal to it, holding it, percent-encoded or form-encoded, a query name,
 * the name of an auth header with a value the mock does not know, a path segment (as sent and
 * percent-encoded) where an id goes, and a fragment. A log or journal that shows any of them
 * verbatim leaks a key. The last three are not the operation's (a 404 or a 401).
 */
export function keysOutsideTheHeader(key: string, port: number, path: string, authHeader = 'authorization'): string[] {
  const encoded = [...key].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
  return [
    `http://user:${key}@127.0.0.1:${port}${path}?page=1`,
    `http://${key}@localhost:${port}${path}`,
    `${path}?api_key=${key}&page=1`,
    `${path}?q=Bearer+${key}&page=2`,
    `${path}?token=${encoded}`,
    `${path}?${key}`,
    `${path}?${authHeader}=an-unknown-secret-value`,
    `${path}/${key}`,
    `${path}/${encoded}/x`,
    `${path}?page=4#${key}`,
  ];
}

/** Sends each target as a raw GET (userinfo and all), with the key in the header too, so it is served. */
export async function sendTargets(port: number, targets: readonly string[], headers: Record<string, string>): Promise<void> {
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  for (const target of targets) await rawRequest(port, `GET ${target} HTTP/1.1\r\nhost: localhost\r\n${extra}connection: close\r\n\r\n`);
}
