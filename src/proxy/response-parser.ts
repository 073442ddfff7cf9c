/**
 * A strict, incremental HTTP/1.1 response parser for the proxy's upstream hop (RFC 9112): bytes in,
 * the status line and header lines out as sent (names in their case, order and repeats kept), the
 * body's bytes as they come (slices of what was fed, never copied), trailer lines after a chunked
 * body. It decides the body's length as RFC 9112 §6.3 says, in its order: no body for a HEAD
 * request or a 1xx, 204 or 304 answer; a Transfer-Encoding whose last coding is chunked frames it
 * by chunks (one without chunked, to the connection's close); else a Content-Length; else the
 * connection's close. Every 1xx before the final answer (RFC 9110 §15.2) is handed on as such and
 * parsing goes on: a client must take a 1xx it did not ask for, a `100 Continue` included.
 *
 * Anything else is an error whose `code` says why; the proxy then answers 502 and drops the
 * connection: an invalid status line or field line, a line folded (obs-fold: RFC 9112 §5.2 lets a
 * proxy refuse it), a Content-Length that is not one number (RFC 9112 §6.3 item 5), a bad chunk, a
 * 101 nobody asked for (the proxy never forwards Upgrade), a header section over `maxHeaderBytes`.
 */

export interface ResponseHead {
  /** 0 or 1: HTTP/1.0 or HTTP/1.1. */
  minor: number;
  status: number;
  reason: string;
  /** Flat [name, value, name, value, ...] as sent (node:http's rawHeaders), values without surrounding whitespace. */
  rawHeaders: string[];
}

export interface ResponseEvents {
  /** A 1xx before the final answer. */
  information(head: ResponseHead): void;
  /** The final answer's head. */
  head(head: ResponseHead): void;
  /** A piece of the body (the bytes as they framed it, chunk framing taken off). */
  body(chunk: Buffer): void;
  /** The answer is complete; the trailer lines after a chunked body, as sent (else empty). */
  end(rawTrailers: string[]): void;
}

export class ResponseParseError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

const CR = 13;
const LF = 10;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** RFC 9110 §5.6.2 token: a field name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 9110 §5.5: field-vchar, SP, HTAB and obs-text only (no NUL, CR, LF or other control): what node:http writes on to the client. */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: ([^\0\r\n]*))?$/;
/** A chunk-size line (RFC 9112 §7.1): hex digits, then extensions the parser skips. */
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/;
/** The longest chunk-size line (extensions included) read: more is a hostile or broken backend. */
const MAX_CHUNK_LINE = 4096;

const enum_ = { head: 0, length: 1, chunkSize: 2, chunkData: 3, chunkEnd: 4, trailers: 5, untilClose: 6, done: 7 } as const;
type State = (typeof enum_)[keyof typeof enum_];

export class ResponseParser {
  readonly #events: ResponseEvents;
  readonly #maxHeaderBytes: number;
  /** No body whatever the head says: the request was a HEAD (RFC 9110 §9.3.2). */
  readonly #headRequest: boolean;
  #state: State = enum_.head;
  /** Bytes of a line or head not complete yet. */
  #pending: Buffer | undefined;
  #remaining = 0;
  #trailerBytes = 0;
  #trailers: string[] = [];
  /** Whether the connection may carry another request after this answer (RFC 9112 §9.3). */
  keepAlive = true;
  /** Bytes came after the complete answer: nothing may be sent on this connection again. */
  excess = false;

  constructor(events: ResponseEvents, options: { headRequest: boolean; maxHeaderBytes: number }) {
    this.#events = events;
    this.#headRequest = options.headRequest;
    this.#maxHeaderBytes = options.maxHeaderBytes;
  }

  get complete(): boolean {
    return this.#state === enum_.done;
  }

  /** Whether the answer so far is one whose body ends when the connection closes. */
  get untilClose(): boolean {
    return this.#state === enum_.untilClose;
  }

