import type { Exchange } from '../../types.ts';
import { failed, passed, type Judgement, type Rule } from '../rule.ts';
import { lowerCased } from '../variant-headers.ts';

type Answered = Exchange & { response: NonNullable<Exchange['response']> };

/** RFC 9110 §8.8.3.2: weak comparison, the W/ prefix aside. */
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** Accept-Encoding as sent, for "the same request" (a 200 in gzip has another length than the identity one: RFC 9110 §8.6 counts the content's octets). */
const acceptEncoding = (exchange: Exchange) => (lowerCased(exchange.request.headers)['accept-encoding'] ?? '').toLowerCase().replace(/\s+/g, '');

/**
 * Whether `read` (a 200 with its Content-Length) is the representation the 304 says is current: the 304's ETag, else the tag its
 * request sent, else the Last-Modified it or its If-Modified-Since names (RFC 9110 §8.8.3, §13.1.1, §13.1.3). Without a validator the
 * 304 names no representation of its own, and nothing is compared.
 */
function sameRepresentation(notModified: Answered, read: Answered): boolean {
  if (read.seq === notModified.seq || read.path !== notModified.path || read.credential !== notModified.credential || read.keyIndex !== notModified.keyIndex) return false;
  if (acceptEncoding(read) !== acceptEncoding(notModified)) return false;
  const given = lowerCased(read.response.headers);
  const answered = lowerCased(notModified.response.headers);
  const sent = lowerCased(notModified.request.headers);
  if (answered.etag !== undefined) return given.etag !== undefined && opaque(given.etag) === opaque(answered.etag);
  const noneMatch = sent['if-none-match'];
  if (noneMatch !== undefined && noneMatch.trim() !== '*') return given.etag !== undefined && noneMatch.split(',').some((tag) => opaque(tag) === opaque(given.etag!));
  const modified = answered['last-modified'] ?? (noneMatch === undefined ? sent['if-modified-since'] : undefined);
  return modified !== undefined && given['last-modified'] === modified;
}

/** A Content-Length that says there is no content: `0`, or `0` written again in a list of equal values (RFC 9112 §6.3 (5)). */
export const isZero = (length: string) => length.split(',').every((value) => /^\s*0+\s*$/.test(value));

/**
 * RFC 9110 §8.6: "A server MUST NOT send a Content-Length header field in any response with a status code of 1xx (Informational) or
 * 204 (No Content)", and in a 304 only "the decimal number of octets that would have been sent in the content of a 200 (OK) response
 * to the same request". A `Content-Length: 0` written on every answer (a framework's default, a hand-written writer) tells a client
 * or cache that reads the 304's fields into its stored 200 (RFC 9111 §4.3.4) that the stored body is empty. Every answer the run saw
 * is judged, hostile probes' too (this is framing, not the contract); a 304 against a 200 of the same path, key, Accept-Encoding and
 * validator when the run saw one with a Content-Length, otherwise left alone (the 200 it stands for is unknown).
 */
export const contentLengthAllowed: Rule = {
  id: 'content-length-allowed',
  severity: 'error',
  title: 'No Content-Length that announces content on a 1xx or 204, and on a 304 only the 200’s',
  proves:
    'no answer the run saw with status 1xx carries Content-Length, none with 204 carries one other than 0 (0 is content-length-zero-on-no-content\'s warning), and a 304 that carries one gives the length of the 200 the run saw for the same path, key, Accept-Encoding and validator (RFC 9110 §8.6)',
  level: 'response',
  judge: (exchanges, context) => {
    const answered = (list: readonly Exchange[]) => list.filter((e): e is Answered => e.response !== undefined);
    const reads = answered(context.all ?? exchanges).filter((e) => (e.method === 'GET' || e.method === 'HEAD') && e.response.status === 200);
    return answered(exchanges).flatMap((exchange): Judgement[] => {
      const { status } = exchange.response;
      const headers = lowerCased(exchange.response.headers);
      const length = headers['content-length'];
      if (length === undefined) return [passed(exchange)];
      // `Content-Length: 0` on a 204 states the truth (no content) and frames nothing (RFC 9112 §6.3: a 204 ends at its head):
      // content-length-zero-on-no-content warns of it; any other length on a 204 or 1xx announces content that never comes.
      if (status === 204 && isZero(length)) return [];
      if (status === 204 || (status >= 100 && status < 200)) {
        return [
          failed({
            exchange,
            message: `${exchange.label}: the ${status} answer carries Content-Length: ${length} (RFC 9110 §8.6: a server MUST NOT send Content-Length in a response with status 1xx or 204; RFC 9112 §6.3: its message ends at the head).`,
            expected: `a ${status} without Content-Length`,
            got: `${status} with Content-Length: ${length}`,
          }),
        ];
      }
      if (status !== 304) return [passed(exchange)];
      const lengths = [
        ...new Set(
          reads
            .filter((read) => sameRepresentation(exchange, read))
            .filter((read) => read.response.headers['content-length'] !== undefined && read.response.headers['transfer-encoding'] === undefined)
            .map((read) => read.response.headers['content-length']!.trim()),
        ),
      ];
      if (lengths.length === 0) return [];
      if (lengths.includes(length.trim())) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: the 304 carries Content-Length: ${length}, but the 200 the run saw for the same request and validator carried ${lengths.join(' or ')} (RFC 9110 §8.6: in a 304 a server MUST NOT send Content-Length unless it equals the length a 200 to the same request would have; a cache that updates its stored 200 from the 304, RFC 9111 §4.3.4, takes it for the body's).`,
          expected: `no Content-Length, or Content-Length: ${lengths.join(' or ')} (the 200's)`,
          got: `304 with Content-Length: ${length}`,
        }),
      ];
    });
  },
};
