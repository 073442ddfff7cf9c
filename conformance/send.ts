import { Agent, request } from 'undici';
import type { Contract } from '../src/contract/index.ts';
import { keyPlaceholder } from './curl-line.ts';
import { KEY_VARIANTS } from './near-miss.ts';
import type { Credential, Exchange, PlannedRequest } from './types.ts';

export interface SenderOptions {
  /** Origin and path prefix, without a trailing slash. */
  baseUrl: string;
  contract: Contract;
  keys: { full: string; restricted: readonly string[]; invalid: string };
  /** The whole exchange, connect to last byte. */
  timeoutMs: number;
  /** Bytes of a response body read at most; a longer body is a finding, not read further. */
  maxBodyBytes: number;
}

export interface Sender {
  send(planned: PlannedRequest, seq: number): Promise<Exchange>;
  /** Whether the target still answers at all (any HTTP response to `GET /`), tried a few times. */
  alive(): Promise<boolean>;
  close(): Promise<void>;
}

/** After a dropped connection: how often, and how far apart, to ask whether the target still answers. */
const ALIVE_ATTEMPTS = 3;
const ALIVE_PAUSE_MS = 100;

/** undici error codes meaning no connection could be made at all. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Sends planned requests with undici and records exactly what came back: checks judge the
 * server's bytes, and redaction happens only when a report is rendered. The keys exist only
 * here and in that renderer: the recorded request headers carry their placeholders. Every
 * exchange is bounded: one deadline from connect to last byte, and at most maxBodyBytes read.
 */
export function createSender(options: SenderOptions): Sender {
  // An agent of our own, so that closing it releases every socket the run opened.
  const agent = new Agent();
  const keyFor = (credential: Credential, keyIndex = 0): string | undefined =>
    credential === 'full' ? options.keys.full : credential === 'restricted' ? options.keys.restricted[keyIndex] : credential === 'invalid' ? options.keys.invalid : undefined;

  return {
    async send(planned, seq) {
      const operation = options.contract.operation(planned.operationId);
      const url = options.baseUrl + planned.path;
      // API §4.1, §4.2: the reads ask for JSON; harmless on the others.
      const headers: Record<string, string> = { accept: 'application/json' };
      const recorded: Record<string, string> = { ...headers };
      const given = keyFor(planned.credential, planned.keyIndex);
      const key = given !== undefined && planned.keyVariant ? KEY_VARIANTS[planned.keyVariant].make(given) : given;
      const header = operation.authHeaders[0];
      if (key !== undefined && header !== undefined) {
        headers[header] = key;
        recorded[header] = keyPlaceholder(planned.credential, planned.keyVariant, planned.keyIndex) ?? key;
      }
      const exchange: Exchange = { ...planned, seq, request: { method: planned.method, url, headers: recorded } };
      const started = performance.now();
      const outcome = await fetchBounded(agent, url, { method: planned.method, headers }, options);
      exchange.elapsedMs = performance.now() - started;
      if ('error' in outcome) {
        const code = errorCode(outcome.error);
        if (code !== undefined) exchange.transportCode = code;
        if (outcome.deadline) exchange.timedOut = true;
        exchange.transportError = outcome.deadline ? deadlineMessage(options.timeoutMs) : describeTransportError(outcome.error);
      } else if (outcome.overflow) {
        // The spec declares no size limit (decision no-declared-limits): a body over the suite's own cap is not a defect, only not judged.
        exchange.notJudged = `answered ${outcome.status} with a body over --max-body ${options.maxBodyBytes} bytes; reading stopped and nothing of it was judged (raise --max-body to judge such a body)`;
      } else {
        exchange.response = { status: outcome.status, headers: outcome.headers, body: outcome.body };
      }
      return exchange;
    },
    async alive() {
      for (let attempt = 0; attempt < ALIVE_ATTEMPTS; attempt++) {
        const outcome = await fetchBounded(agent, `${new URL(options.baseUrl).origin}/`, { method: 'GET', headers: {} }, options);
        if (!('error' in outcome)) return true;
        // A silent target would hold each attempt for the whole deadline: one is enough to know.
        if (outcome.deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, ALIVE_PAUSE_MS));
      }
      return false;
    },
    close: () => agent.close(),
  };
}

type Fetched =
  | { error: unknown; deadline: boolean }
  | { status: number; headers: Record<string, string>; body: string; overflow: boolean };

/**
 * One request under a single deadline (connect, headers and every body byte: undici's own
 * timeouts are idle times, which a server dripping a byte a second never trips) and a body cap
 * (an endless body is read only up to it). Never throws.
 */
async function fetchBounded(agent: Agent, url: string, init: { method: string; headers: Record<string, string> }, options: { timeoutMs: number; maxBodyBytes: number }): Promise<Fetched> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const response = await request(url, { dispatcher: agent, method: init.method as 'GET', headers: init.headers, signal: controller.signal, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
    const chunks: Buffer[] = [];
    let size = 0;
    let overflow = false;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      if (size + chunk.length > options.maxBodyBytes) {
        overflow = true;
        break; // leaving the loop destroys the stream: nothing more is read
      }
      chunks.push(chunk);
      size += chunk.length;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: response.statusCode, headers, body: overflow ? '' : Buffer.concat(chunks).toString('utf8'), overflow };
  } catch (error) {
    return { error, deadline: controller.signal.aborted };
  } finally {
    clearTimeout(timer);
  }
}

function deadlineMessage(timeoutMs: number): string {
  return `no complete response within ${timeoutMs} ms (--timeout, connect to last byte)`;
}

/** A stable description (no ports, no timings) so that reports stay byte-identical. */
function describeTransportError(error: unknown): string {
  const code = errorCode(error) ?? 'unknown';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return `no complete response in time (${code})`;
  // One wording for all of them: which code a dropped connection surfaces as depends on timing.
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_CLOSED' || code === 'EPIPE') return 'the connection closed before a complete response';
  if (CONNECT_FAILURES.has(code)) return `the connection could not be made; the server may have crashed (${code})`;
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return 'the response headers exceeded the size undici accepts (UND_ERR_HEADERS_OVERFLOW)';
  return `${code}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
}
