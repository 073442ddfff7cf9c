import { decodePathParams, type Contract } from '../../contract/neutral.ts';
import { createResponseCheck } from '../core/self-check.ts';
import { loggableTarget } from '../core/loggable-target.ts';
import { requestPath } from '../core/request-path.ts';
import type { MockRequest, MockResponse } from '../core/types.ts';
import { authHeaderNames, keyPresent } from './request-facts.ts';
import type { SessionHandle } from './layer.ts';
import type { Session } from './sessions.ts';

/** One request as the journal shows it. Never a header value: whether a key came, not the key. */
export interface JournalEntry {
  /** Increases by one per recorded request, across sessions. */
  seq: number;
  /** When the request arrived, ISO 8601 UTC. */
  time: string;
  method: string;
  /** The request target as received, still percent-encoded, less any userinfo and with query parts that hold a key `<redacted>`. */
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

/** Entries the journal keeps by default, across sessions. */
export const DEFAULT_JOURNAL_SIZE = 1000;

export interface JournalOptions {
  contract: Contract;
  /** @default DEFAULT_JOURNAL_SIZE */
  capacity?: number;
  /** The clock, injectable to pin times. @default Date.now */
  now?: () => number;
}

/** Interned request targets kept at most before the table starts over (it only saves memory). */
const MAX_INTERNED_URLS = 4096;

/**
 * The request journal: a ring of the last `capacity` requests of every session, and the layer
 * that records them. Recording is a few field copies; operationId and the spec verdicts are
 * worked out when the journal is read, so the plain path never validates a body.
 *
 * The ring is parallel arrays (typed arrays for the numbers), not an object per request: an
 * entry lives for `capacity` requests, long enough to be promoted to V8's old space, and one
 * object per request promoted made the heap V8 commits grow with the request rate (RSS +63%
 * over 1,000,000 requests, bench/RESULTS.md). Request targets are interned, so a run of
 * requests to one path keeps one string instead of one per request.
 */
export function createJournal(options: JournalOptions): { journal: Journal; layer: (next: SessionHandle) => SessionHandle } {
  const { contract, capacity = DEFAULT_JOURNAL_SIZE, now = Date.now } = options;
  // seq 0 marks an empty (or cleared) slot: recorded seqs start at 1.
  const seqs = new Float64Array(capacity);
  const ats = new Float64Array(capacity);
  const durations = new Float64Array(capacity);
  const statuses = new Uint16Array(capacity);
  const keys = new Uint8Array(capacity);
  const methods: string[] = new Array(capacity).fill('');
  const urls: string[] = new Array(capacity).fill('');
  const sessionNames: string[] = new Array(capacity).fill('');
  const responses: (MockResponse | undefined)[] = new Array(capacity).fill(undefined);
  const judged: (JournalEntry | undefined)[] = new Array(capacity).fill(undefined);
  const interned = new Map<string, string>();
  let seq = 0;
  const authHeaders = authHeaderNames(contract);
  const check = createResponseCheck(contract);

  const intern = (url: string): string => {
    const known = interned.get(url);
    if (known !== undefined) return known;
    if (interned.size >= MAX_INTERNED_URLS) interned.clear();
    interned.set(url, url);
    return url;
  };

  const judge = (slot: number): JournalEntry => {
    const cached = judged[slot];
    if (cached) return cached;
    const method = methods[slot]!;
    const url = urls[slot]!;
    const keyCame = keys[slot] === 1;
    const route = contract.matchRoute(method, requestPath(url));
    const operation = route.kind === 'operation' ? route.operation : undefined;
    return (judged[slot] = {
      seq: seqs[slot]!,
      time: new Date(ats[slot]!).toISOString(),
      method,
      path: url,
      operationId: operation?.operationId ?? null,
      status: statuses[slot]!,
      durationMs: Math.round(durations[slot]! * 1000) / 1000,
      session: sessionNames[slot]!,
      keyPresent: keyCame,
      requestMatchesSpec: route.kind === 'operation' && (route.operation.authHeaders.length === 0 || keyCame) && decodePathParams(route.rawParams).ok,
      responseMatchesSpec: check({ method, url }, responses[slot]!).length === 0,
    });
  };

  const journal: Journal = {
    capacity,
    list(filter) {
      const entries: JournalEntry[] = [];
      for (let i = Math.max(0, seq - capacity); i < seq; i++) {
        const slot = i % capacity;
        if (seqs[slot] === 0 || sessionNames[slot] !== filter.session) continue;
        if (filter.status !== undefined && statuses[slot] !== filter.status) continue;
        if (filter.since !== undefined && ats[slot]! < filter.since) continue;
        const entry = judge(slot);
        if (filter.operationId !== undefined && entry.operationId !== filter.operationId) continue;
        entries.push(entry);
      }
      return entries;
    },
    clear(session) {
      for (let slot = 0; slot < capacity; slot++) {
        if (seqs[slot] !== 0 && sessionNames[slot] === session) {
          seqs[slot] = 0;
          sessionNames[slot] = methods[slot] = urls[slot] = '';
          responses[slot] = judged[slot] = undefined;
        }
      }
    },
  };

  const record = (request: MockRequest, session: Session, at: number, started: number, response: MockResponse): MockResponse => {
    if (capacity === 0) return response;
    const slot = seq % capacity;
    seq++;
    seqs[slot] = seq;
    ats[slot] = at;
    durations[slot] = performance.now() - started;
    statuses[slot] = response.status;
    keys[slot] = keyPresent(request, authHeaders) ? 1 : 0;
    methods[slot] = request.method;
    urls[slot] = intern(loggableTarget(request.url, session.store, authHeaders));
    sessionNames[slot] = session.name;
    responses[slot] = response;
    judged[slot] = undefined;
    return response;
  };

  // No closure on the plain path: a synchronous answer is recorded at once.
  const layer = (next: SessionHandle): SessionHandle => (request, session) => {
    const at = now();
    const started = performance.now();
    const answer = next(request, session);
    if (answer instanceof Promise) return answer.then((response) => record(request, session, at, started, response));
    return record(request, session, at, started, answer);
  };
  return { journal, layer };
}
