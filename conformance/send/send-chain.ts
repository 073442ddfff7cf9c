import { isUtf8 } from 'node:buffer';
import { connect, isIP, type Socket } from 'node:net';
import type { RecordedResponse } from '../types.ts';
import { STALE_AFTER_IDLE_MS } from './http-client.ts';

/** One request of a chain, exactly as it goes on the wire: header names in the case given. */
export interface RawRequest {
  method: string;
  /** Path and query, already percent-encoded. */
  path: string;
  headers: readonly (readonly [string, string])[];
  /** Content written after the head (its Content-Length is among the headers), UTF-8. */
  body?: string;
  /** The request target when not `path` itself: the absolute form (RFC 9112 §3.2.2). */
  target?: string;
  /** The request line's HTTP version; 1.1 when absent. */
  version?: '1.0';
}

export interface RawOutcome {
  response?: RecordedResponse;
  /** Why no well-formed answer was read for this request. */
  error?: string;
  /** With an error: a status line had arrived. */
  began?: boolean;
  timedOut?: boolean;
  /** Why the answer was not judged (a body over --max-body): not a defect. */
  notJudged?: string;
  /** Sent on a connection of its own (the first of the chain, or the server had closed the one before). */
  fresh: boolean;
  /** Pipelined, the answers broke HTTP/1.1 framing (why): the batch was sent again one request at a time, and this is that answer. */
  pipelineBroken?: string;
  /**
   * Pipelined, the server closed the connection after some answers without announcing it (no
   * `Connection: close`, RFC 9112 §9.6), leaving requests of the batch it had received unanswered
   * (why); this request was one of them, sent again on a connection of its own.
   */
  pipelineDropped?: string;
  /** Pipelined after an answer that announced `Connection: close`, and the server answered on that connection all the same (why; RFC 9112 §9.6); sent again alone. */
  processedAfterClose?: string;
  /**
   * The request carried `Connection: close`: whether the server closed the connection within
   * CLOSE_WAIT_MS after its answer (RFC 9112 §9.6). Absent for other requests.
   */
  closed?: boolean;
}

/** How long after its answer to a request with `Connection: close` the server may take to close (a lingering close is in time). */
export const CLOSE_WAIT_MS = 1000;

/** The client said it closes after this request (RFC 9112 §9.3, §9.6): `Connection: close`, or HTTP/1.0 without keep-alive. */
function endsConnection(request: RawRequest): 'close' | 'http/1.0' | undefined {
  const connection = request.headers.filter(([name]) => name.toLowerCase() === 'connection').map(([, value]) => value).join(', ');
  if (/\bclose\b/i.test(connection)) return 'close';
  return request.version === '1.0' && !/\bkeep-alive\b/i.test(connection) ? 'http/1.0' : undefined;
}

/** How a chain is bounded, and how a body's bytes become text (the sender's: identical large bodies share one string). */
export interface ChainOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  /** Every request written at once before any answer is read (sendPipelined). */
  pipelined?: boolean;
  text?: (bytes: Buffer) => string;
}

/**
 * Header bytes of an answer read at most before it is called broken, by both of the suite's
 * clients. Not node:http's 16 KiB default: no HTTP RFC sets a limit, servers behind CDNs send
 * more (a long Content-Security-Policy, many Set-Cookie), and curl takes 100 KiB a field.
 */
export const MAX_HEADER_BYTES = 256 * 1024;

/**
 * Sends requests one after another on one kept-alive HTTP/1.1 connection, each only after the
 * answer to the one before was read whole, and reads exactly one answer per request by HTTP/1.1
 * framing (RFC 9112 §6.3: no body for HEAD, 1xx, 204, 304; else chunked, Content-Length, or
 * until close). Bytes that arrive beyond an answer's framing belong to no answer: the next
 * request's outcome says so (a HEAD answered with a body spills so). Where the server closes the
 * connection (Connection: close is allowed after any answer, RFC 9112 §9.6), the next request
 * goes on a fresh one. Bounded: one deadline per request, at most maxBodyBytes of a body, and
 * the chain stops at the first request that ran into its deadline (fewer outcomes than requests).
 * A pooling client cannot do this: it hides which connection a request went on, and reuses or
 * drops connections by its own rules.
 */
