/**
 * A user name or password in a URL (`http://user:KEY@host`). The suite never sends them (it
 * requests `origin + path` (conformance/send/http-client.ts), and `fetch()` refuses such a URL
 * outright, per the Fetch standard's "Request cannot be constructed from a URL that includes
 * credentials"), so a key put there is refused, and the refusal must not echo it.
 */
// WHATWG URL: the authority runs to the first / ? # (or \ for http/https); userinfo is all of it
// up to its last @. Leading C0 controls and spaces are stripped by the parser, and http:user@host
// parses like http://user@host, so both are allowed for here.
const USERINFO = /^([\x00-\x20]*[a-z][a-z0-9+.-]*:[/\\]*)[^/?#\\]*@/i;

/** Whether the text, as the URL parser reads it, carries a user name or a password (in any encoding). */
export function hasUrlCredentials(text: string): boolean {
  try {
    const url = new URL(text);
    if (url.username !== '' || url.password !== '') return true;
  } catch {
    // Not a URL: judged by its text below, so an unparseable one is never quoted with a key in it.
  }
  return USERINFO.test(text);
}

/** The text with whatever stands before the host's @ replaced, for quoting a URL in a message or report. */
export function hideUrlCredentials(text: string): string {
  return text.replace(USERINFO, '$1<redacted>@');
}
