import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { errorResponse, randomIds } from '../mock/core/errors.ts';
import { originForm } from '../mock/core/request-path.ts';
import type { MockResponse } from '../mock/core/types.ts';
import { ResponseParseError, ResponseParser } from './response-parser.ts';
import { UpstreamPool, type PooledSocket, type SocketUser } from './upstream-pool.ts';

/** What passed through: the response as the target sent it, its body kept up to the cap. */
export interface ForwardedExchange {
  method: string;
  /** The request target as the client sent it (origin form, query included). */
  target: string;
  /** The client's request headers, lower-case names; the key is among them and must go no further than the judge. */
  headers: IncomingHttpHeaders;
  /** The client's header lines as sent (node:http's rawHeaders: repeats kept, which `headers` drops for Authorization): every key they carry is learned. */
  rawHeaders: readonly string[];
  /** When the request arrived (ms since the epoch) and how long until the last byte went out. */
  at: number;
  durationMs: number;
  /** The answer as sent, whole: header names lower-case (repeats joined), the body's bytes still encoded (Content-Encoding). */
  answer?: { status: number; headers: Record<string, string>; bytes: Buffer };
  /** The status the client got: the target's, or the proxy's own (502, 504, 400). */
  status?: number;
  /** Why no complete answer came: the target could not be reached, said nothing in time, or dropped the connection. */
  transportError?: string;
  /** The answer came whole to the client, but its body is larger than the proxy keeps for judging. */
  notJudged?: string;
  /** The client went away before the answer was complete: nothing to judge. */
  clientGone?: boolean;
  /** The proxy refused the request itself (a client's mistake); the backend never saw it: nothing to judge. */
  refused?: MockResponse;
}

export interface ForwarderOptions {
  /** The target's base URL; a path in it prefixes every forwarded path. */
  target: URL;
  /** Body bytes of a response kept for the judge, encoded and decoded alike (the client still gets all of it). */
  maxJudgedBytes: number;
  /** Request body bytes forwarded at most (--max-body-bytes; the proxy sets none unless asked): a larger one gets the client a 413. */
  maxBodyBytes: number;
  /**
   * Sockets to the target at most. Each client connection has at most one request in flight, so
   * with this at the proxy's own --max-connections no request ever waits for a socket that
   * requests the target never answers hold. @default 1000
   */
  maxSockets?: number;
  /** How long the target may stay silent: before its answer's head, and between two pieces of its body. @default 30000 */
  targetTimeoutMs?: number;
  /** Called once per request when its answer is complete or failed, after its last byte went out. */
  onExchange: (exchange: ForwardedExchange) => void;
}

export const DEFAULT_TARGET_TIMEOUT_MS = 30_000;

/**
 * Hop-by-hop header fields (RFC 9110 §7.6.1), about one connection, never forwarded; `Host` is the
 * target's (RFC 9110 §7.2). `Expect` goes on (RFC 9110 §10.1.1: the backend meets or refuses it; the
 * proxy's server leaves it to the backend, start-proxy.ts), but for an HTTP/1.0 client's.
 * `Trailer` is end-to-end (RFC 9110 §6.6.2): it is forwarded, and so are the trailer fields it names.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'transfer-encoding', 'upgrade', 'host']);

/** `100-continue` among an Expect field's expectations (RFC 9110 §10.1.1, case-insensitive), as node:http's server reads it. */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/**
 * The largest header section the proxy reads from the target: node:http's 16 KiB default refuses
 * what real backends send behind CDNs (a long Content-Security-Policy, many Set-Cookie); curl takes
 * 100 KiB a field. A larger one gets the client a 502 that says so.
 */
export const MAX_TARGET_HEADER_BYTES = 256 * 1024;

/**
 * The largest request header section the proxy reads from a client: as large as it reads from the
 * backend, so that the backend, not the proxy, refuses what it finds too large (browsers with many
 * cookies send over node:http's 16 KiB default; Go's servers take 1 MiB, nginx 32 KiB).
 */
