import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { errorResponse, randomIds } from '../mock/core/errors.ts';
import { originForm } from '../mock/core/request-path.ts';
import { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';

/** What passed through: the response as the target sent it, its body kept up to the cap. */
export interface ForwardedExchange {
  method: string;
  /** The request target as the client sent it (origin form, query included). */
  target: string;
  /** The client's request headers, lower-case names; the key is among them and must go no further than the judge. */
  headers: IncomingHttpHeaders;
  /** When the request arrived (ms since the epoch) and how long until the last byte went out. */
  at: number;
  durationMs: number;
  response?: { status: number; headers: Record<string, string>; body: string };
  /** The status the target answered, also when its body was not kept. */
  status?: number;
  /** Why no complete answer came: the target could not be reached or dropped the connection. */
  transportError?: string;
  /** The answer came whole to the client, but its body is larger than the proxy keeps for judging. */
  notJudged?: string;
  /** The client went away before the answer was complete: nothing to judge. */
  clientGone?: boolean;
}

export interface ForwarderOptions {
  /** The target's base URL; a path in it prefixes every forwarded path. */
  target: URL;
  /** Body bytes of a response kept for the judge (the client still gets all of it). */
  maxJudgedBytes: number;
  /** Request body bytes forwarded at most (the mock's --max-body-bytes). */
  maxBodyBytes: number;
  /** Sockets to the target kept at most: the proxy never opens more than this. @default 64 */
  maxSockets?: number;
  /** Called once per request when its answer is complete or failed. */
  onExchange: (exchange: ForwardedExchange) => void;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1): about one connection, never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'expect']);

/**
 * Streams a request to the target and its answer back unchanged but for hop-by-hop headers
 * (and the CORS headers the proxy's own layer adds): bytes go out as they come, a copy of the
 * first `maxJudgedBytes` of the body is kept for the judge. The target's slowness is the
 * target's: no deadline is added, but a client that goes away takes its upstream request with it.
 * A target that cannot be reached is answered 502 with an error body saying so.
 */
export function createForwarder(options: ForwarderOptions): { forward: (req: IncomingMessage, res: ServerResponse, extraHeaders: Record<string, string>) => void; close: () => Promise<void> } {
  const { target, maxJudgedBytes, maxBodyBytes, onExchange } = options;
  // undici rather than node:http's client: about half the CPU per forwarded request (docs/proxy.md, Cost).
  // No timeouts of its own: the target's slowness is the target's.
  const agent = new Agent({ connections: options.maxSockets ?? 64, headersTimeout: 0, bodyTimeout: 0 });
  const prefix = target.pathname.replace(/\/+$/, '');

  const forward = (req: IncomingMessage, res: ServerResponse, extraHeaders: Record<string, string>) => {
    const at = Date.now();
    const started = performance.now();
    const path = originForm(req.url ?? '/');
    const exchange: ForwardedExchange = { method: req.method ?? 'GET', target: path, headers: req.headers, at, durationMs: 0 };
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      exchange.durationMs = performance.now() - started;
      onExchange(exchange);
    };
    const kept: Buffer[] = [];
    let size = 0;
    let overflow = false;
    let status = 0;
    let answerHeaders: Record<string, string> = {};
    let controller: Dispatcher.DispatchController | undefined;

    res.on('close', () => {
      if (res.writableFinished) return;
      exchange.clientGone = true;
      controller?.abort(new Error('the client went away'));
      finish();
    });
    const hasBody = req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined;
    agent.dispatch(
      {
        origin: target.origin,
        path: prefix + path,
        method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
        headers: endToEnd(req.headers) as Record<string, string | string[]>,
        body: hasBody ? Readable.from(cappedBody(req, maxBodyBytes)) : null,
      },
      {
        onRequestStart: (c) => {
          controller = c;
        },
        onResponseStart: (c, statusCode, headers) => {
          status = exchange.status = statusCode;
          answerHeaders = recordedHeaders(headers);
          if (!res.destroyed) res.writeHead(statusCode, { ...endToEnd(headers), ...extraHeaders } as OutgoingHttpHeaders);
          // Back-pressure: a slow client slows the read from the target, memory stays bounded.
          res.on('drain', () => c.resume());
        },
        onResponseData: (c, chunk) => {
          if (!overflow) {
            if (size + chunk.length > maxJudgedBytes) overflow = true;
            else {
              kept.push(chunk);
              size += chunk.length;
            }
          }
          if (!res.write(chunk)) c.pause();
        },
        onResponseEnd: () => {
          res.end();
          if (overflow) exchange.notJudged = `answered ${status} with a body over ${maxJudgedBytes} bytes, the most the proxy keeps for judging; the client got all of it, nothing of it was judged`;
          else exchange.response = { status, headers: answerHeaders, body: Buffer.concat(kept).toString('utf8') };
          finish();
        },
        onResponseError: (_, error) => {
          if (exchange.clientGone) return finish();
          exchange.transportError = describeUpstreamError(error as NodeJS.ErrnoException);
          if (!res.headersSent && !res.destroyed) {
            const refusal = errorResponse(502, 'ProxyTargetError', `flag-admin proxy could not get an answer from ${target.origin}: ${exchange.transportError}.`, randomIds, extraHeaders);
            res.writeHead(refusal.status, { ...refusal.headers, 'content-length': String(Buffer.byteLength(refusal.body ?? '')) });
            res.end(refusal.body);
          } else res.destroy();
          finish();
        },
      },
    );
  };

  return { forward, close: () => agent.destroy() };
}

/** The request body as it streams in, cut off past the cap (the mock's --max-body-bytes). */
async function* cappedBody(req: IncomingMessage, maxBodyBytes: number): AsyncGenerator<Buffer> {
  let sent = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    sent += chunk.length;
    if (sent > maxBodyBytes) throw new Error(`the request body is larger than ${maxBodyBytes} bytes`);
    yield chunk;
  }
}

/** The headers a proxy passes on: all but the hop-by-hop ones and those the Connection header names. */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((h) => h.trim());
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name) && !named.includes(name)) out[name] = value;
  return out;
}

/** Lower-case names, repeated headers joined with ", ": as the suite records a response. */
function recordedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

function describeUpstreamError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND' || error.code === 'EHOSTUNREACH' || error.code === 'EAI_AGAIN') return `the connection could not be made (${error.code})`;
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || error.code === 'UND_ERR_SOCKET' || error.code === 'UND_ERR_CLOSED') return 'the connection closed before a complete response';
  return error.message;
}
