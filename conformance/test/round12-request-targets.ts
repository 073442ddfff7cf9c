import type { Contract } from '../../src/contract/index.ts';
import type { MockRequest, MockResponse } from '../../src/mock/index.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { freshMock, serveRaw, toMockRequest } from './serve-target.ts';
import { parseHttpDate } from '../judge/rules/http-dates.ts';

/**
 * Red team round twelve's request principles (issue 18; test/red-team/round-12/BASELINE.md):
 * Range and the conditional headers are ordinary request headers the spec does not name.
 * Range: a server may ignore it (the 200) or honour it as RFC 9110 §14 says, a 206 whose
 * Content-Range matches the slice of the 200 it stands for, a 416 for a range none of whose
 * parts the representation has; never on a refusal (RFC 9110 §14.2: only where the answer
 * without Range is a 200). Conditional headers: a value that is no HTTP-date is ignored
 * (RFC 9110 §13.1.3, §13.1.4), however a lenient date parser reads it.
 * Not round twelve's targets: other mistakes in the same places, as other stacks make them.
 */

/** When the targets' representations last changed: a minute before they start, so that every earlier date is "before a change". */
const LAST_MODIFIED = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);

export interface ByteAnswer {
  status: number;
  headers: Record<string, string>;
  body?: Buffer;
}

/** The mock behind node:http, answering bytes: a Range slice may end inside a UTF-8 sequence. */
export function byteTarget(contract: Contract, answer: (request: MockRequest, response: MockResponse) => ByteAnswer): ReturnType<typeof serveRaw> {
  const mock = freshMock(contract);
  return serveRaw((req, res) => {
    const request = toMockRequest(req);
    const response = mock.handle(request);
    const out = answer(request, response);
    // RFC 9110 §8.6: no Content-Length on a 204 or a 304 (content-length-allowed); these targets' points are the conditions and ranges.
    const bodiless = out.status === 204 || out.status === 304;
    res.writeHead(out.status, bodiless ? out.headers : { ...out.headers, 'content-length': String(out.body?.length ?? 0) });
    res.end(request.method === 'HEAD' || bodiless ? undefined : out.body);
  });
}

