import { Agent, request } from 'undici';
import type { Contract } from '../src/contract/index.ts';
import { keyPlaceholder } from './curl-line.ts';
import { redactKeys } from './redact.ts';
import type { Credential, Exchange, PlannedRequest } from './types.ts';

export interface SenderOptions {
  /** Origin and path prefix, without a trailing slash. */
  baseUrl: string;
  contract: Contract;
  keys: { full: string; restricted?: string; invalid: string };
  timeoutMs: number;
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

export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isConnectFailure(error: unknown): boolean {
  return CONNECT_FAILURES.has(errorCode(error) ?? '');
}

/**
 * Sends planned requests with undici and records what came back. The keys exist only here: the
 * recorded headers carry their placeholders, and every echo of a key in a response is redacted.
 */
export function createSender(options: SenderOptions): Sender {
  // An agent of our own, so that closing it releases every socket the run opened.
  const agent = new Agent();
  const secrets = [options.keys.full, options.keys.restricted ?? ''].filter(Boolean);
  const keyFor = (credential: Credential): string | undefined =>
    credential === 'full' ? options.keys.full : credential === 'restricted' ? options.keys.restricted : credential === 'invalid' ? options.keys.invalid : undefined;

  return {
    async send(planned, seq) {
      const operation = options.contract.operation(planned.operationId);
      const url = options.baseUrl + planned.path;
      // API §4.1, §4.2: the reads ask for JSON; harmless on the others.
      const headers: Record<string, string> = { accept: 'application/json' };
      const recorded: Record<string, string> = { ...headers };
      const key = keyFor(planned.credential);
      const header = operation.authHeaders[0];
      if (key !== undefined && header !== undefined) {
        headers[header] = key;
        recorded[header] = keyPlaceholder(planned.credential) ?? key;
      }
      const exchange: Exchange = { ...planned, seq, request: { method: planned.method, url, headers: recorded } };
      try {
        const response = await request(url, {
          dispatcher: agent,
          method: planned.method as 'GET',
          headers,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
        const body = await response.body.text();
        const responseHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) responseHeaders[name.toLowerCase()] = redactKeys(Array.isArray(value) ? value.join(', ') : value, secrets);
        }
        exchange.response = { status: response.statusCode, headers: responseHeaders, body: redactKeys(body, secrets) };
      } catch (error) {
        if (seq === 0 && isConnectFailure(error)) throw error;
        exchange.transportError = describeTransportError(error, options.timeoutMs);
      }
      return exchange;
    },
    async alive() {
      for (let attempt = 0; attempt < ALIVE_ATTEMPTS; attempt++) {
        try {
          const response = await request(`${new URL(options.baseUrl).origin}/`, { dispatcher: agent, method: 'GET', headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
          await response.body.dump();
          return true;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, ALIVE_PAUSE_MS));
        }
      }
      return false;
    },
    close: () => agent.close(),
  };
}

/** A stable description (no ports, no timings) so that reports stay byte-identical. */
function describeTransportError(error: unknown, timeoutMs: number): string {
  const code = errorCode(error) ?? 'unknown';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return `no complete response within ${timeoutMs} ms (${code})`;
  // One wording for all of them: which code a dropped connection surfaces as depends on timing.
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_CLOSED' || code === 'EPIPE') return 'the connection closed before a complete response';
  if (CONNECT_FAILURES.has(code)) return `the connection could not be made; the server may have crashed (${code})`;
  return `${code}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
}