export const MAX_CLIENT_HEADER_BYTES = 256 * 1024;

/** node:http's flat raw trailer list as the [name, value] pairs addTrailers() takes, names as sent. */
function trailerPairs(raw: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

/**
 * Streams a request to the target and its answer back as the target sent it: status, reason,
 * header lines (case, order and repeats kept) but for hop-by-hop ones, body bytes as they come.
 * What the proxy adds is on its own routes, or the CORS headers `extraHeaders` carries when the
 * user asked for them. A copy of the body, up to `maxJudgedBytes`, is kept and handed on
 * (`onExchange`) after the client got its last byte.
 *
 * 1xx answers (RFC 9110 §15.2) are handed on to HTTP/1.1 clients as sent, whatever their code; a
 * 100 only to a client whose Expect asked for one (the field went on: the backend meets or refuses it).
 *
 * A target that says nothing for `targetTimeoutMs` gets the client a 504 in the API's error shape
 * (a body that stalls as long: the connection is cut, as the answer cannot be completed); one that
 * cannot be reached, a 502. A client that goes away takes its upstream request with it.
 */
export function createForwarder(options: ForwarderOptions): { forward: (req: IncomingMessage, res: ServerResponse, extraHeaders: Record<string, string>) => void; close: () => Promise<void> } {
  const { target, maxJudgedBytes, maxBodyBytes, onExchange } = options;
  const timeoutMs = options.targetTimeoutMs ?? DEFAULT_TARGET_TIMEOUT_MS;
  const pool = new UpstreamPool(target, { maxSockets: options.maxSockets ?? 1000, maxIdle: 64 });
  const prefix = target.pathname.replace(/\/+$/, '');
  // Judgements waiting for their turn (each after its answer's last byte went out): close() waits for them, so a stop
  // that comes between an answer and its judgement (a SIGTERM right after a 504) still reports it.
  let pending = 0;
  let drained: (() => void) | undefined;
  const judgeLater = (exchange: ForwardedExchange) => {
    pending++;
    setImmediate(() => {
      try {
        onExchange(exchange);
      } finally {
        if (--pending === 0) drained?.();
      }
    });
  };

  const forward = (req: IncomingMessage, res: ServerResponse, extraHeaders: Record<string, string>) => {
    const at = Date.now();
    const started = performance.now();
    const path = originForm(req.url ?? '/');
    const exchange: ForwardedExchange = { method: req.method ?? 'GET', target: path, headers: req.headers, rawHeaders: req.rawHeaders, at, durationMs: 0 };
    let done = false;
    // Judged after the last byte went out (Node flushes a response on the next tick), beside the path.
    const finish = () => {
      if (done) return;
      done = true;
      exchange.durationMs = performance.now() - started;
      judgeLater(exchange);
    };
    const answerOwn = (answer: MockResponse) => {
      exchange.status = answer.status;
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(answer.status, { ...answer.headers, ...extraHeaders, 'content-length': String(Buffer.byteLength(answer.body ?? '')) });
        res.end(answer.body);
      } else res.destroy();
      finish();
    };

    if (prefix !== '' && leavesPrefix(path)) {
      req.resume();
      exchange.refused = errorResponse(400, 'ProxyPathError', `flag-admin proxy forwards only under the target's path ${prefix}/, and this request path has dot segments ("..", also percent-encoded or with ";params", as some backends read them) that would leave it (RFC 3986 §5.2.4).`, randomIds);
      return answerOwn(exchange.refused);
    }

    // A declared body over the cap is refused before anything goes on (a streamed one is cut where it passes the cap, below).
    if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) {
      req.resume();
      res.shouldKeepAlive = false;
      exchange.refused = errorResponse(413, 'PayloadTooLargeError', `The request body is larger than ${maxBodyBytes} bytes (--max-body-bytes).`, randomIds);
      return answerOwn(exchange.refused);
    }
    const hasBody = req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined;
    // A body of unknown length goes on chunked, whatever the method (RFC 9112 §6.1, §7.1).
    const chunked = hasBody && req.headers['content-length'] === undefined;
    // The request's head in one write: its lines as the client sent them (latin1: the bytes as received), the target's Host.
    // An HTTP/1.0 client's 100-continue is ignored (RFC 9110 §10.1.1: it cannot take a 100, and sends its body at once), so
    // it does not go on in the HTTP/1.1 request, where the backend would heed it.
    const http10 = req.httpVersionMajor === 1 && req.httpVersionMinor === 0;
    const head = `${req.method} ${prefix}${path} HTTP/1.1\r\n${requestLines(req.rawHeaders, target.host, http10)}${chunked ? 'Transfer-Encoding: chunked\r\n' : ''}\r\n`;
    // The client waits for a 100 before its body (RFC 9110 §10.1.1): the backend's is handed on, once.
    let awaitsContinue = !http10 && CONTINUE.test(req.headers.expect ?? '');

    let pooled: PooledSocket | undefined;
    let requestSent = false;
    let timer: NodeJS.Timeout;
    let answered = false;
    // The connection goes back to the pool only after a complete answer to a request sent whole, and nothing after it.
    const letGo = (reusable: boolean) => {
      const held = pooled;
      pooled = undefined;
      if (!held) return;
      if (reusable && requestSent && parser.keepAlive && !parser.excess) pool.release(held);
      else pool.destroy(held);
    };
    const fail = (reason: string, status: 502 | 504) => {
      if (done) return;
      exchange.transportError = reason;
      clearTimeout(timer);
      letGo(false);
      if (waiting) pool.cancel(waiting);
      const name = status === 504 ? 'ProxyTargetTimeout' : 'ProxyTargetError';
      answerOwn(errorResponse(status, name, `flag-admin proxy could not get an answer from ${target.origin}: ${reason}.`, randomIds));
    };
    // The answer broke after its head went out: the client's answer cannot be completed, its connection is cut.
    const broken = (reason: string) => {
      if (done) return;
      exchange.transportError ??= reason;
      clearTimeout(timer);
      letGo(false);
      res.destroy();
      finish();
    };
    timer = setTimeout(() => (res.headersSent ? broken(`its answer stopped for ${timeoutMs} ms before the end of the body (--target-timeout)`) : fail(`it said nothing for ${timeoutMs} ms (--target-timeout)`, 504)), timeoutMs);

    const kept: Buffer[] = [];
    let size = 0;
    let overflow = false;
    let status = 0;
    let recorded: Record<string, string> | undefined;
    const resume = () => pooled?.socket.resume();
    // The latest piece of the body, written when the read that brought it is parsed (or with the end).
    let held: Buffer | undefined;
    const writeOut = (chunk: Buffer) => {
      // Back-pressure: a slow client slows the read from the target, memory stays bounded.
      if (!res.write(chunk) && pooled) {
        pooled.socket.pause();
        res.once('drain', resume);
      }
    };
    const parser = new ResponseParser(
      {
        information: (info) => {
          timer.refresh();
          // No 1xx to an HTTP/1.0 client (RFC 9110 §15.2), none after the final head; a 100 only to a client that asked for one
          // (an unasked 100 is dropped: RFC 9110 §15.2.1 has clients ignore it, and undici's drop the connection on it).
          if (res.headersSent || req.httpVersionMinor < 1) return;
          if (info.status === 100) {
            if (!awaitsContinue) return;
            awaitsContinue = false;
          }
          // Written as the backend sent it, on the client's socket: node:http's writeEarlyHints joins repeated Link lines into
          // one and has no writer for other codes, where RFC 9110 §15.2 has a proxy forward every 1xx it did not ask for, and
          // docs/proxy.md promises header lines as sent. The socket is this response's only while it is the one being answered
          // (node:http assigns it so, in order, to pipelined responses); otherwise the 1xx is dropped, as a client must allow.
          const socket = res.socket;
          if (socket === null || socket.destroyed || !socket.writable) return;
          socket.write(`HTTP/1.1 ${info.status} ${info.reason}\r\n${fieldLines(endToEnd(info.rawHeaders))}\r\n`, 'latin1');
          // node:http closes a connection whose client expected a 100 it never saw (writeHead: `_expect_continue && !_sent100`,
          // the client may still send its body); it saw this one, as res.writeContinue() would have marked it.
          if (info.status === 100) (res as ServerResponse & { _sent100?: boolean })._sent100 = true;
        },
        head: (answer) => {
          answered = true;
          status = answer.status;
          exchange.status = status;
          timer.refresh();
          recorded = recordedHeaders(answer.rawHeaders);
          // A client on HTTP/1.0 cannot take chunked framing, so no trailer section: the Trailer field that announces one is left out with
          // the trailers (RFC 9110 §6.5.1: a recipient may discard them; node:http refuses the field without chunking).
          const lines = oneFraming(endToEnd(answer.rawHeaders), answer.rawHeaders);
          const raw = req.httpVersion === '1.0' ? withoutTrailerField(lines) : lines;
          if (!res.destroyed) res.writeHead(status, answer.reason, Object.keys(extraHeaders).length ? withExtra(raw, extraHeaders) : raw);
        },
        body: (chunk) => {
          if (!overflow) {
            if (size + chunk.length > maxJudgedBytes) {
              overflow = true;
              kept.length = 0;
            } else {
              kept.push(chunk);
              size += chunk.length;
            }
          }
          if (held) writeOut(held);
          held = chunk;
        },
        end: (rawTrailers) => {
          clearTimeout(timer);
          if (done) return;
          // Trailer fields after a chunked body (RFC 9112 §7.1.2) go on as sent; a client on HTTP/1.0 (no chunking) gets none.
          if (rawTrailers.length > 0 && !res.destroyed && req.httpVersion !== '1.0') res.addTrailers(trailerPairs(rawTrailers));
          // The last piece goes out with the end: one write to the client for an answer that came in one read.
          const last = held;
          held = undefined;
          res.end(last);
          if (overflow) exchange.notJudged = `answered ${status} with a body over ${maxJudgedBytes} bytes, the most the proxy keeps for judging; the client got all of it, nothing of it was judged`;
          else exchange.answer = { status, headers: recorded!, bytes: kept.length === 1 ? kept[0]! : Buffer.concat(kept, size) };
          finish();
        },
      },
      { headRequest: req.method === 'HEAD', maxHeaderBytes: MAX_TARGET_HEADER_BYTES },
    );

    const user: SocketUser = {
      data: (chunk) => {
        timer.refresh();
        try {
          parser.feed(chunk);
          if (held) {
            const piece = held;
            held = undefined;
            writeOut(piece);
          }
        } catch (error) {
          const reason = error instanceof ResponseParseError ? (error.code === 'HEADER_OVERFLOW' ? error.message : `its answer is not valid HTTP/1.1: ${error.message}`) : String(error);
          if (answered) broken(reason);
          else fail(reason, 502);
        }
        // Bytes after a complete answer (a backend that writes past its Content-Length): the answer stands, the connection goes.
        if (parser.complete) letGo(true);
      },
      closed: () => {
        if (done && !pooled) return;
        if (parser.closed()) {
          letGo(false);
          return;
        }
        if (answered) broken('the connection closed before a complete response');
        else fail('the connection closed before a complete response', 502);
      },
      error: (error) => {
        // After the answer went out whole (or the client left) nothing is left to fail: the client's connection stays.
        if (done || parser.complete) return letGo(false);
        if (!answered) return fail(describeUpstreamError(error), 502);
        broken(describeUpstreamError(error));
      },
      drain: () => req.resume(),
    };

    res.on('close', () => {
      if (res.writableFinished || done) return;
      exchange.clientGone = true;
      clearTimeout(timer);
      if (waiting) pool.cancel(waiting);
      letGo(false);
      finish();
    });

    let waiting: ((held: PooledSocket) => void) | undefined = (held) => {
      waiting = undefined;
      if (done) return pool.release(held);
      pooled = held;
      send(held);
    };
    const send = (held: PooledSocket) => {
      const socket = held.socket;
      if (!hasBody) {
        socket.write(head, 'latin1');
        requestSent = true;
        return;
      }
      socket.write(head, 'latin1');
      let sent = 0;
      req.on('data', (chunk: Buffer) => {
        if (pooled !== held) return;
        sent += chunk.length;
        if (sent > maxBodyBytes) {
          req.removeAllListeners('data');
          req.resume();
          exchange.refused = errorResponse(413, 'PayloadTooLarge', `The request body is larger than ${maxBodyBytes} bytes.`, randomIds);
          clearTimeout(timer);
          letGo(false);
          return answerOwn(exchange.refused);
        }
        const more = chunked ? socket.write(`${chunk.length.toString(16)}\r\n`) && socket.write(chunk) && socket.write('\r\n') : socket.write(chunk);
        if (!more) req.pause();
      });
      req.on('end', () => {
        if (pooled !== held) return;
        // A chunked request body's last chunk, and its trailer fields as the client sent them (RFC 9112 §7.1.2).
        if (chunked) socket.write(`0\r\n${fieldLines(req.rawTrailers)}\r\n`, 'latin1');
        requestSent = true;
        if (parser.complete) letGo(true);
      });
    };
    pool.acquire(user, waiting);
  };

  return {
    forward,
    close: async () => {
      pool.close();
      if (pending > 0) await new Promise<void>((resolve) => (drained = resolve));
    },
  };
}