  /** Parses the bytes that came; throws a ResponseParseError on what is not HTTP/1.1. */
  feed(data: Buffer): void {
    let buffer = data;
    if (this.#pending !== undefined) {
      buffer = Buffer.concat([this.#pending, data]);
      this.#pending = undefined;
    }
    let at = 0;
    while (at < buffer.length) {
      switch (this.#state) {
        case enum_.head: {
          const end = buffer.indexOf(HEADER_END, at);
          if (end < 0) {
            if (buffer.length - at > this.#maxHeaderBytes) throw overflow(this.#maxHeaderBytes);
            this.#pending = buffer.subarray(at);
            return;
          }
          if (end - at > this.#maxHeaderBytes) throw overflow(this.#maxHeaderBytes);
          const head = parseHead(buffer.toString('latin1', at, end));
          at = end + 4;
          this.#begin(head);
          break;
        }
        case enum_.length: {
          const take = Math.min(this.#remaining, buffer.length - at);
          this.#remaining -= take;
          const piece = buffer.subarray(at, at + take);
          at += take;
          if (this.#remaining === 0) this.#state = enum_.done;
          this.#events.body(piece);
          if (this.#state === enum_.done) this.#events.end([]);
          break;
        }
        case enum_.untilClose: {
          this.#events.body(at === 0 ? buffer : buffer.subarray(at));
          return;
        }
        case enum_.chunkSize: {
          const end = buffer.indexOf(CRLF, at);
          if (end < 0) {
            if (buffer.length - at > MAX_CHUNK_LINE) throw new ResponseParseError('INVALID_CHUNK', `a chunk-size line longer than ${MAX_CHUNK_LINE} bytes`);
            this.#pending = buffer.subarray(at);
            return;
          }
          const match = CHUNK_SIZE.exec(buffer.toString('latin1', at, end));
          if (!match) throw new ResponseParseError('INVALID_CHUNK', 'a chunk-size line that is not hex digits (RFC 9112 §7.1)');
          at = end + 2;
          this.#remaining = parseInt(match[1]!, 16);
          this.#state = this.#remaining === 0 ? enum_.trailers : enum_.chunkData;
          break;
        }
        case enum_.chunkData: {
          const take = Math.min(this.#remaining, buffer.length - at);
          this.#remaining -= take;
          const piece = buffer.subarray(at, at + take);
          at += take;
          if (this.#remaining === 0) this.#state = enum_.chunkEnd;
          this.#events.body(piece);
          break;
        }
        case enum_.chunkEnd: {
          if (buffer.length - at < 2) {
            if (buffer[at] !== CR) throw new ResponseParseError('INVALID_CHUNK', 'chunk data longer than its chunk-size');
            this.#pending = buffer.subarray(at);
            return;
          }
          if (buffer[at] !== CR || buffer[at + 1] !== LF) throw new ResponseParseError('INVALID_CHUNK', 'chunk data longer than its chunk-size');
          at += 2;
          this.#state = enum_.chunkSize;
          break;
        }
        case enum_.trailers: {
          const end = buffer.indexOf(CRLF, at);
          if (end < 0) {
            if (this.#trailerBytes + buffer.length - at > this.#maxHeaderBytes) throw overflow(this.#maxHeaderBytes);
            this.#pending = buffer.subarray(at);
            return;
          }
          this.#trailerBytes += end - at + 2;
          if (this.#trailerBytes > this.#maxHeaderBytes) throw overflow(this.#maxHeaderBytes);
          if (end === at) {
            at += 2;
            this.#state = enum_.done;
            this.#events.end(this.#trailers);
            break;
          }
          fieldLine(buffer.toString('latin1', at, end), this.#trailers);
          at = end + 2;
          break;
        }
        case enum_.done: {
          // A backend that writes past its answer (RFC 9112 §6.3: it cannot be a next answer, none was asked for).
          this.excess = true;
          return;
        }
      }
    }
  }

  /** The connection closed: completes an answer that ends so; false if the answer was not complete. */
  closed(): boolean {
    if (this.#state === enum_.untilClose) {
      this.#state = enum_.done;
      this.#events.end([]);
    }
    return this.#state === enum_.done;
  }

  #begin(head: ResponseHead): void {
    const { status } = head;
    if (status === 101) throw new ResponseParseError('UNASKED_UPGRADE', 'a 101 Switching Protocols nobody asked for (the proxy forwards no Upgrade)');
    if (status < 200) {
      this.#events.information(head);
      return;
    }
    let contentLength: string | undefined;
    let transferEncoding: string | undefined;
    let close = head.minor === 0;
    const raw = head.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      // Only three names decide framing and persistence; a length check first keeps the common case cheap.
      if (name.length === 14 && name.toLowerCase() === 'content-length') {
        for (const part of raw[i + 1]!.split(',')) {
          const value = part.trim();
          if (!/^\d{1,15}$/.test(value) || (contentLength !== undefined && contentLength !== value)) throw new ResponseParseError('INVALID_CONTENT_LENGTH', `a Content-Length that is not one number (${JSON.stringify(raw[i + 1]!.slice(0, 40))}; RFC 9112 §6.3)`);
          contentLength = value;
        }
      } else if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') transferEncoding = transferEncoding === undefined ? raw[i + 1]! : `${transferEncoding}, ${raw[i + 1]!}`;
      else if (name.length === 10 && name.toLowerCase() === 'connection') {
        const tokens = raw[i + 1]!.toLowerCase().split(',').map((t) => t.trim());
        if (tokens.includes('close')) close = true;
        else if (head.minor === 0 && tokens.includes('keep-alive')) close = false;
      }
    }
    this.keepAlive = !close;
    this.#events.head(head);
    if (this.#headRequest || status === 204 || status === 304) return this.#finish();
    if (transferEncoding !== undefined) {
      // A Transfer-Encoding overrides a Content-Length, and a message with both ends the connection (RFC 9112 §6.1, §6.3 item 3).
      if (contentLength !== undefined) this.keepAlive = false;
      const last = transferEncoding.split(',').at(-1)!.trim().toLowerCase();
      if (last === 'chunked') this.#state = enum_.chunkSize;
      else this.#untilClose();
      return;
    }
    if (contentLength !== undefined) {
      this.#remaining = Number(contentLength);
      if (this.#remaining === 0) return this.#finish();
      this.#state = enum_.length;
      return;
    }
    this.#untilClose();
  }

  #untilClose(): void {
    this.keepAlive = false;
    this.#state = enum_.untilClose;
  }

  #finish(): void {
    this.#state = enum_.done;
    this.#events.end([]);
  }
}

function overflow(max: number): ResponseParseError {
  return new ResponseParseError('HEADER_OVERFLOW', `its header section is larger than the ${max / 1024} KiB the proxy reads`);
}

function parseHead(text: string): ResponseHead {
  const lines = text.split('\r\n');
  const status = STATUS_LINE.exec(lines[0]!);
  if (!status) throw new ResponseParseError('INVALID_STATUS_LINE', `its status line is not HTTP/1.x (${JSON.stringify(lines[0]!.slice(0, 40))})`);
  const rawHeaders: string[] = [];
  for (let i = 1; i < lines.length; i++) fieldLine(lines[i]!, rawHeaders);
  return { minor: status[1] === '1' ? 1 : 0, status: Number(status[2]), reason: status[3] ?? '', rawHeaders };
}

/** One field line (RFC 9112 §5): `name: value`, no whitespace before the colon, no folding. */
function fieldLine(line: string, into: string[]): void {
  const colon = line.indexOf(':');
  const name = colon > 0 ? line.slice(0, colon) : '';
  if (!TOKEN.test(name)) throw new ResponseParseError('INVALID_HEADER', line.length > 0 && (line[0] === ' ' || line[0] === '\t') ? 'a header line folded onto the next (obs-fold, RFC 9112 §5.2)' : 'a header line that is not `name: value` (RFC 9112 §5)');
  const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
  if (BAD_VALUE.test(value)) throw new ResponseParseError('INVALID_HEADER', 'a header value with a control character (RFC 9110 §5.5)');
  into.push(name, value);
}