export async function sendChain(origin: URL, requests: readonly RawRequest[], options: ChainOptions): Promise<RawOutcome[]> {
  if (options.pipelined && requests.length > 1) return sendPipelined(origin, requests, options);
  const outcomes: RawOutcome[] = [];
  let connection: Connection | undefined;
  try {
    for (const request of requests) {
      const fresh = connection === undefined || connection.closed;
      if (fresh) {
        connection?.destroy();
        connection = new Connection(origin);
      }
      let outcome = await connection!.exchange(request, options);
      let sentFresh = fresh;
      if (!fresh && outcome.error !== undefined && !outcome.began && !outcome.timedOut && connection!.closed && !connection!.leftover && connection!.idleBefore >= STALE_AFTER_IDLE_MS) {
        // The server closed the idle connection as the request went out: a client sends it again on a new one (RFC 9112 §9.3.1).
        // Only after a pause, as http-client.ts retries: a connection that dies on a request sent right after the answer before it
        // is the server dropping the request (red team round nine, sixth-request-on-connection-reset), a finding, not this race.
        connection!.destroy();
        connection = new Connection(origin);
        outcome = await connection.exchange(request, options);
        sentFresh = true;
      }
      // The client ends the connection after this request: the server must close it (RFC 9112 §9.6; judged for Connection: close only,
      // after a bounded wait), and the next request goes on a fresh one either way.
      const ends = outcome.error === undefined && outcome.notJudged === undefined ? endsConnection(request) : undefined;
      if (ends === 'close') outcomes.push({ ...outcome, fresh: sentFresh, closed: await connection!.closedWithin(CLOSE_WAIT_MS) });
      else outcomes.push({ ...outcome, fresh: sentFresh });
      if (ends !== undefined) {
        connection!.destroy();
        connection = undefined;
      }
      // A request held for the whole deadline ends the chain: the run's wall time stays bounded (the rest is reported as not sent).
      if (outcome.timedOut) break;
      if (outcome.error !== undefined) {
        connection!.destroy();
        connection = undefined;
      }
    }
  } finally {
    connection?.destroy();
  }
  return outcomes;
}

/**
 * HTTP/1.1 pipelining (RFC 9112 §9.3.2): every request written on one new connection at once,
 * before any answer is read; the answers are then read in turn, each by its framing, and the
 * i-th belongs to the i-th request (a server MUST answer in the order of the requests, however
 * it works on them). A server need not keep the connection: it may answer some and close it,
 * saying so in the last answer (`Connection: close`, or HTTP/1.0 without keep-alive; RFC 9112
 * §9.6); the requests it did not answer are then sent again one at a time (sendChain), as a
 * client that pipelines does (RFC 9112 §9.3.2: it retries unanswered requests when the
 * connection closes), and count as sent on a fresh connection. A close no answer announced drops
 * requests the server had received in the same write as one it answered: those resent carry
 * `pipelineDropped`. Bounded like sendChain: one deadline per answer.
 */
async function sendPipelined(origin: URL, requests: readonly RawRequest[], options: ChainOptions): Promise<RawOutcome[]> {
  const connection = new Connection(origin);
  const outcomes: RawOutcome[] = [];
  const oneAtATime = { ...options, pipelined: false };
  let broken: string | undefined;
  let dropped: string | undefined;
  let processedAfterClose: string | undefined;
  try {
    // One write: written one by one, the later requests would wait for the first one's ACK (Nagle's algorithm against a delayed ACK, ~40 ms).
    connection.write(...requests);
    for (const request of requests) {
      const outcome = await connection.read(request, options);
      // Closed before this answer began: the requests from here on were not answered, not answered wrongly. A server may close after any
      // answer that says so (Connection: close, or HTTP/1.0 without keep-alive: RFC 9112 §9.3, §9.6); one that closes without saying so
      // drops requests it had received, in the same write as one it answered.
      if (outcome.error !== undefined && !outcome.began && !outcome.timedOut && connection.closed) {
        if (!connection.announcedClose) dropped = `the connection closed after ${outcomes.length} answer${outcomes.length === 1 ? '' : 's'} to ${requests.length} requests written in one write, and no answer announced it (no Connection: close, RFC 9112 §9.6)`;
        break;
      }
      if (outcome.notJudged !== undefined) return [...outcomes, { ...outcome, fresh: outcomes.length === 0 }];
      if (outcome.error !== undefined) {
        broken = `request ${outcomes.length + 1} of ${requests.length}: ${outcome.error}`;
        break;
      }
      outcomes.push({ ...outcome, fresh: outcomes.length === 0 });
      // RFC 9112 §9.6: a client that reads an answer announcing the close reads nothing more on the connection (node:http past
      // maxRequestsPerSocket answers the rest of a pipelined batch 503 after such an answer); the rest goes again, one at a time.
      if (connection.announcedClose) {
        // RFC 9112 §9.6: after an answer with `close` the server MUST NOT process further requests on the connection. Whatever it writes
        // there before it closes (within CLOSE_WAIT_MS) is read for its status lines only: an answer other than 503 (what node:http past
        // maxRequestsPerSocket sends without running the request) shows it ran one of those requests.
        const rest = requests.length - outcomes.length;
        if (rest > 0) {
          await connection.closedWithin(CLOSE_WAIT_MS);
          const statuses = connection.statusLinesPending();
          if (statuses.some((status) => status !== 503)) processedAfterClose = `the answer to request ${outcomes.length} of ${requests.length} announced Connection: close, and ${statuses.length} answer${statuses.length === 1 ? '' : 's'} (${statuses.join(', ')}) followed on that connection to the ${rest} request${rest === 1 ? '' : 's'} written after it`;
        }
        break;
      }
    }
    if (broken === undefined && outcomes.length === requests.length && connection.pending > 0) broken = `${connection.pending} bytes arrived after the answer to the last request`;
  } finally {
    connection.destroy();
  }
  // Answers whose framing broke cannot be told apart (an earlier body may hold a later answer's bytes): every request goes again, one at a time, and those answers are judged.
  if (broken !== undefined) return (await sendChain(origin, requests, oneAtATime)).map((outcome) => ({ ...outcome, fresh: true, pipelineBroken: broken }));
  if (outcomes.length === requests.length) return outcomes;
  const resent = await sendChain(origin, requests.slice(outcomes.length), oneAtATime);
  return [...outcomes, ...resent.map((outcome) => ({ ...outcome, fresh: true, ...(dropped !== undefined ? { pipelineDropped: dropped } : {}), ...(processedAfterClose !== undefined ? { processedAfterClose } : {}) }))];
}

