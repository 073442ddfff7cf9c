import { REDACTED } from '../../contract/neutral.ts';

/**
 * A request target as a log or the journal may show it. Keys belong in the header the spec
 * names, but clients put them elsewhere too: userinfo (`http://u:KEY@host/…`, absolute form) is
 * never shown, and a query name or value that is or holds a key (`holdsKey`, on the text both
 * as sent and percent-decoded), or that comes under the name of an auth header, is replaced by
 * `<redacted>`. The path stays as sent (the journal routes by it). Most targets have no query
 * and no `@`: they come back as they are, at the cost of two indexOf.
 */
export function loggableTarget(target: string, holdsKey: (text: string) => boolean, authNames: readonly string[] = []): string {
  const queryAt = target.indexOf('?');
  if (queryAt < 0 && target.indexOf('@') < 0) return target;
  const head = queryAt < 0 ? target : target.slice(0, queryAt);
  // RFC 3986 §3.2: the authority ends at the first /, ? or #; userinfo is what comes before its @.
  const withoutUserinfo = head.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
  if (queryAt < 0) return withoutUserinfo;
  const masked = target
    .slice(queryAt + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals < 0 ? part : part.slice(0, equals);
      if (isKey(name, holdsKey)) return REDACTED;
      if (equals < 0) return part;
      const value = part.slice(equals + 1);
      return isKey(value, holdsKey) || authNames.includes(decoded(name).toLowerCase()) ? `${name}=${REDACTED}` : part;
    });
  return `${withoutUserinfo}?${masked.join('&')}`;
}

function isKey(text: string, holdsKey: (text: string) => boolean): boolean {
  return text !== '' && (holdsKey(text) || holdsKey(decoded(text)));
}

/** As a form decoder reads a query component (`+` is a space); malformed escapes stay as sent. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}
