import type { Exchange } from '../types.ts';
import { parseHttpDate } from './rules/http-dates.ts';
import { lowerCased, variantJudgedBy } from './variant-headers.ts';

/**
 * A 304 the contract allows (spec decision conditional-requests; RFC 9110 §13.1.1, §13.1.3,
 * §15.4.5): the same request without the validator, same path and same key, got a 200 earlier
 * in the run, and the validator sent matches what that 200 carried: its ETag (weak comparison)
 * or `*`, or a Last-Modified no later than If-Modified-Since (only when If-None-Match is absent).
 * The 304's own ETag, when it sends one, is that 200's, and it carries every field of RFC 9110
 * §15.4.5 (Cache-Control, Content-Location, Date, ETag, Expires, Vary) that 200 carried.
 * Returns that 200, which the 304 stands for; undefined for any other 304, which the model
 * judges as the undocumented status it is (before auth, to a tag never given, on a missing
 * resource: conditional-after-auth).
 */
export function notModifiedStandsFor(exchange: Exchange, earlier: readonly Exchange[]): Exchange['response'] {
  if (exchange.response?.status !== 304 || !variantJudgedBy(exchange, 'conditional-after-auth')) return undefined;
  const sent = lowerCased(exchange.request?.headers ?? {});
  const resource = exchange.path.split('?')[0];
  const full = earlier.filter(
    (e) => e.seq < exchange.seq && e.method === 'GET' && e.path.split('?')[0] === resource && e.credential === exchange.credential && e.keyIndex === exchange.keyIndex && !e.keyVariant && e.response?.status === 200 && !variantJudgedBy(e, 'conditional-after-auth'),
  );
  const match = full.reverse().find((e) => validatorMatches(sent, lowerCased(e.response!.headers)));
  if (!match) return undefined;
  // RFC 9110 §15.4.5: a 304 carries the ETag the 200 it stands for would carry; one with another tag (a tag of its own empty body)
  // tells the client its copy is some other representation.
  const answered = lowerCased(exchange.response.headers);
  const stood = lowerCased(match.response!.headers);
  if (answered.etag !== undefined && stood.etag !== undefined && opaque(answered.etag) !== opaque(stood.etag)) return undefined;
  // RFC 9110 §15.4.5: the server MUST generate each of these fields that a 200 to the same request would carry: a cache that updates
  // its stored response from the 304 (RFC 9111 §4.3.4) would otherwise keep a stale tag, freshness or Vary. The 200 the same key got
  // is what "would have been sent"; a field it lacked is not asked for.
  if (notModifiedOwes(stood).some((name) => answered[name] === undefined)) return undefined;
  return match.response;
}

/** RFC 9110 §15.4.5: the fields of a 200 that a 304 standing for it must carry too. */
export const NOT_MODIFIED_CARRIES = ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary'] as const;

/** The fields of NOT_MODIFIED_CARRIES this 200 (lower-cased names) carries. */
export function notModifiedOwes(given: Readonly<Record<string, string>>): string[] {
  return NOT_MODIFIED_CARRIES.filter((name) => given[name] !== undefined);
}

/** RFC 9110 §8.8.3.2: weak comparison, the W/ prefix aside. */
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

function validatorMatches(sent: Record<string, string>, given: Record<string, string>): boolean {
  const noneMatch = sent['if-none-match'];
  if (noneMatch !== undefined) {
    if (noneMatch.trim() === '*') return true;
    return given.etag !== undefined && noneMatch.split(',').some((tag) => opaque(tag) === opaque(given.etag!));
  }
  const value = sent['if-modified-since'];
  if (value === undefined || given['last-modified'] === undefined) return false;
  // RFC 9110 §13.1.3: an If-Modified-Since that is no HTTP-date is ignored, however a lenient parser would read it (`2099-01-01`): a 304 to
  // it stands for nothing. The server's own Last-Modified sent back as it came is its validator whatever its form (http-dates-valid judges that).
  if (value === given['last-modified']) return true;
  const since = parseHttpDate(value.trim())?.time;
  const modified = parseHttpDate(given['last-modified'].trim())?.time ?? Date.parse(given['last-modified']);
  return since !== undefined && Number.isFinite(modified) && modified <= since;
}