class Connection {
  private readonly socket: Socket;
  /**
   * What arrived and no answer took yet, kept as the chunks that came: joined only when read, so
   * that answers waiting behind the one being read (a pipelined batch, megabytes of them) are not
   * copied again with every chunk that arrives.
   */
  private chunks: Buffer[] = [];
  private size = 0;
  private waiting: (() => void) | undefined;
  closed = false;
  /** An answer said the connection ends after it: `Connection: close`, or HTTP/1.0 without keep-alive (RFC 9112 §9.3, §9.6). */
  announcedClose = false;
  /** Bytes were waiting on the connection before the request went out (they belong to no answer). */
  leftover = false;
  /** When the last answer on it was read (performance.now()), and how long the connection then sat idle before the latest request went out. */
  private answeredAt = Number.NEGATIVE_INFINITY;
  idleBefore = Number.POSITIVE_INFINITY;

  constructor(origin: URL) {
    const host = origin.hostname.replace(/^\[|\]$/g, '');
    // An https target gets TLS with the certificate checked, as node:https does for the rest of the run (http-client.ts).
    // node:tls (~4 ms of CPU on top of crypto) loads only then.
    this.socket = origin.protocol === 'https:' ? process.getBuiltinModule('node:tls').connect({ host, port: Number(origin.port || 443), ...(isIP(host) ? {} : { servername: host }) }) : connect(Number(origin.port || 80), host);
    this.socket.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.size += chunk.length;
      this.wake();
    });
    this.socket.on('error', () => {});
    this.socket.on('end', () => this.ended());
    this.socket.on('close', () => {
      this.closed = true;
      this.ended();
      this.wake();
    });
  }

  /** The server ended the connection (FIN or close), whatever an answer announced. */
  private serverEnded = false;
  private onEnd: (() => void) | undefined;

  private ended(): void {
    this.serverEnded = true;
    const resolve = this.onEnd;
    this.onEnd = undefined;
    resolve?.();
  }

  /**
   * The status codes of the answers in the bytes no answer took yet, one after another by their heads and Content-Length (read as
   * latin1: heads are ASCII); a 1xx is skipped, and an answer framed otherwise (chunked, to the close) is the last one counted.
   */
  statusLinesPending(): number[] {
    const text = Buffer.concat(this.chunks).toString('latin1');
    const statuses: number[] = [];
    for (let at = 0; at < text.length; ) {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text.slice(at, at + 16));
      const end = text.indexOf('\r\n\r\n', at);
      if (!status || end < 0) break;
      const code = Number(status[1]);
      if (code >= 200) statuses.push(code);
      const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(text.slice(at, end + 2));
      if (code >= 200 && !length && code !== 204 && code !== 304) break;
      at = end + 4 + (code >= 200 && length ? Number(length[1]) : 0);
    }
    return statuses;
  }

  /** Whether the server ends the connection within `ms` (at once if it already has). */
  closedWithin(ms: number): Promise<boolean> {
    if (this.serverEnded) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.onEnd = undefined;
        resolve(false);
      }, ms);
      this.onEnd = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  private get buffer(): Buffer {
    if (this.chunks.length !== 1) this.chunks = [Buffer.concat(this.chunks, this.size)];
    return this.chunks[0]!;
  }

  private set buffer(rest: Buffer) {
    this.chunks = [rest];
    this.size = rest.length;
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** Bytes read from the connection that no answer has taken yet. */
  get pending(): number {
    return this.size;
  }

  private wake(): void {
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve?.();
  }

  private more(deadline: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        resolve(false);
      }, Math.max(0, deadline - Date.now()));
      this.waiting = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  async exchange(request: RawRequest, options: ChainOptions): Promise<Omit<RawOutcome, 'fresh'>> {
    if (this.size > 0) {
      this.leftover = true;
      return { error: `${this.size} bytes arrived on the connection before this request was sent: the answer before it sent more than its framing announced (RFC 9112 §6.3), so they belong to no answer` };
    }
    this.idleBefore = performance.now() - this.answeredAt;
    this.write(request);
    const outcome = await this.read(request, options);
    this.answeredAt = performance.now();
    return outcome;
  }

  write(...requests: RawRequest[]): void {
    // The head's bytes are latin1 (a near-miss key's bytes as they are); content is UTF-8. One write either way.
    const parts = requests.flatMap((request) => [Buffer.from([`${request.method} ${request.target ?? request.path} HTTP/${request.version ?? '1.1'}`, ...request.headers.map(([name, value]) => `${name}: ${value}`)].join('\r\n') + '\r\n\r\n', 'latin1'), ...(request.body === undefined ? [] : [Buffer.from(request.body, 'utf8')])]);
    this.socket.write(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
  }

  /** The next answer on the connection, read by its framing as the answer to `request` (HEAD: no body). */
  async read(request: RawRequest, options: ChainOptions): Promise<Omit<RawOutcome, 'fresh'>> {
    const deadline = Date.now() + options.timeoutMs;
    const head = request.method === 'HEAD';
    const interim: number[] = [];
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        if (this.buffer.length > MAX_HEADER_BYTES) return { error: `the answer's status line and headers exceeded ${MAX_HEADER_BYTES} bytes`, began: true };
        if (!(await this.more(deadline))) return this.cut(deadline, this.size > 0);
        continue;
      }
      const text = this.buffer.subarray(0, end).toString('latin1');
      const [statusLine = '', ...fields] = text.split('\r\n');
      const status = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(statusLine);
      if (!status) return { error: `the bytes on the connection are not an HTTP answer (they begin ${JSON.stringify(statusLine.slice(0, 40))})` };
      const headers: Record<string, string> = {};
      for (const field of fields) {
        const colon = field.indexOf(':');
        if (colon <= 0) return { error: `a header line of the answer is not "name: value" (${JSON.stringify(field.slice(0, 40))})`, began: true };
        const name = field.slice(0, colon).trim().toLowerCase();
        const value = field.slice(colon + 1).trim();
        headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
      }
      this.buffer = this.buffer.subarray(end + 4);
      const code = Number(status[2]);
      // An interim answer (100 Continue, 103 Early Hints) comes before the one answer (RFC 9110 §15.2).
      if (code < 200) {
        // Kept for the judge: none may go to an HTTP/1.0 request (RFC 9110 §15.2).
        interim.push(code);
        continue;
      }
      // RFC 9112 §6.3: a 2xx to CONNECT makes the connection a tunnel right after the header section: no body, and no further answer on it.
      const tunnel = request.method === 'CONNECT' && code < 300;
      if (tunnel) this.closed = true;
      const body = head || tunnel || code === 204 || code === 304 ? { bytes: Buffer.alloc(0) } : await this.body(headers, deadline, options.maxBodyBytes);
      if ('error' in body) return { ...body, began: true, response: undefined };
      // The spec declares no size limit (decision no-declared-limits): a body over the suite's cap is not judged, never a defect; the connection is left.
      if ('overflow' in body) {
        this.closed = true;
        return { notJudged: `answered ${code} with a body over --max-body ${options.maxBodyBytes} bytes; reading stopped and nothing of it was judged (raise --max-body to judge such a body)` };
      }
      if (/\bclose\b/i.test(headers.connection ?? '')) this.closed = this.announcedClose = true;
      else if (status[1] === '0' && !/\bkeep-alive\b/i.test(headers.connection ?? '')) this.announcedClose = true;
      const decoded = decode(body.bytes, headers['content-encoding'], options.maxBodyBytes, options.text);
      if ('error' in decoded) return { error: decoded.error, began: true };
      return { response: { status: code, headers, body: decoded.text, ...(decoded.notUtf8 ? { notUtf8: true as const } : {}), ...(interim.length > 0 ? { interim } : {}) } };
    }
  }

  private cut(deadline: number, began: boolean): Omit<RawOutcome, 'fresh'> {
    // more() gives up for two reasons only: the connection closed, or the deadline passed (a timer may fire a millisecond before Date.now() says so).
    if (!this.closed || Date.now() >= deadline) return { error: 'no complete answer within --timeout on this connection', timedOut: true, began };
    return { error: began ? 'the connection closed in the middle of the answer' : 'the connection closed before an answer', began };
  }

  private async body(headers: Record<string, string>, deadline: number, max: number): Promise<{ bytes: Buffer } | { error: string; timedOut?: boolean } | { overflow: true }> {
    if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
      const chunks: Buffer[] = [];
      let size = 0;
      for (;;) {
        const line = this.buffer.indexOf('\r\n');
        if (line < 0) {
          if (!(await this.more(deadline))) return this.cut(deadline, true) as { error: string };
          continue;
        }
        const length = Number.parseInt(this.buffer.subarray(0, line).toString('latin1').split(';')[0]!, 16);
        if (!Number.isFinite(length) || length < 0) return { error: 'an impossible chunk size in a chunked body' };
        if (length === 0) {
          // The last chunk, then trailer fields up to an empty line (RFC 9112 §7.1.2).
          for (;;) {
            const done = this.buffer.indexOf('\r\n\r\n', line);
            const bare = this.buffer.subarray(line, line + 4).toString('latin1') === '\r\n\r\n';
            if (bare || done >= 0) {
              this.buffer = this.buffer.subarray((bare ? line : done) + 4);
              return { bytes: Buffer.concat(chunks) };
            }
            if (!(await this.more(deadline))) return this.cut(deadline, true) as { error: string };
          }
        }
        if (size + length > max) return { overflow: true };
        while (this.size < line + 2 + length + 2) if (!(await this.more(deadline))) return this.cut(deadline, true) as { error: string };
        chunks.push(this.buffer.subarray(line + 2, line + 2 + length));
        size += length;
        this.buffer = this.buffer.subarray(line + 2 + length + 2);
      }
    }
    const declared = headers['content-length'];
    if (declared !== undefined) {
      if (!/^\d+$/.test(declared)) return { error: `an invalid Content-Length (${JSON.stringify(declared.slice(0, 20))})` };
      const length = Number(declared);
      if (length > max) return { overflow: true };
      while (this.size < length) if (!(await this.more(deadline))) return this.cut(deadline, true) as { error: string };
      const bytes = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      return { bytes };
    }
    // Neither: the body ends where the connection does (RFC 9112 §6.3, item 8).
    while (!this.closed) {
      if (this.size > max) return { overflow: true };
      if (!(await this.more(deadline)) && !this.closed) return { error: 'no complete answer within --timeout on this connection', timedOut: true };
    }
    const bytes = this.buffer;
    this.buffer = Buffer.alloc(0);
    return { bytes };
  }
}