/**
 * Whether the dot segments of a request path would take it above the target's path prefix
 * (RFC 3986 §5.2.4 remove_dot_segments), read as loosely as some backend reads them: `%2e` as a
 * dot, `%2f`, `%5c` and `\` as slashes, `%25` decoded again (backends that decode twice), and a
 * segment's `;params` (also `%3b`) left out, as servlet containers (Tomcat, Jetty) read `..;x` as
 * `..`: the well-known `..;/` traversal past a reverse proxy. The path itself is forwarded as
 * sent, or refused.
 */
export function leavesPrefix(path: string): boolean {
  const query = path.indexOf('?');
  let loose = query < 0 ? path : path.slice(0, query);
  // Every reading of a dot segment holds a `.` or a percent-encoded one: the common path has neither.
  if (!loose.includes('.') && !loose.includes('%')) return false;
  for (let round = 0; round < 3 && loose.includes('%'); round++) loose = loose.replace(/%25/gi, '%').replace(/%2e/gi, '.').replace(/%2f|%5c/gi, '/').replace(/%3b/gi, ';');
  loose = loose.replace(/\\/g, '/');
  if (!loose.includes('..')) return false;
  let depth = 0;
  const segments = loose.split('/');
  for (let i = 1; i < segments.length; i++) {
    const raw = segments[i]!;
    const params = raw.indexOf(';');
    const segment = params < 0 ? raw : raw.slice(0, params);
    if (segment === '..') {
      if (--depth < 0) return true;
    } else if (segment !== '.') depth++;
  }
  return false;
}

