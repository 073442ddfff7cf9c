// The client of the run's ordinary requests on plain sockets, parsed by Node's own llhttp: the HTTPParser that node:http drives
// (require('_http_common').HTTPParser, documented as deprecated for public use, DEP0199, with no warning and no flag on Node 22
// and 24), driven the way node:http's client drives it (lib/_http_client.js: socketOnData, parserOnIncomingClient, socketOnEnd,
// socketCloseListener, responseOnEnd; lib/_http_agent.js: the lifo pool, keepSocketAlive), so that every answer gets the same
// verdict, HPE_ code and reason as it did through node:http (llhttp-client.test.ts runs both clients on the red team's framing
// answers and asks for the same outcomes). Without node:http's per-request machinery (ClientRequest, IncomingMessage streams, the
// Agent's bookkeeping): measured on this machine, ~0.35 ms of CPU less per request (bench/RESULTS.md, "flag-admin check CPU").
// What it does not cover goes through node:http (http-client.ts): https targets, a request Node would refuse to write (a method or
// header that is not a token, a value with a character no field may hold), so that the same error is thrown, and one whose own
// fields node:http frames it or keeps its connection by (FRAMING_FIELDS).
import { isUtf8 } from 'node:buffer';
import { connect, type Socket } from 'node:net';
import { closesAfter, createHttpClient, DeadlineError, headerLines, isConnectionLoss, joinedHeaders, STALE_AFTER_IDLE_MS, type Fetched, type HttpClient } from './http-client.ts';

/** The part of Node's HTTPParser binding the client uses (src/node_http_parser.cc). */
interface Parser {
  initialize(type: number, resource: object, maxHeaderSize: number, lenientFlags: number): void;
  /** Bytes parsed, or llhttp's error (code HPE_*, reason, bytesParsed). */
  execute(data: Buffer): number | Error;
  finish(): unknown;
  close(): void;
  [callback: number]: unknown;
}

interface ParserClass {
  new (): Parser;
  RESPONSE: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
  kLenientNone: number;
}

interface HttpCommon {
  HTTPParser: ParserClass;
  prepareError(error: Error, parser: Parser, rawPacket: Buffer): void;
  _checkIsHttpToken(value: string): boolean;
  _checkInvalidHeaderChar(value: string): boolean;
}

/** Node's HTTP internals as node:http uses them, or undefined where this Node has no such module (then the run uses node:http). */
function httpCommon(): HttpCommon | undefined {
  // Should a later Node turn DEP0199 into a warning at load time, the run's output stays the suite's own: the module is taken
  // with deprecation warnings off for that one call (Node reads process.noDeprecation when it would emit one).
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  let common: Partial<HttpCommon> | undefined;
  try {
    common = (process.getBuiltinModule as (id: string) => Partial<HttpCommon> | undefined)('_http_common');
  } finally {
    process.noDeprecation = quiet;
  }
  const parser = common?.HTTPParser;
  return typeof parser === 'function' && typeof parser.kOnHeadersComplete === 'number' && typeof common?.prepareError === 'function' && typeof common._checkIsHttpToken === 'function' && typeof common._checkInvalidHeaderChar === 'function' ? (common as HttpCommon) : undefined;
}

/** Whether this Node gives the client its parser (else createLlhttpClient is node:http's client). */
export function llhttpAvailable(): boolean {
  return httpCommon() !== undefined;
}

/** node:http's check of a request path before anything is sent (lib/_http_client.js INVALID_PATH_REGEX). */
const INVALID_PATH = /[^\u0021-\u00ff]/;
/**
 * Fields of a request by which node:http frames it or keeps its connection (OutgoingMessage's matchHeader: a last chunk after
 * Transfer-Encoding: chunked, the keep-alive state after Connection, Expect, Trailer): a request that carries one of its own goes
 * through node:http. The suite's ordinary requests carry none (the variants that do go on raw sockets, send-chain.ts).
 */