export const asBytes = (response: MockResponse): ByteAnswer => ({ status: response.status, headers: { ...response.headers }, ...(response.body === undefined ? {} : { body: Buffer.from(response.body) }) });
export const header = (request: MockRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** `bytes=first-last`, `bytes=first-`, `bytes=-suffix` as RFC 9110 §14.1.2 reads them against a length; undefined when unsatisfiable. */
export function resolveRange(spec: string, length: number): [number, number] | undefined {
  const match = /^(\d*)-(\d*)$/.exec(spec.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') return Number(match[2]) === 0 || length === 0 ? undefined : [Math.max(0, length - Number(match[2])), length - 1];
  const first = Number(match[1]);
  const last = match[2] === '' ? length - 1 : Math.min(Number(match[2]), length - 1);
  return first >= length || last < first ? undefined : [first, last];
}

/** The byte ranges a `Range: bytes=...` asks for; undefined when the field is absent, of another unit, or not a valid bytes range set. */
export function byteRangeSet(value: string | undefined): string[] | undefined {
  const match = /^bytes=(.+)$/i.exec(value?.trim() ?? '');
  if (!match) return undefined;
  const specs = match[1]!.split(',').map((s) => s.trim());
  return specs.every((s) => /^(\d+-\d*|-\d+)$/.test(s) && !(/^(\d+)-(\d+)$/.test(s) && Number(s.split('-')[0]) > Number(s.split('-')[1]))) ? specs : undefined;
}

/** A strong tag of the body (RFC 9110 §8.8.3): If-Range compares strongly. */
export const tagOf = (body: Buffer) => `"${body.length.toString(16)}-${[...body].reduce((h, b) => (h * 31 + b) >>> 0, 7).toString(16)}"`;

/** How a target answers Range beyond RFC 9110's own reading (round16-targets.ts varies them). */
export interface RangeOptions {
  /** Several ranges in one part from the first to the last (§15.3.7.2 lets a server coalesce). */
  coalesce?: boolean;
  contentRangeOn416?: boolean;
  /** How one range-spec is read against the length (RFC 9110 §14.1.2's reading when absent). */
  resolve?: (spec: string, length: number) => [number, number] | undefined;
  /** Overlapping and adjacent ranges merged (range-parser's `combine`); a set that stays several is ignored: the 200 (Express `send`). */
  combineOrIgnore?: boolean;
  /** At most this many bytes per part, from its first byte (§15.3.7: a server may send a subset of what was asked). */
  cap?: number;
  /** A multipart/byteranges 206 even to a single range. */
  alwaysMultipart?: boolean;
  /** The Content-Range a single part says, from the range it carries (the range itself when absent). */
  contentRange?: (range: [number, number], length: number, spec: string) => string;
}

/**
 * Range as RFC 9110 §14 has it, on a GET whose answer without Range is a 200: If-Range compared
 * strongly with the ETag (§13.1.5), other units ignored (§14.2), one range a 206 with its
 * Content-Range, several a multipart/byteranges 206 (§14.6) or, with `coalesce`, one part from the
 * first to the last (§14.2 lets a server coalesce), none satisfiable a 416 (§15.5.17).
 */
export function rfcRanges(request: MockRequest, response: MockResponse, options: RangeOptions = {}): ByteAnswer {
  const plain = asBytes(response);
  if (response.status !== 200 || !plain.body) return plain;
  const etag = tagOf(plain.body);
  const full: ByteAnswer = { ...plain, headers: { ...plain.headers, etag, 'accept-ranges': 'bytes' } };
  // RFC 9110 §14.2: GET is the only method range handling is defined for (a HEAD gets the GET's headers).
  if (request.method !== 'GET') return full;
  const ifRange = header(request, 'if-range');
  if (ifRange !== undefined && ifRange.trim() !== etag) return full;
  const specs = byteRangeSet(header(request, 'range'));
  if (!specs) return full;
  const length = plain.body.length;
  const resolve = options.resolve ?? resolveRange;
  let ranges = specs.map((s) => resolve(s, length)).filter((r): r is [number, number] => r !== undefined);
  if (ranges.length === 0) return { status: 416, headers: { 'content-type': 'text/plain', ...(options.contentRangeOn416 === false ? {} : { 'content-range': `bytes */${length}` }) }, body: Buffer.from('Range Not Satisfiable\n') };
  if (options.combineOrIgnore) {
    const merged: [number, number][] = [];
    for (const [first, last] of [...ranges].sort((a, b) => a[0] - b[0])) {
      const previous = merged.at(-1);
      if (previous && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
      else merged.push([first, last]);
    }
    if (merged.length > 1) return full;
    ranges = merged;
  }
  if (options.cap !== undefined) ranges = ranges.map(([first, last]) => [first, Math.min(last, first + options.cap! - 1)]);
  if (!options.alwaysMultipart && (ranges.length === 1 || options.coalesce)) {
    const first = Math.min(...ranges.map((r) => r[0]));
    const last = Math.max(...ranges.map((r) => r[1]));
    const contentRange = options.contentRange?.([first, last], length, specs[0]!) ?? `bytes ${first}-${last}/${length}`;
    return { status: 206, headers: { ...full.headers, 'content-range': contentRange }, body: plain.body.subarray(first, last + 1) };
  }
  const boundary = 'flag-admin-range-boundary';
  const type = plain.headers['content-type'] ?? 'application/json';
  const parts = ranges.map(([first, last]) => Buffer.concat([Buffer.from(`\r\n--${boundary}\r\nContent-Type: ${type}\r\nContent-Range: bytes ${first}-${last}/${length}\r\n\r\n`), plain.body!.subarray(first, last + 1)]));
  const { 'content-type': _, ...rest } = full.headers;
  return { status: 206, headers: { ...rest, 'content-type': `multipart/byteranges; boundary=${boundary}` }, body: Buffer.concat([...parts, Buffer.from(`\r\n--${boundary}--\r\n`)]) };
}

/** Last-Modified on every 200 to a read: what conditional requests compare with. */
const withLastModified = (response: ByteAnswer): ByteAnswer => (response.status === 200 ? { ...response, headers: { ...response.headers, 'last-modified': LAST_MODIFIED.toUTCString() } } : response);

/**
 * The conditional headers of a read evaluated in RFC 9110 §13.2.2's order (If-Unmodified-Since,
 * then If-Modified-Since), each date read by `read`: the strict reading (HTTP-dates only) or a
 * lenient one that takes what is no HTTP-date.
 */
function conditionalRead(request: MockRequest, response: MockResponse, read: { ims: (value: string) => number | undefined; ius: (value: string) => number | undefined }): ByteAnswer {
  const plain = withLastModified(asBytes(response));
  if (response.status !== 200 || request.method !== 'GET') return plain;
  const unmodified = header(request, 'if-unmodified-since');
  const since = unmodified === undefined ? undefined : read.ius(unmodified);
  if (since !== undefined && LAST_MODIFIED.getTime() > since) return { status: 412, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ id: 'precondition-1', name: 'PreconditionFailed', message: 'modified since' })) };
  const modified = header(request, 'if-modified-since');
  const after = modified === undefined || header(request, 'if-none-match') !== undefined ? undefined : read.ims(modified);
  if (after !== undefined && LAST_MODIFIED.getTime() <= after) return { status: 304, headers: { 'last-modified': LAST_MODIFIED.toUTCString() } };
  return plain;
}

