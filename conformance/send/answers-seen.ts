/**
 * What the target handed out earlier in the run, for the invariance variants that send it back
 * (conformance/plan/variants/variant-kinds.ts): the validators a 2xx carried per path (ETag,
 * Last-Modified; RFC 9110 §8.8), and every cookie any answer set (RFC 6265 §4.1). A conditional
 * request with the real validator, or a request carrying the server's own cookie, must get what
 * the same request without them gets, wherever that is a refusal (spec decisions
 * conditional-requests, key-in-header-only).
 */
/** RFC 6265 §6.1's minimums a user agent keeps (50 cookies a domain, 4096 bytes each), and a Cookie header that fits any server's header limit: a target setting thousands of cookies makes no request too large. */
const MAX_COOKIES = 50;
const MAX_COOKIE_HEADER = 4096;

export class AnswersSeen {
  readonly etags = new Map<string, string>();
  readonly lastModified = new Map<string, string>();
  readonly cookies = new Map<string, string>();

  /** Learns from one answer to a request for `path` (query left out: the same resource). */
  learn(path: string, response: { status: number; headers: Readonly<Record<string, string>> }): void {
    const resource = path.split('?')[0]!;
    if (response.status >= 200 && response.status < 300) {
      if (response.headers.etag) this.etags.set(resource, response.headers.etag);
      if (response.headers['last-modified']) this.lastModified.set(resource, response.headers['last-modified']);
    }
    for (const [name, value] of setCookies(response.headers['set-cookie'])) if (this.cookies.has(name) || this.cookies.size < MAX_COOKIES) this.cookies.set(name, value);
  }

  /**
   * The ETag a 2xx to another resource carried (red team round nine: a conditional layer that answers 304 to any tag it issued):
   * preferably one unlike this resource's own, then the resource whose path shares the longest start with this one (another
   * project of the same operation before another operation). Undefined when no other resource's answer carried one.
   */
  etagOfAnother(resource: string): string | undefined {
    const own = this.etags.get(resource);
    const shared = (path: string) => {
      let i = 0;
      while (i < path.length && path[i] === resource[i]) i++;
      return i;
    };
    let best: { tag: string; score: number } | undefined;
    for (const [path, tag] of this.etags) {
      if (path === resource) continue;
      const score = (tag !== own ? 1_000_000 : 0) + shared(path);
      if (!best || score > best.score) best = { tag, score };
    }
    return best?.tag;
  }

  /** The Cookie header that returns the cookies set so far (RFC 6265 §5.4), as many as fit MAX_COOKIE_HEADER bytes, or undefined when none was. */
  cookieHeader(): string | undefined {
    let header = '';
    for (const [name, value] of this.cookies) {
      const pair = `${header ? '; ' : ''}${name}=${value}`;
      if (header.length + pair.length > MAX_COOKIE_HEADER) break;
      header += pair;
    }
    return header || undefined;
  }
}

/**
 * name=value of each Set-Cookie in a header joined with ", " (both senders join repeated fields
 * so). A comma followed by `token=` starts the next cookie; an Expires date's comma is followed by
 * a day number and a space, never by `=`.
 */
export function setCookies(joined: string | undefined): [string, string][] {
  if (!joined) return [];
  return joined
    .split(/,\s*(?=[^;,=\s]+=)/)
    .map((cookie) => cookie.split(';')[0]!.trim())
    .filter((pair) => pair.indexOf('=') > 0)
    .map((pair): [string, string] => [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()]);
}
