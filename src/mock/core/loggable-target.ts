import { REDACTED } from '../../contract/neutral.ts';

/** What a log asks of the keys a request could know: does a text hold one anywhere, is it one. */
export interface KnownKeys {
  /** Whether a key is anywhere in the text: a scan, for the rare query and fragment. */
  holdsKey(text: string): boolean;
  /** Whether the text is a key: a lookup, cheap enough for every path segment of every request. */
  isKey(text: string): boolean;
}

/**
 * A request target as a log or the journal may show it. Keys belong in the header the spec
 * names, but clients put them elsewhere too: userinfo (`http://u:KEY@host/…`, absolute form) is
 * never shown; a path segment that is a key (as sent or percent-decoded: a template that put the
 * key where an id goes), a fragment that holds one, and a query name or value that is or holds a
 * key (as sent and percent-decoded), or that comes under the name of an auth header, become
 * `<redacted>`. The rest of the path stays as sent (the journal routes by it). A path of ordinary
 * segments with no query, fragment or `@` comes back as it is, with a lookup per segment. `known`
 * may be one test for both questions.
 */
export function loggableTarget(target: string, known: KnownKeys | ((text: string) => boolean), authNames: readonly string[] | ((name: string) => boolean) = []): string {
  // A list of lower-case names, or a test of a name (the proxy's: every name a credential goes by).
  const isAuthName = typeof authNames === 'function' ? authNames : (name: string) => authNames.includes(name.toLowerCase());
  // One test alone (a single key, where `includes` is as cheap as a lookup) answers both questions.
  const keys = typeof known === 'function' ? { holdsKey: known, isKey: known } : known;
  let hashAt = target.indexOf('#');
  let queryAt = target.indexOf('?');
  if (hashAt >= 0 && queryAt > hashAt) queryAt = -1;
  const pathEnd = queryAt >= 0 ? queryAt : hashAt >= 0 ? hashAt : target.length;
  let path = target.slice(0, pathEnd);
  // RFC 3986 §3.2: the authority ends at the first /, ? or #; userinfo is what comes before its (last) @.
  if (path.indexOf('@') >= 0) path = path.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
  path = maskedSegments(path, keys);
  if (queryAt < 0 && hashAt < 0) return path;
  const fragment = hashAt < 0 ? '' : `#${isOrHolds(target.slice(hashAt + 1), keys.holdsKey) ? REDACTED : target.slice(hashAt + 1)}`;
  if (queryAt < 0) return path + fragment;
  const masked = target
    .slice(queryAt + 1, hashAt < 0 ? undefined : hashAt)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals < 0 ? part : part.slice(0, equals);
      if (isOrHolds(name, keys.holdsKey)) return REDACTED;
      if (equals < 0) return part;
      const value = part.slice(equals + 1);
      return isOrHolds(value, keys.holdsKey) || isAuthName(decoded(name)) ? `${name}=${REDACTED}` : part;
    });
  return `${path}?${masked.join('&')}${fragment}`;
}

/** The path with each segment that is a key, as sent or percent-decoded, replaced; the same string when none is. */
function maskedSegments(path: string, keys: KnownKeys): string {
  let out: string[] | undefined;
  for (let start = 0; ; ) {
    let at = path.indexOf('/', start);
    if (at < 0) at = path.length;
    const segment = path.slice(start, at);
    const hit = segment !== '' && (keys.isKey(segment) || (segment.indexOf('%') >= 0 && keys.isKey(decoded(segment, false))));
    if (hit) out ??= [path.slice(0, start)];
    out?.push(hit ? REDACTED : segment);
    if (at === path.length) return out ? out.join('') : path;
    out?.push('/');
    start = at + 1;
  }
}

function isOrHolds(text: string, holdsKey: (text: string) => boolean): boolean {
  return text !== '' && (holdsKey(text) || holdsKey(decoded(text)));
}

/** Percent-decoded; a query component as a form decoder reads it (`+` is a space). Malformed escapes stay as sent. */
function decoded(text: string, query = true): string {
  try {
    return decodeURIComponent(query ? text.replaceAll('+', ' ') : text);
  } catch {
    return text;
  }
}
