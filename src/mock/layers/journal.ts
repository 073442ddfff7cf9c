import { decodePathParams, type Contract } from '../../contract/neutral.ts';
import { createResponseCheck } from '../core/self-check.ts';
import { requestPath } from '../core/request-path.ts';
import type { MockRequest, MockResponse } from '../core/types.ts';
import { authHeaderNames, keyPresent } from './request-facts.ts';
import { mapAnswer, type SessionHandle } from './layer.ts';

/** One request as the journal shows it. Never a header value: whether a key came, not the key. */
export interface JournalEntry {
  /** Increases by one per recorded request, across sessions. */
  seq: number;
  /** When the request arrived, ISO 8601 UTC. */
  time: string;
  method: string;
  /** The request target as received: path and query, still percent-encoded. */
  path: string;
  operationId: string | null;
  status: number;
  durationMs: number;
  session: string;
  keyPresent: boolean;
  /** The request routes to an operation, decodes its ids and carries the key header the spec requires. */
  requestMatchesSpec: boolean;
  /** The response keeps the spec (documented status, media type, body schema): what the self-check checks. */
  responseMatchesSpec: boolean;
}

export interface JournalFilter {
  session: string;
  operationId?: string;
  status?: number;
  /** Entries at or after this time (ms since the epoch). */
  since?: number;
}

export interface Journal {
  /** The most entries kept, across sessions; older ones are dropped first. */
  readonly capacity: number;
  list(filter: JournalFilter): JournalEntry[];
  /** Forgets the entries of one session. */
  clear(session: string): void;
}

/** What is kept per request: cheap to record, judged against the spec only when read. */
interface Recorded {
  seq: number;
  at: number;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  session: string;
  keyPresent: boolean;
  response: MockResponse;
  entry?: JournalEntry;
}

/** Entries the journal keeps by default, across sessions. */
export const DEFAULT_JOURNAL_SIZE = 1000;

export interface JournalOptions {
  contract: Contract;
  /** @default DEFAULT_JOURNAL_SIZE */
  capacity?: number;
  /** The clock, injectable to pin times. @default Date.now */
  now?: () => number;
}

/**
 * The request journal: a ring of the last `capacity` requests of every session, and the layer
 * that records them. Recording is a few field copies; operationId and the spec verdicts are
 * worked out when the journal is read, so the plain path never validates a body.
 */
export function createJournal(options: JournalOptions): { journal: Journal; layer: (next: SessionHandle) => SessionHandle } {
  const { contract, capacity = DEFAULT_JOURNAL_SIZE, now = Date.now } = options;
  const ring: (Recorded | undefined)[] = new Array(capacity);
  let seq = 0;
  const authHeaders = authHeaderNames(contract);
  const check = createResponseCheck(contract);

  const judge = (r: Recorded): JournalEntry => {
    const route = contract.matchRoute(r.method, requestPath(r.url));
    const operation = route.kind === 'operation' ? route.operation : undefined;
    return (r.entry ??= {
      seq: r.seq,
      time: new Date(r.at).toISOString(),
      method: r.method,
      path: r.url,
      operationId: operation?.operationId ?? null,
      status: r.status,
      durationMs: Math.round(r.durationMs * 1000) / 1000,
      session: r.session,
      keyPresent: r.keyPresent,
      requestMatchesSpec: operation !== undefined && (operation.authHeaders.length === 0 || r.keyPresent) && route.kind === 'operation' && decodePathParams(route.rawParams).ok,
      responseMatchesSpec: check(r, r.response).length === 0,
    });
  };

  const journal: Journal = {
    capacity,
    list(filter) {
      const entries: JournalEntry[] = [];
      for (let i = Math.max(0, seq - capacity); i < seq; i++) {
        const r = ring[i % capacity];
        if (!r || r.session !== filter.session) continue;
        if (filter.status !== undefined && r.status !== filter.status) continue;
        if (filter.since !== undefined && r.at < filter.since) continue;
        const entry = judge(r);
        if (filter.operationId !== undefined && entry.operationId !== filter.operationId) continue;
        entries.push(entry);
      }
      return entries;
    },
    clear(session) {
      for (let i = 0; i < capacity; i++) if (ring[i]?.session === session) ring[i] = undefined;
    },
  };

  const record = (request: MockRequest, session: string, at: number, started: number, response: MockResponse) => {
    ring[seq % capacity] = { seq: seq + 1, at, method: request.method, url: request.url, status: response.status, durationMs: performance.now() - started, session, keyPresent: keyPresent(request, authHeaders), response };
    seq++;
    return response;
  };

  const layer = (next: SessionHandle): SessionHandle => (request, session) => {
    const at = now();
    const started = performance.now();
    return mapAnswer(next(request, session), (response) => record(request, session.name, at, started, response));
  };
  return { journal, layer };
}