const FRAMING_FIELDS = new Set(['connection', 'transfer-encoding', 'expect', 'trailer']);
/** The Agent's defaults that decide whether a connection is pooled (lib/_http_agent.js): maxFreeSockets, agentKeepAliveTimeoutBuffer, keepAliveMsecs. */
const MAX_FREE_SOCKETS = 256;
const KEEP_ALIVE_TIMEOUT_BUFFER_MS = 1000;
const KEEP_ALIVE_MSECS = 1000;

/** node:http's reading: a 1xx other than 101 is an interim answer; the answer follows on the same parser. */
const informational = (status: number) => status >= 100 && status < 200 && status !== 101;

/** Node's ConnResetException: an Error with code ECONNRESET ("socket hang up", "aborted"). */
const connReset = (message: string) => Object.assign(new Error(message), { code: 'ECONNRESET' });

/** One message the parser read (node:http's IncomingMessage, as far as the client looks at it). */
interface Incoming {
  status: number;
  rawHeaders: string[];
  upgrade: boolean;
  complete: boolean;
  /** A second answer to one request: its bytes go nowhere (node:http's kSkipPendingData). */
  skip: boolean;
}

/** The request on a connection, as node:http's socket listeners see it. */
interface Attached {
  data(chunk: Buffer): void;
  end(): void;
  close(): void;
  error(error: Error): void;
  /** socketOnData and socketOnEnd were removed (the answer was read whole, or the parser failed). */
  readDone: boolean;
}

class Connection {
  readonly socket: Socket;
  readonly parser: Parser;
  attached: Attached | undefined;
  /** When the pool last took it back (performance.now()). */
  freedAt = Number.NEGATIVE_INFINITY;

  constructor(ParserType: ParserClass, host: string, port: number, onClose: (connection: Connection) => void) {
    this.parser = new ParserType();
    // The Agent's connection options (noDelay true, keepAlive with keepAliveMsecs).
    this.socket = connect({ host, port, noDelay: true, keepAlive: true, keepAliveInitialDelay: KEEP_ALIVE_MSECS });
    this.socket.on('data', (chunk: Buffer) => {
      const attached = this.attached;
      if (attached) {
        if (!attached.readDone) attached.data(chunk);
      } else {
        // Bytes on an idle connection answer no request: the Agent's free-socket guard destroys it (Node 24's
        // installFreeSocketDataGuard), so that they are not read as the next request's answer.
        this.socket.destroy();
      }
    });
    this.socket.on('end', () => {
      const attached = this.attached;
      if (attached && !attached.readDone) attached.end();
    });
    this.socket.on('error', (error: Error) => {
      // Idle in the pool: the Agent's freeSocketErrorListener destroys it.
      if (this.attached) this.attached.error(error);
      else this.socket.destroy();
    });
    this.socket.on('close', () => {
      this.attached?.close();
      onClose(this);
      // After the stack that may be inside execute() has unwound, as node:http's freeParser closes a parser.
      setImmediate(() => this.parser.close());
    });
  }
}

/**
 * A client on kept-alive connections, the most recently freed reused first (the Agent's 'lifo'), with node:http's client's
 * semantics: see http-client.ts for what the suite asks of it (the stale-connection retry, `connection: close` never reused, one
 * deadline, the body cap, every header line kept).
 */