/** The body as text, its content coding undone (gzip, br, deflate: RFC 9110 §8.4.1; zstd: RFC 8878, which the variants' real clients list), the decoded size bounded too. */
function decode(bytes: Buffer, coding: string | undefined, max: number, text: (bytes: Buffer) => string = (b) => b.toString('utf8')): { text: string; notUtf8?: true } | { error: string } {
  const name = coding?.trim().toLowerCase();
  if (!name || name === 'identity' || bytes.length === 0) return { text: text(bytes), ...(isUtf8(bytes) ? {} : { notUtf8: true as const }) };
  try {
    const options = { maxOutputLength: max };
    // Taken when a body is coded: no run against a target that never codes one loads zlib (node:http does not), ~2-3 ms of CPU.
    const { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } = process.getBuiltinModule('node:zlib');
    const plain =
      name === 'gzip' || name === 'x-gzip'
        ? gunzipSync(bytes, options)
        : name === 'br'
          ? brotliDecompressSync(bytes, options)
          : name === 'deflate'
            ? inflateSync(bytes, options)
            : name === 'zstd'
              ? zstdDecompressSync(bytes, options)
              : undefined;
    if (!plain) return { error: `a body in a content coding the suite did not ask for (${name})` };
    return { text: text(plain), ...(isUtf8(plain) ? {} : { notUtf8: true as const }) };
  } catch (error) {
    return { error: `a ${name} body that does not decode (${(error as Error).message.split('\n')[0]})` };
  }
}