const strictDate = (value: string) => parseHttpDate(value.trim())?.time;
/** JavaScript's Date.parse: an ISO 8601 date, a year alone, an RFC 3339 time, an RFC 2822 date all read as dates. */
const dateParse = (value: string) => {
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
};
/** Go's http.ParseTime, then time.RFC3339 as a fallback (a helper that "also accepts ISO"): `2099-01-01T00:00:00Z` reads as a date. */
const httpDateThenRfc3339 = (value: string) => strictDate(value) ?? (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value.trim()) ? Date.parse(value) : undefined);

export const ROUND12_REQUEST_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    name: 'Range honoured with the end read as exclusive (body.subarray(first, last)): `bytes=2-11` answers 206 with Content-Range: bytes 2-11/len and nine bytes',
    dimension: 'headers',
    caughtBy: ['range-requests'],
    serve: (contract) =>
      byteTarget(contract, (request, response) => {
        const answer = rfcRanges(request, response);
        const range = /^bytes (\d+)-(\d+)\//.exec(answer.headers['content-range'] ?? '');
        return answer.status === 206 && range && answer.body ? { ...answer, body: answer.body.subarray(0, answer.body.length - 1) } : answer;
      }),
  },
  {
    name: 'Range applied to whatever answer has a body, refusals too: a 401 or 404 error body sliced into a 206 with its own Content-Range (a static-file range layer in front of the API)',
    dimension: 'headers',
    caughtBy: ['range-requests'],
    serve: (contract) =>
      byteTarget(contract, (request, response) => {
        const plain = asBytes(response);
        const specs = byteRangeSet(header(request, 'range'));
        if (!specs || specs.length !== 1 || !plain.body || request.method !== 'GET') return plain;
        const range = resolveRange(specs[0]!, plain.body.length);
        if (!range) return plain;
        return { status: 206, headers: { ...plain.headers, 'content-range': `bytes ${range[0]}-${range[1]}/${plain.body.length}` }, body: plain.body.subarray(range[0], range[1] + 1) };
      }),
  },
  {
    name: 'If-Unmodified-Since read with Date.parse on reads that carry Last-Modified: `2000-01-01` (no HTTP-date) answers 412',
    dimension: 'conditional',
    caughtBy: ['conditional-after-auth'],
    serve: (contract) => byteTarget(contract, (request, response) => conditionalRead(request, response, { ims: strictDate, ius: dateParse })),
  },
  {
    name: "If-Modified-Since read as an HTTP-date, else as RFC 3339 (Go's http.ParseTime with a time.RFC3339 fallback): `2099-01-01T00:00:00Z` answers 304",
    dimension: 'conditional',
    caughtBy: ['conditional-after-auth'],
    serve: (contract) => byteTarget(contract, (request, response) => conditionalRead(request, response, { ims: httpDateThenRfc3339, ius: strictDate })),
  },
];

export const ROUND12_REQUEST_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    name: 'Range honoured as RFC 9110 §14 says on reads that would answer 200: one range a 206 with Content-Range, several a multipart/byteranges, none satisfiable a 416 with bytes */length, other units and a failed If-Range ignored',
    serve: (contract) => byteTarget(contract, (request, response) => rfcRanges(request, response)),
  },
  {
    name: 'Range honoured with several ranges coalesced into one part (RFC 9110 §14.2) and a 416 without Content-Range (a SHOULD, §15.5.17)',
    serve: (contract) => byteTarget(contract, (request, response) => rfcRanges(request, response, { coalesce: true, contentRangeOn416: false })),
  },
  {
    name: 'Last-Modified on reads, If-Modified-Since and If-Unmodified-Since honoured when they are HTTP-dates (all three forms), ignored otherwise',
    serve: (contract) => byteTarget(contract, (request, response) => conditionalRead(request, response, { ims: strictDate, ius: strictDate })),
  },
];