export function createLlhttpClient(options: { maxHeaderBytes: number }): HttpClient {
  const common = httpCommon();
  if (!common) return createHttpClient(options);
  const { HTTPParser, prepareError, _checkIsHttpToken: isToken, _checkInvalidHeaderChar: hasInvalidChar } = common;
  const kOnHeaders = HTTPParser.kOnHeaders;
  const kOnHeadersComplete = HTTPParser.kOnHeadersComplete;
  const kOnBody = HTTPParser.kOnBody;
  const kOnMessageComplete = HTTPParser.kOnMessageComplete;
  // Strict parsing whatever NODE_OPTIONS says (--insecure-http-parser): a framing defect is a finding.
  const lenientFlags = HTTPParser.kLenientNone;
  const resource = {};
  let nodeHttp: HttpClient | undefined;
  const viaNodeHttp = () => (nodeHttp ??= createHttpClient(options));
  /** Idle connections per host:port, the most recently freed last. */
  const pools = new Map<string, Connection[]>();
  const open = new Set<Connection>();
  let closedBytes = 0;

  const closed = (connection: Connection, key: string) => {
    closedBytes += connection.socket.bytesRead;
    open.delete(connection);
    const pool = pools.get(key);
    const at = pool?.indexOf(connection) ?? -1;
    if (at >= 0) {
      pool!.splice(at, 1);
      if (pool!.length === 0) pools.delete(key);
    }
  };

  /** The Agent's 'free' handler with keepSocketAlive: pooled, or destroyed. */
  const free = (connection: Connection, key: string, keepAlive: boolean, keepAliveHint: string | undefined) => {
    const { socket } = connection;
    if (!socket.writable || !keepAlive) {
      socket.destroy();
      return;
    }
    const pool = pools.get(key) ?? [];
    if (pool.length >= MAX_FREE_SOCKETS) {
      socket.destroy();
      return;
    }
    // keepSocketAlive's socket.setKeepAlive(true, keepAliveMsecs) is what the connection was opened with (Connection): not set again
    // on every answer (two setsockopt calls each time).
    socket.unref();
    // A server that announces a keep-alive timeout at or under the Agent's buffer (Keep-Alive: timeout=1) is not reused.
    const hint = keepAliveHint === undefined ? undefined : /^timeout=(\d+)/.exec(keepAliveHint)?.[1];
    if (hint !== undefined && Number.parseInt(hint) * 1000 - KEEP_ALIVE_TIMEOUT_BUFFER_MS <= 0) {
      socket.destroy();
      return;
    }
    connection.freedAt = performance.now();
    pool.push(connection);
    pools.set(key, pool);
  };

  /** A pooled connection (the Agent's addRequest: destroyed ones at the front dropped, then the last freed), or a new one. */
  const take = (key: string, host: string, port: number): { connection: Connection; reused: boolean } => {
    const pool = pools.get(key);
    if (pool) {
      while (pool.length > 0 && pool[0]!.socket.destroyed) pool.shift();
      const connection = pool.pop();
      if (pool.length === 0) pools.delete(key);
      if (connection) {
        connection.socket.ref();
        return { connection, reused: true };
      }
    }
    const connection = new Connection(HTTPParser, host, port, (c) => closed(c, key));
    open.add(connection);
    return { connection, reused: false };
  };

  return {
    request(url, init, limits, text) {
      return attempt(url, init, limits, text, false);
    },
    bytesRead: () => closedBytes + [...open].reduce((sum, connection) => sum + connection.socket.bytesRead, 0) + (nodeHttp?.bytesRead() ?? 0),
    async close() {
      for (const connection of open) connection.socket.destroy();
      await nodeHttp?.close();
    },
  };

  function attempt(url: string, init: Parameters<HttpClient['request']>[1], limits: Parameters<HttpClient['request']>[2], text: Parameters<HttpClient['request']>[3], retried: boolean): Promise<Fetched> {
    return new Promise<Fetched>((resolve) => {
      let head: { status: number; headers: Record<string, string> } | undefined;
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      let deadline = false;
      let connection: Connection | undefined;
      let reused = false;
      const settle = (outcome: Fetched) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      /** ClientRequest#destroy: the connection goes. */
      const destroy = () => connection?.socket.destroy();
      const fail = (error: unknown) => {
        // The idle-close race (http-client.ts): sent once more on another connection, only after a pause.
        const idle = connection ? performance.now() - connection.freedAt : 0;
        if (!retried && !settled && !deadline && head === undefined && reused && idle >= STALE_AFTER_IDLE_MS && isConnectionLoss(error)) {
          settled = true;
          clearTimeout(timer);
          destroy();
          resolve(attempt(url, init, limits, text, true));
          return;
        }
        settle({ error, deadline, ...(head ? { received: { ...head, body: Buffer.concat(chunks).toString('utf8') } } : {}) });
        destroy();
      };
      const timer = setTimeout(() => {
        deadline = true;
        fail(new DeadlineError());
      }, limits.timeoutMs);
      let target: URL;
      let method: string;
      let lines: string[];
      let path: string;
      try {
        // The URL as undici took it: parsed by WHATWG URL (dot segments, percent-encoding), then origin and path.
        target = new URL(url);
        method = init.method.toUpperCase();
        path = `${target.pathname}${target.search}`;
        lines = headerLines(target, method, init.headers);
      } catch (error) {
        fail(error);
        return;
      }
      let writable = target.protocol === 'http:' && isToken(method) && !INVALID_PATH.test(path) && !init.headers.some(([name]) => FRAMING_FIELDS.has(name.toLowerCase()));
      for (let i = 0; writable && i < lines.length; i += 2) writable = isToken(lines[i]!) && !hasInvalidChar(lines[i + 1]!);
      if (!writable) {
        // node:http throws its own error for it (or speaks TLS): the request goes that way.
        settled = true;
        clearTimeout(timer);
        resolve(viaNodeHttp().request(url, init, limits, text));
        return;
      }
      const host = target.hostname.replace(/^\[|\]$/g, '');
      const port = Number(target.port || 80);
      const key = `${host}:${port}`;
      ({ connection, reused } = take(key, host, port));
      const { socket, parser } = connection;

      // ClientRequest's state (lib/_http_client.js).
      let keepAlive = !closesAfter(method);
      let res: Incoming | undefined;
      let hadError = false;
      let parserAttached = true;
      let written = false;
      let ended = false;
      let requestDestroyed = false;
      // The answer as the 'response' listener saw it, and its stream: chunks pushed before the stream first flowed wait for it.
      let answer: Incoming | undefined;
      let flowing = false;
      const waiting: Buffer[] = [];
      let endPushed = false;
      let endEmitted = false;
      let aborted = false;
      let incoming: Incoming | null = null;
      let pendingHeaders: string[] = [];

      const deliver = (chunk: Buffer) => {
        if (settled) return;
        if (size + chunk.length > limits.maxBodyBytes) {
          // Over the cap: nothing more is read, the connection is dropped.
          settle({ ...head!, body: '', overflow: true });
          requestDestroyed = true;
          destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      };
      /** The answer's 'end', then responseOnEnd (which node:http runs first) and the client's own listener. */
      const emitEnd = () => {
        if (endEmitted || aborted) return;
        endEmitted = true;
        ended = true;
        if (!keepAlive) {
          if (socket.writable) socket.destroySoon();
        } else if (written) release();
        const bytes = Buffer.concat(chunks);
        settle({ ...head!, body: text(bytes), overflow: false, ...(isUtf8(bytes) ? {} : { notUtf8: true as const }) });
      };
      /** responseKeepAlive: the request lets go of the connection; the pool takes it on the next tick (emitFreeNT). */
      const release = () => {
        if (requestDestroyed) return;
        requestDestroyed = true;
        connection!.attached = undefined;
        const hint = head?.headers['keep-alive'];
        process.nextTick(() => free(connection!, key, keepAlive, hint));
      };
      const requestError = (error: unknown) => {
        // Bytes after a complete answer (a HEAD answered with a body, more than Content-Length) are parsed as the next answer and
        // fail; they belong to no answer, and this one stands, as node:http had it.
        if (answer?.complete) return;
        fail(error);
      };
      const detachRead = () => {
        attached.readDone = true;
      };
      const freeParser = () => {
        parserAttached = false;
      };

      parser.initialize(HTTPParser.RESPONSE, resource, options.maxHeaderBytes, lenientFlags);
      parser[kOnHeaders] = (headers: string[]) => {
        pendingHeaders = pendingHeaders.concat(headers);
      };
      parser[kOnHeadersComplete] = (_major: number, _minor: number, headers: string[] | undefined, _method: unknown, _url: unknown, statusCode: number, _statusMessage: unknown, upgrade: boolean, shouldKeepAlive: boolean): number => {
        if (headers === undefined) {
          headers = pendingHeaders;
          pendingHeaders = [];
        }
        incoming = { status: statusCode, rawHeaders: headers, upgrade, complete: false, skip: false };
        // parserOnIncomingClient.
        if (res) {
          // A second answer to one request: the connection goes, the first answer stands.
          socket.destroy();
          incoming = res;
          res.skip = true;
          return 0;
        }
        res = incoming;
        if (upgrade) return 2;
        if (method === 'CONNECT') {
          res.upgrade = true;
          return 2;
        }
        if (informational(statusCode)) {
          res = undefined;
          return 1;
        }
        if (keepAlive && !shouldKeepAlive) keepAlive = false;
        // The 'response' listener.
        answer = incoming;
        head = { status: statusCode, headers: joinedHeaders(headers) };
        const flowingAnswer = answer;
        // Its stream flows from the next tick on (Readable#resume).
        process.nextTick(() => {
          if (aborted) return;
          flowing = true;
          for (const chunk of waiting.splice(0)) deliver(chunk);
          if (endPushed && flowingAnswer.complete) process.nextTick(emitEnd);
        });
        if (method === 'HEAD') return 1;
        if (statusCode === 304) {
          incoming.complete = true;
          return 1;
        }
        return 0;
      };
      parser[kOnBody] = (buffer: Buffer, start?: number, length?: number) => {
        const chunk = typeof start === 'number' && typeof length === 'number' ? buffer.subarray(start, start + length) : buffer;
        if (incoming === null || incoming.skip || incoming !== answer || chunk.length === 0) return;
        if (flowing) deliver(chunk);
        else waiting.push(chunk);
      };
      parser[kOnMessageComplete] = () => {
        if (incoming === null || incoming.skip) return;
        incoming.complete = true;
        if (incoming === answer && !endPushed) {
          endPushed = true;
          if (flowing) process.nextTick(emitEnd);
        }
      };

      const attached: Attached = {
        readDone: false,
        // socketOnData.
        data(chunk) {
          const parsed = parser.execute(chunk);
          if (parsed instanceof Error) {
            prepareError(parsed, parser, chunk);
            freeParser();
            detachRead();
            socket.destroy();
            hadError = true;
            requestError(parsed);
          } else if (incoming?.upgrade) {
            res = incoming;
            detachRead();
            parser.finish();
            freeParser();
            // An upgrade nobody asked for: node:http has no handler for it and drops the connection.
            socket.destroy();
          } else if (incoming?.complete && !informational(incoming.status)) {
            detachRead();
            freeParser();
          }
        },
        // socketOnEnd.
        end() {
          if (!res && !hadError) {
            hadError = true;
            requestError(connReset('socket hang up'));
          }
          if (parserAttached) {
            parser.finish();
            freeParser();
          }
          socket.destroy();
        },
        // socketCloseListener.
        close() {
          requestDestroyed = true;
          if (res) {
            if (!res.complete && res === answer) {
              // IncomingMessage#destroy(new ConnResetException('aborted')): its 'error' on the next tick; what had not flowed is dropped.
              aborted = true;
              process.nextTick(() => requestError(connReset('aborted')));
            }
          } else if (!hadError) {
            hadError = true;
            requestError(connReset('socket hang up'));
          }
          if (parserAttached) {
            parser.finish();
            freeParser();
          }
        },
        // socketErrorListener.
        error(error) {
          hadError = true;
          requestError(error);
          if (parserAttached) {
            parser.finish();
            freeParser();
          }
          detachRead();
          socket.destroy();
        },
      };
      connection.attached = attached;

      let message = `${method} ${path} HTTP/1.1\r\n`;
      for (let i = 0; i < lines.length; i += 2) message += `${lines[i]}: ${lines[i + 1]}\r\n`;
      socket.write(`${message}\r\n`, 'latin1', () => {
        written = true;
        // requestOnFinish: the answer ended before the request was written out.
        if (keepAlive && ended && !requestDestroyed) release();
      });
    });
  }
}
