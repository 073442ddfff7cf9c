import type { Exchange, RecordedResponse } from '../types.ts';
import { lowerCased, variantJudgedBy } from './variant-headers.ts';

/**
 * Spec decision range-requests (RFC 9110 §14): a read may ignore Range (its 200) or honour it.
 * A 206 or a 416 to a Range variant is judged against the 200 the same request without Range
 * got with the same key: the 206's Content-Range names bytes of that representation and its
 * content is exactly those bytes (§14.4, §15.3.7; several ranges as multipart/byteranges,
 * §14.6, or coalesced into one part, §15.3.7.2, never multipart to one range); each part begins
 * and ends inside ranges asked (§14.1.2: a suffix is the last bytes, an open range runs to the end;
 * §15.3.7: a subset of what was asked is the server's to send, a byte not asked for is not); a 416 answers a bytes range set none of whose
 * ranges that representation has, or one it may reject as invalid, and its Content-Range,
 * when it sends one, gives that length after `bytes *` (§15.5.17). Never a 206 or 416 where the answer
 * without Range is no 200 (§14.2: Range is evaluated only then), to a unit other than bytes
 * (§14.2: MUST ignore), or despite an If-Range that does not match (§13.1.5: MUST ignore Range).
 */
export interface RangeJudgement {
  /** The 200 the answer stands for, when the contract allows it. */
  standsFor?: RecordedResponse;
  /** What is wrong with it otherwise, with the RFC's words. */
  problem?: string;
}


/** A 206 or 416 to a Range variant judged against the 200s the same request without Range got; undefined for any other exchange. */
export function judgeRangeAnswer(exchange: Exchange, all: readonly Exchange[]): RangeJudgement | undefined {
  const status = exchange.response?.status;
  if ((status !== 206 && status !== 416) || !variantJudgedBy(exchange, 'range-requests')) return undefined;
  const sent = lowerCased(exchange.request?.headers ?? {});
  const resource = exchange.path.split('?')[0];
  const same = all.filter((e) => e !== exchange && !e.variant && e.method === exchange.method && e.path.split('?')[0] === resource && e.credential === exchange.credential && e.keyIndex === exchange.keyIndex && !e.keyVariant && e.response);
  const full = same.filter((e) => e.response!.status === 200).map((e) => e.response!);
  if (full.length === 0) {
    const refused = same.find((e) => e.response!.status !== 200);
    return { problem: `${status} to a Range request where the same request without Range ${refused ? `got ${refused.response!.status}` : 'got no 200 in this run'} (RFC 9110 §14.2: Range is evaluated only where the answer without it is a 200; a refusal stays the refusal)` };
  }
  const range = sent.range ?? '';
  const unit = /^\s*([^=\s]+)\s*=/.exec(range)?.[1];
  if (unit?.toLowerCase() !== 'bytes') return { problem: `${status} to \`Range: ${range}\`, a range unit the contract does not define (RFC 9110 §14.2: a range unit it does not understand MUST be ignored: the 200)` };
  const ifRange = sent['if-range'];
  if (ifRange !== undefined && !full.some((r) => strongMatch(ifRange, lowerCased(r.headers).etag))) return { problem: `${status} despite \`If-Range: ${ifRange}\`, which matches no ETag the 200 carried (RFC 9110 §13.1.5: if the validator does not match, the server MUST ignore Range: the 200)` };
  const problems: string[] = [];
  for (const representation of full) {
    const problem = status === 206 ? partialProblem(exchange.response!, representation, range) : unsatisfiableProblem(exchange.response!, representation, range);
    if (problem === undefined) return { standsFor: representation };
    problems.push(problem);
  }
  return { problem: problems[0]! };
}

/** RFC 9110 §8.8.3.2: If-Range compares strongly, a weak tag never matches (§13.1.5). */
function strongMatch(sent: string, given: string | undefined): boolean {
  const tag = sent.trim();
  return given !== undefined && !tag.startsWith('W/') && !given.trim().startsWith('W/') && tag === given.trim();
}