/**
 * The answer's lines with the one framing the proxy read the body by, so the client cannot find a
 * different message boundary than the parser did (response splitting, RFC 9112 §11.1). With a
 * Transfer-Encoding the Content-Length is removed: RFC 9112 §6.3 (3) lets an intermediary forward
 * such a message if it "first remove[s] the received Content-Length field", and a 502 would refuse
 * what every browser reads (Transfer-Encoding overrides) for no gain: the client gets the decoded
 * body re-framed by Node (chunked, or to the close for HTTP/1.0). Repeated Content-Length lines of
 * one value (`3, 3`, or two lines: §6.3 (5) lets a recipient take them as one) go on as one line
 * of that value; different values never get here (the parser answers 502). Without a
 * Transfer-Encoding, a Content-Length on a HEAD, 204 or 304 answer is kept: it frames nothing there
 * (§6.3 (1)), for the parser as for the client.
 */
function oneFraming(lines: string[], received: readonly string[]): string[] {
  let transferEncoding = false;
  let contentLengths = 0;
  let listed = false;
  for (let i = 0; i < received.length; i += 2) {
    const name = received[i]!;
    if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') transferEncoding = true;
    else if (name.length === 14 && name.toLowerCase() === 'content-length') {
      contentLengths++;
      if (received[i + 1]!.includes(',')) listed = true;
    }
  }
  if (contentLengths === 0 || (!transferEncoding && contentLengths === 1 && !listed)) return lines;
  const out: string[] = [];
  let kept = false;
  for (let i = 0; i < lines.length; i += 2) {
    const name = lines[i]!;
    if (name.length === 14 && name.toLowerCase() === 'content-length') {
      if (transferEncoding || kept) continue;
      kept = true;
      out.push(name, lines[i + 1]!.split(',')[0]!.trim());
    } else out.push(name, lines[i + 1]!);
  }
  return out;
}

