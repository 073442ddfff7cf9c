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
  /** The request target as received, still percent-encoded, less any userinfo and with path segments, query parts and a fragment that hold a key `<redacted>`. */
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
  /**
   * Whether the answer keeps the contract. On the proxy: the suite's checks judged the exchange
   * as it passed (findings below); on the mock: its own answer kept the spec (responseMatchesSpec).
   */
  verdict: EntryVerdict;
  /** On the proxy, what the checks found in this exchange, redacted as the suite's reports are. */
  findings?: readonly JournalFinding[];
  /** What else to know about the answer: why it was not judged (proxy), why a Prefer was refused or what forced the answer (mock). */
  note?: string;
}

/** `not judged`: the proxy judged nothing (a path outside the API, a body over what it keeps), and says why in `note`. */
export type EntryVerdict = 'conformant' | 'not conformant' | 'not judged';
export const ENTRY_VERDICTS: readonly EntryVerdict[] = ['conformant', 'not conformant', 'not judged'];

/**
 * A finding as the journal shows it: the suite's Finding (conformance/types.ts) with its
 * evidence, keys already replaced by placeholders and secrets redacted.
 */
export interface JournalFinding {
  checkId: string;
  severity: 'error' | 'warning';
  title: string;
  message: string;
  expected: string;
  got: string;
  schemaPointer?: string;
  instancePointer?: string;
  response?: { status: number; contentType?: string; excerpt: string };
  curl: string;
}

/** What a passive judge said about one recorded exchange (the proxy's). */
export interface Judged {
  verdict: EntryVerdict;
  findings: readonly JournalFinding[];
  /**
   * Whether the answer kept the spec (status, media type, body schema), as the judge's checks
   * found: the journal then keeps no body to work it out from (the proxy's bodies may be large;
   * issue 19, Cost).
   */
  responseMatchesSpec?: boolean;
  /** Why, when the verdict is `not judged`. */
  note?: string;
}

export interface JournalFilter {
  session: string;
  operationId?: string;
  status?: number;
  /** Entries at or after this time (ms since the epoch). */
  since?: number;
  verdict?: EntryVerdict;
}

export interface Journal {
  /** The most entries kept, across sessions; older ones are dropped first. */
  readonly capacity: number;
  list(filter: JournalFilter): JournalEntry[];
  /** Forgets the entries of one session. */
  clear(session: string): void;
  /** The seq the next recorded request gets (entries start at 1): what a finding about it cites. */
  nextSeq(): number;
  /** Records an exchange another component answered (the proxy), with what its judge said; `request.url` must already be fit to show (loggableTarget). */
  record(request: MockRequest, session: string, at: number, durationMs: number, response: MockResponse, judged?: Judged): void;
}

/** Entries the journal keeps by default, across sessions. */
export const DEFAULT_JOURNAL_SIZE = 1000;

export interface JournalOptions {
  contract: Contract;
  /** @default DEFAULT_JOURNAL_SIZE */
  capacity?: number;
  /** The clock, injectable to pin times. @default Date.now */
  now?: () => number;
  /**
   * The redactor of every output (conformance/report/secret-redactor.ts), asked when the journal
   * is read: every text of an entry (its path, its findings) goes through the one that knows all
   * secrets seen so far, so a key first seen later is redacted in earlier entries too.
   */
  redact?: () => (text: string) => string;
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
  const redactEntry = options.redact && ((entry: JournalEntry, redact: (text: string) => string): JournalEntry => ({ ...entry, path: redact(entry.path), ...(entry.findings ? { findings: entry.findings.map((f) => redactFinding(f, redact)) } : {}), ...(entry.note !== undefined ? { note: redact(entry.note) } : {}) }));
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
  // Only the proxy fills it: the mock's plain path stores one undefined per request.
  const verdicts: (Judged | undefined)[] = new Array(capacity).fill(undefined);
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
    const given = verdicts[slot];
    const responseMatchesSpec = given?.responseMatchesSpec ?? check({ method, url }, responses[slot]!).length === 0;
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
      responseMatchesSpec,
      verdict: given ? given.verdict : responseMatchesSpec ? 'conformant' : 'not conformant',
      ...(given && given.findings.length > 0 ? { findings: given.findings } : {}),
      ...((given?.note ?? responses[slot]?.note) !== undefined ? { note: given?.note ?? responses[slot]?.note } : {}),
    });
  };

  const journal: Journal = {
    capacity,
    list(filter) {
      const entries: JournalEntry[] = [];
      const redact = options.redact?.();
      for (let i = Math.max(0, seq - capacity); i < seq; i++) {
        const slot = i % capacity;
        if (seqs[slot] === 0 || sessionNames[slot] !== filter.session) continue;
        if (filter.status !== undefined && statuses[slot] !== filter.status) continue;
        if (filter.since !== undefined && ats[slot]! < filter.since) continue;
        const entry = judge(slot);
        if (filter.operationId !== undefined && entry.operationId !== filter.operationId) continue;
        if (filter.verdict !== undefined && entry.verdict !== filter.verdict) continue;
        entries.push(redact && redactEntry ? redactEntry(entry, redact) : entry);
      }
      return entries;
    },
    clear(session) {
      for (let slot = 0; slot < capacity; slot++) {
        if (seqs[slot] !== 0 && sessionNames[slot] === session) {
          seqs[slot] = 0;
          sessionNames[slot] = methods[slot] = urls[slot] = '';
          responses[slot] = judged[slot] = verdicts[slot] = undefined;
        }
      }
    },
    nextSeq: () => seq + 1,
    record(request, session, at, durationMs, response, verdict) {
      store(request, session, request.url, at, durationMs, response, verdict);
    },
  };

  const record = (request: MockRequest, session: Session, at: number, started: number, response: MockResponse): MockResponse => {
    // A journal that keeps nothing has no target to mask: the scan for keys is skipped with the entry.
    if (capacity === 0) return response;
    store(request, session.name, loggableTarget(request.url, session.store, authHeaders), at, performance.now() - started, response, undefined);
    return response;
  };

  /** `target`: the request target as the journal may show it (no key in it). */
  const store = (request: MockRequest, session: string, target: string, at: number, durationMs: number, response: MockResponse, verdict: Judged | undefined): void => {
    if (capacity === 0) return;
    const slot = seq % capacity;
    seq++;
    seqs[slot] = seq;
    ats[slot] = at;
    durations[slot] = durationMs;
    statuses[slot] = response.status;
    keys[slot] = keyPresent(request, authHeaders) ? 1 : 0;
    methods[slot] = request.method;
    urls[slot] = intern(target);
    sessionNames[slot] = session;
    // A judged exchange's verdicts say what its body would: the body is not kept.
    responses[slot] = verdict?.responseMatchesSpec === undefined ? response : undefined;
    judged[slot] = undefined;
    verdicts[slot] = verdict;
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

/** Every text of a finding that can quote the traffic, redacted. */
function redactFinding(finding: JournalFinding, redact: (text: string) => string): JournalFinding {
  return {
    ...finding,
    message: redact(finding.message),
    expected: redact(finding.expected),
    got: redact(finding.got),
    curl: redact(finding.curl),
    ...(finding.response ? { response: { ...finding.response, excerpt: redact(finding.response.excerpt), ...(finding.response.contentType !== undefined ? { contentType: redact(finding.response.contentType) } : {}) } } : {}),
  };
}