/** Byte ranges of `bytes=…` against a length (RFC 9110 §14.1.2), or undefined when the set is not valid syntax. Unsatisfiable ones are left out. */
function rangeSet(value: string, length: number): [number, number][] | undefined {
  const specs = /^\s*bytes\s*=(.*)$/i.exec(value)?.[1]?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (!specs || specs.length === 0) return undefined;
  const out: [number, number][] = [];
  for (const spec of specs) {
    const match = /^(\d*)-(\d*)$/.exec(spec);
    if (!match || (match[1] === '' && match[2] === '')) return undefined;
    if (match[1] === '') {
      if (Number(match[2]) > 0 && length > 0) out.push([Math.max(0, length - Number(match[2])), length - 1]);
      continue;
    }
    const first = Number(match[1]);
    if (match[2] !== '' && Number(match[2]) < first) return undefined;
    if (first < length) out.push([first, match[2] === '' ? length - 1 : Math.min(Number(match[2]), length - 1)]);
  }
  return out;
}

/** How many range-specs a `bytes=…` value lists. */
const rangeSpecs = (value: string) => (/^\s*bytes\s*=(.*)$/i.exec(value)?.[1] ?? '').split(',').filter((s) => s.trim() !== '').length;

/** The bytes a recorded body stands for, and whether they can be compared (a content coding undone or a body that was not UTF-8 leaves the wire's bytes unknown). */
function bytesOf(response: RecordedResponse): { bytes: Buffer; exact: boolean } {
  const coding = lowerCased(response.headers)['content-encoding']?.trim().toLowerCase();
  return { bytes: Buffer.from(response.body, 'utf8'), exact: !response.notUtf8 && (coding === undefined || coding === '' || coding === 'identity') };
}

const CONTENT_RANGE = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i;

/** What is wrong with one part (its Content-Range and content) against the representation; undefined when it is that slice. */
function partProblem(contentRange: string | undefined, content: Buffer, representation: { bytes: Buffer; exact: boolean }, asked: readonly [number, number][], where: string): string | undefined {
  if (contentRange === undefined) return `${where} has no Content-Range (RFC 9110 §15.3.7.1: a single-part 206 MUST carry one; §14.6: so does each part of multipart/byteranges)`;
  const match = CONTENT_RANGE.exec(contentRange);
  if (!match) return `${where} has \`Content-Range: ${contentRange}\`, which is no \`bytes first-last/length\` (RFC 9110 §14.4)`;
  const [first, last] = [Number(match[1]), Number(match[2])];
  if (last < first) return `${where} has \`Content-Range: ${contentRange}\`, whose last byte comes before its first (RFC 9110 §14.4: invalid)`;
  if (!representation.exact) return undefined;
  const length = representation.bytes.length;
  if (match[3] !== '*' && Number(match[3]) !== length) return `${where} has \`Content-Range: ${contentRange}\`, but the 200 to the same request has ${length} bytes (RFC 9110 §14.4: complete-length is the representation's length)`;
  if (last >= length) return `${where} has \`Content-Range: ${contentRange}\`, past the ${length} bytes of the 200 to the same request`;
  // RFC 9110 §14.1.2: the bytes asked for; §15.3.7: a server may send a subset of them; §15.3.7.2: a part may coalesce ranges asked
  // (the gap between them with them). So a part begins and ends inside ranges asked; a byte before, after or between them that
  // no coalescing explains is none the client asked for (a suffix read as a prefix, an open range read from 0).
  const inside = (at: number) => asked.some(([a, b]) => a <= at && at <= b);
  if (!inside(first) || !inside(last)) return `${where} has \`Content-Range: ${contentRange}\`, but the request asked for bytes ${asked.map(([a, b]) => `${a}-${b}`).join(', ')} of the ${length} (RFC 9110 §14.1.2; a part holds bytes asked for, or coalesces ranges asked, §15.3.7.2): byte ${inside(first) ? last : first} was not asked for`;
  if (content.length !== last - first + 1) return `${where} says \`Content-Range: ${contentRange}\` (${last - first + 1} bytes) but carries ${content.length} bytes (RFC 9110 §14.4)`;
  if (!content.equals(representation.bytes.subarray(first, last + 1))) return `${where} carries bytes other than bytes ${first}-${last} of the 200 to the same request (RFC 9110 §14.4: the range of the selected representation)`;
  return undefined;
}