/**
 * The request's field lines as they go on: the client's end-to-end lines as sent (case, order,
 * repeats), the target's Host (RFC 9110 §7.2) where the client's first Host line stood, in its case
 * (RFC 9112 §3.2: user agents send it first, and some backends read it so), or first when the client
 * sent none (HTTP/1.0). An HTTP/1.0 client's `100-continue` is left out (RFC 9110 §10.1.1: it is ignored).
 */
function requestLines(raw: readonly string[], host: string, http10: boolean): string {
  let named: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'connection') (named ??= []).push(...raw[i + 1]!.toLowerCase().split(',').map((h) => h.trim()));
  let lines = '';
  let hostSent = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name === 'host') {
      if (!hostSent) lines += `${raw[i]}: ${host}\r\n`;
      hostSent = true;
    } else if (!HOP_BY_HOP.has(name) && !named?.includes(name) && !(http10 && name === 'expect' && CONTINUE.test(raw[i + 1]!))) lines += `${raw[i]}: ${raw[i + 1]}\r\n`;
  }
  return hostSent ? lines : `Host: ${host}\r\n${lines}`;
}

/** Raw header lines without the Trailer field. */
function withoutTrailerField(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== 'trailer') out.push(raw[i]!, raw[i + 1]!);
  return out;
}

