import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { errorResponse, randomIds } from '../mock/core/errors.ts';
import { originForm } from '../mock/core/request-path.ts';
import { nodeHttp } from '../mock/adapters/node-connection-guards.ts';

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
  /** Why no complete answer came: the target could not be reached, dropped the connection, or sent more than the cap. */
  transportError?: string;
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
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

/**
 * Streams a request to the target and its answer back unchanged but for hop-by-hop headers
 * (and the CORS headers the proxy's own layer adds): bytes go out as they come, a copy of the
 * first `maxJudgedBytes` of the body is kept for the judge. The target's slowness is the
 * target's: no deadline is added, but a client that goes away takes its upstream request with it.
 * A target that cannot be reached is answered 502 with an error body saying so.
 */
export function createForwarder(options: ForwarderOptions): { forward: (req: IncomingMessage, res: ServerResponse, extraHeaders: Record<string, string>) => void; close: () => void } {
  const { target, maxJudgedBytes, maxBodyBytes, onExchange } = options;
  const module = target.protocol === 'https:' ? process.getBuiltinModule('node:https') : nodeHttp;
  const agent = new module.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
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

    const upstream = module.request({
      agent,
      protocol: target.protocol,
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port || undefined,
      method: req.method,
      path: prefix + path,
      headers: endToEnd(req.headers),
    });
    upstream.on('response', (answer) => {
      const headers = { ...endToEnd(answer.headers), ...extraHeaders } as OutgoingHttpHeaders;
      if (!res.destroyed) res.writeHead(answer.statusCode ?? 502, headers);
      const kept: Buffer[] = [];
      let size = 0;
      let overflow = false;
      answer.on('data', (chunk: Buffer) => {
        if (!overflow) {
          if (size + chunk.length > maxJudgedBytes) overflow = true;
          else {
            kept.push(chunk);
            size += chunk.length;
          }
        }
        // Back-pressure: a slow client slows the read from the target, memory stays bounded.
        if (!res.write(chunk)) {
          answer.pause();
          res.once('drain', () => answer.resume());
        }
      });
      answer.on('end', () => {
        res.end();
        const recorded = recordedHeaders(answer.headers);
        if (overflow) exchange.transportError = `answered ${answer.statusCode}, but the body exceeded ${maxJudgedBytes} bytes, the most the proxy keeps for judging; the client got all of it`;
        else exchange.response = { status: answer.statusCode ?? 0, headers: recorded, body: Buffer.concat(kept).toString('utf8') };
        finish();
      });
      answer.on('error', () => {
        exchange.transportError = 'the connection closed before a complete response';
        res.destroy();
        finish();
      });
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (exchange.clientGone) return finish();
      exchange.transportError = describeUpstreamError(error);
      if (!res.headersSent && !res.destroyed) {
        const refusal = errorResponse(502, 'ProxyTargetError', `flag-admin proxy could not get an answer from ${target.origin}: ${exchange.transportError}.`, randomIds, extraHeaders);
        res.writeHead(refusal.status, { ...refusal.headers, 'content-length': String(Buffer.byteLength(refusal.body ?? '')) });
        res.end(refusal.body);
      } else res.destroy();
      finish();
    });
    res.on('close', () => {
      if (!res.writableFinished) {
        exchange.clientGone = true;
        upstream.destroy();
        finish();
      }
    });

    // The request body streams through, cut off past the cap (the mock's --max-body-bytes).
    let sent = 0;
    req.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      if (sent > maxBodyBytes) {
        upstream.destroy(new Error(`the request body is larger than ${maxBodyBytes} bytes`));
        req.resume();
        return;
      }
      if (!upstream.write(chunk)) {
        req.pause();
        upstream.once('drain', () => req.resume());
      }
    });
    req.on('end', () => upstream.end());
  };

  return { forward, close: () => agent.destroy() };
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
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || error.message === 'socket hang up') return 'the connection closed before a complete response';
  return error.message;
}