function partialProblem(answer: RecordedResponse, full: RecordedResponse, range: string): string | undefined {
  const representation = bytesOf(full);
  const asked = rangeSet(range, representation.bytes.length);
  if (asked === undefined || asked.length === 0) return `206 to \`Range: ${range}\`, which asks for no byte of the ${representation.bytes.length} the 200 has (RFC 9110 §14.2: a 416, or the 200)`;
  const headers = lowerCased(answer.headers);
  const type = headers['content-type'] ?? '';
  const own = bytesOf(answer);
  const multipart = /^\s*multipart\/byteranges\b/i.test(type);
  // RFC 9110 §15.3.7.2: a server MUST NOT generate a multipart response to a request for a single range (a client reads the parts' framing as the bytes).
  if (multipart && rangeSpecs(range) === 1) return `a multipart/byteranges 206 to \`Range: ${range}\`, a single range (RFC 9110 §15.3.7.2: a server MUST NOT send multipart for one range; a single part with Content-Range)`;
  if (!multipart) return partProblem(headers['content-range'], own.bytes, { ...representation, exact: representation.exact && own.exact }, asked, 'the 206');
  // RFC 9110 §14.6: a multipart/byteranges 206 carries no Content-Range of its own, each part its own.
  if (headers['content-range'] !== undefined) return `a multipart/byteranges 206 with \`Content-Range: ${headers['content-range']}\` (RFC 9110 §14.6: the parts carry it, the message MUST NOT)`;
  const boundary = /boundary=("?)([^";]+)\1/i.exec(type)?.[2];
  if (!boundary) return 'a multipart/byteranges 206 without a boundary parameter (RFC 2046 §5.1.1)';
  const parts = multipartParts(own.bytes, boundary);
  if (!parts || parts.length === 0) return `a multipart/byteranges 206 whose body is not parts delimited by --${boundary} (RFC 2046 §5.1.1)`;
  for (const [i, part] of parts.entries()) {
    const problem = partProblem(part.headers['content-range'], part.content, { ...representation, exact: representation.exact && own.exact }, asked, `part ${i + 1} of the 206`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The parts of a multipart body (RFC 2046 §5.1.1): each one's header fields (lower case) and content. Undefined when it is not one. */
function multipartParts(body: Buffer, boundary: string): { headers: Record<string, string>; content: Buffer }[] | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  const starts: number[] = [];
  for (let at = body.indexOf(delimiter); at >= 0; at = body.indexOf(delimiter, at + delimiter.length)) {
    // A delimiter starts the body or a line (CRLF before it, which belongs to the delimiter).
    if (at === 0 || (body[at - 1] === 0x0a && body[at - 2] === 0x0d)) starts.push(at);
  }
  if (starts.length < 2) return undefined;
  const parts: { headers: Record<string, string>; content: Buffer }[] = [];
  for (let i = 0; i + 1 < starts.length; i++) {
    const from = body.indexOf('\r\n', starts[i]!);
    const end = starts[i + 1]! - 2;
    if (from < 0 || from + 2 > end) return undefined;
    const part = body.subarray(from + 2, end);
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) return undefined;
    const headers: Record<string, string> = {};
    for (const line of part.subarray(0, split).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, content: part.subarray(split + 4) });
  }
  return body.subarray(starts.at(-1)! + delimiter.length, starts.at(-1)! + delimiter.length + 2).toString('latin1') === '--' ? parts : undefined;
}

function unsatisfiableProblem(answer: RecordedResponse, full: RecordedResponse, range: string): string | undefined {
  const representation = bytesOf(full);
  const asked = rangeSet(range, representation.bytes.length);
  // RFC 9110 §14.2: a server MAY reject a Range whose ranges-specifier is invalid; a valid one with a satisfiable range gets the range or the 200.
  if (asked !== undefined && asked.length > 0) return `416 to \`Range: ${range}\`, of which bytes ${asked.map(([a, b]) => `${a}-${b}`).join(', ')} are in the ${representation.bytes.length} bytes of the 200 to the same request (RFC 9110 §15.5.17: a 416 is for a range none of whose parts overlap the representation)`;
  const contentRange = lowerCased(answer.headers)['content-range'];
  if (contentRange === undefined || !representation.exact) return undefined;
  const match = /^\s*bytes\s+\*\/(\d+)\s*$/i.exec(contentRange);
  if (!match) return `416 with \`Content-Range: ${contentRange}\`, which is no \`bytes */length\` (RFC 9110 §14.4, §15.5.17)`;
  if (Number(match[1]) !== representation.bytes.length) return `416 with \`Content-Range: ${contentRange}\`, but the 200 to the same request has ${representation.bytes.length} bytes (RFC 9110 §15.5.17: the current length)`;
  return undefined;
}