/** The header lines a proxy passes on (raw: case, order, repeats): all but the hop-by-hop ones and those Connection names. */
function endToEnd(raw: string[]): string[] {
  let named: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'connection') (named ??= []).push(...raw[i + 1]!.toLowerCase().split(',').map((h) => h.trim()));
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named?.includes(name)) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** Each [name, value] pair as a field line (RFC 9112 §5). */
function fieldLines(raw: readonly string[]): string {
  let lines = '';
  for (let i = 0; i < raw.length; i += 2) lines += `${raw[i]}: ${raw[i + 1]}\r\n`;
  return lines;
}

/** `extra` (the CORS headers the user asked the proxy to add) in place of the target's lines of the same names. */
function withExtra(raw: string[], extra: Record<string, string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!(raw[i]!.toLowerCase() in extra)) out.push(raw[i]!, raw[i + 1]!);
  for (const [name, value] of Object.entries(extra)) out.push(name, value);
  return out;
}

/**
 * Fields of which node:http keeps the first line only when a message repeats them (its
 * IncomingMessage.headers): the judge reads an answer's headers as the suite records them, so too.
 */
const FIRST_ONLY = new Set(['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent']);

/** Lower-case names, repeated headers joined with ", ": as the suite records a response. */
function recordedHeaders(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const known = out[name];
    if (known === undefined) out[name] = raw[i + 1]!;
    else if (!FIRST_ONLY.has(name)) out[name] = `${known}, ${raw[i + 1]!}`;
  }
  return out;
}

function describeUpstreamError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND' || error.code === 'EHOSTUNREACH' || error.code === 'EAI_AGAIN') return `the connection could not be made (${error.code})`;
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return 'the connection closed before a complete response';
  return error.message;
}
