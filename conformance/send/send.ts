import type { Fetched, HttpClient } from './http-client.ts';
import { createLlhttpClient } from './llhttp-client.ts';
import type { Contract } from '../../src/contract/index.ts';
import { keyPlaceholder } from '../report/curl-line.ts';
import { nearMissValue } from '../plan/near-miss/key-near-misses.ts';
import type { Credential, Exchange, PlannedRequest } from '../types.ts';
import { SUITE_USER_AGENT, VARIANT_KIND, spellPath } from '../plan/variants/variant-kinds.ts';
import { MAX_HEADER_BYTES, sendChain, type RawRequest } from './send-chain.ts';
import { AnswersSeen } from './answers-seen.ts';

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
  /** Sends requests one after another on one kept-alive connection (invariance variants): seq numbers from firstSeq on; stops after one that ran into the deadline. */
  sendChain(chain: readonly PlannedRequest[], firstSeq: number): Promise<Exchange[]>;
  /** Whether the target still answers at all (any HTTP response to `GET /`), tried a few times. */
  alive(): Promise<boolean>;
  close(): Promise<void>;
}

/** After a dropped connection: how often, and how far apart, to ask whether the target still answers. */
const ALIVE_ATTEMPTS = 3;
const ALIVE_PAUSE_MS = 100;

/**
 * Failures that mean an HTTP response had begun: a status line (and more) was read before the
 * answer broke a limit. So do llhttp's parse errors (Node's HPE_* codes), except those about the
 * status line itself, which say the bytes were not HTTP at all (a TLS port, another protocol);
 * those are told by llhttp's reason, as several codes (INVALID_CONSTANT among them) occur elsewhere
 * too. Issue 13, item 9: exit 3 ("cannot reach") only when no response began; a response that
 * breaks a limit is a finding.
 */
const HEADER_OVERFLOW = 'HPE_HEADER_OVERFLOW';
const STATUS_LINE_REASON = /Expected HTTP\/|Expected dot|Invalid (major |minor |HTTP )?version|after version|Invalid (response )?status|after response line|Invalid method/;

/** llhttp's reason for a parse error (Node puts it in `reason`), or undefined for any other error. */
function parseReason(error: unknown): string | undefined {
  const code = errorCode(error);
  const reason = (error as { reason?: unknown }).reason;
  return code?.startsWith('HPE_') ? (typeof reason === 'string' ? reason : code) : undefined;
}

function notHttp(error: unknown): boolean {
  const reason = parseReason(error);
  return reason !== undefined && errorCode(error) !== HEADER_OVERFLOW && STATUS_LINE_REASON.test(reason);
}

function responseBegan(error: unknown): boolean {
  return parseReason(error) !== undefined && !notHttp(error);
}

/** The header section the suite reads at most: its limit for both its clients (send-chain.ts). */
const HEADER_LIMIT_KIB = MAX_HEADER_BYTES / 1024;

/** Error codes meaning no connection could be made at all. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Sends planned requests (llhttp on plain sockets, llhttp-client.ts) and records exactly what came back: checks judge the
 * server's bytes, and redaction happens only when a report is rendered. The keys exist only
 * here and in that renderer: the recorded request headers carry their placeholders. Every
 * exchange is bounded: one deadline from connect to last byte, and at most maxBodyBytes read.
 */
export function createSender(options: SenderOptions): Sender {
  // A client of our own, so that closing it releases every socket the run opened. It counts the
  // bytes its sockets read: a status line that arrived and then stalled is a response that began,
  // which the errors alone cannot tell from silence (issue 13, item 9).
  const client = createLlhttpClient({ maxHeaderBytes: MAX_HEADER_BYTES });
  let inFlight = 0;
  const bodies = createBodyTexts();
  // What the target handed out (validators, cookies), for the variants that send it back.
  const seen = new AnswersSeen();
  // The first bytes the target answers a GET / with, read once per run when the parser refuses an answer's status line.
  let firstBytes: Promise<string | undefined> | undefined;
  const keyFor = (credential: Credential, keyIndex = 0): string | undefined =>
    credential === 'full' ? options.keys.full : credential === 'restricted' ? options.keys.restricted[keyIndex] : credential === 'invalid' ? options.keys.invalid : undefined;

  return {
    async send(planned, seq) {
      const { url, recordedUrl, headers, recorded } = wireRequest(planned, options, keyFor, seen);
      const exchange: Exchange = { ...planned, seq, request: { method: planned.method, url: recordedUrl, headers: recorded } };
      const started = performance.now();
      const bytesBefore = client.bytesRead();
      inFlight++;
      const alone = inFlight === 1;
      const outcome = await fetchBounded(client, url, { method: planned.method, headers: Object.entries(Object.fromEntries(headers)) }, options, bodies).finally(() => inFlight--);
      exchange.elapsedMs = performance.now() - started;
      // Bytes are the run's, not the request's: they are its own only when no other request was in flight.
      const bytesArrived = alone && inFlight === 0 ? client.bytesRead() - bytesBefore : 0;
      if ('error' in outcome) {
        const code = errorCode(outcome.error);
        if (code !== undefined) exchange.transportCode = code;
        if (outcome.deadline) exchange.timedOut = true;
        const why = outcome.deadline ? deadlineMessage(options.timeoutMs) : describeTransportError(outcome.error);
        if (outcome.received) {
          exchange.received = outcome.received;
          exchange.transportError = `${receivedSoFar(outcome.received)}, then ${why}`;
        } else if (outcome.deadline && bytesArrived > 0) {
          exchange.transportError = `a response began (${bytesArrived} bytes arrived), but no complete status line and headers followed within ${options.timeoutMs} ms (--timeout, connect to last byte)`;
        } else exchange.transportError = why;
        if (outcome.received || responseBegan(outcome.error) || (outcome.deadline && bytesArrived > 0)) exchange.responseBegan = true;
        else if (notHttp(outcome.error)) {
          // The parser refused the status line: an HTTP server that frames its answers wrongly (lines ending in LF alone, RFC 9112 §2.2)
          // is a defect to report with its bytes, not an unreachable target (exit 3). Its first bytes to a GET / tell the two apart.
          const head = await (firstBytes ??= rawAnswerHead(options.baseUrl, Math.min(options.timeoutMs, RAW_PROBE_MS)));
          if (head !== undefined && /^HTTP\/\d/.test(head)) {
            exchange.responseBegan = true;
            exchange.transportError = `${why}: the server speaks HTTP but frames its answers so that an HTTP/1.1 parser refuses them (RFC 9112 §2.1, §2.2: every line ends in CRLF); its answer to GET / began ${JSON.stringify(head)}`;
          } else exchange.notHttp = true;
        }
      } else if (outcome.overflow) {
        // The spec declares no size limit (decision no-declared-limits): a body over the suite's own cap is not a defect, only not judged.
        exchange.notJudged = `answered ${outcome.status} with a body over --max-body ${options.maxBodyBytes} bytes; reading stopped and nothing of it was judged (raise --max-body to judge such a body)`;
      } else {
        exchange.response = { status: outcome.status, headers: outcome.headers, body: outcome.body, ...(outcome.notUtf8 ? { notUtf8: true as const } : {}) };
        seen.learn(planned.path, exchange.response);
      }
      return exchange;
    },
    async alive() {
      for (let attempt = 0; attempt < ALIVE_ATTEMPTS; attempt++) {
        const bytesBefore = client.bytesRead();
        const outcome = await fetchBounded(client, `${new URL(options.baseUrl).origin}/`, { method: 'GET', headers: [] }, options, bodies);
        // An answer that began and then broke a limit is an answer: the target is up.
        if (!('error' in outcome) || outcome.received || responseBegan(outcome.error)) return true;
        // An answer the parser refuses from a server that speaks HTTP (send above): up, and framing its answers wrongly.
        if (notHttp(outcome.error) && /^HTTP\/\d/.test((await (firstBytes ??= rawAnswerHead(options.baseUrl, Math.min(options.timeoutMs, RAW_PROBE_MS)))) ?? '')) return true;
        if (outcome.deadline && !notHttp(outcome.error) && client.bytesRead() > bytesBefore) return true;
        // A silent target would hold each attempt for the whole deadline: one is enough to know.
        if (outcome.deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, ALIVE_PAUSE_MS));
      }
      return false;
    },
    async sendChain(chain, firstSeq) {
      const wire = chain.map((planned) => wireRequest(planned, options, keyFor, seen));
      const origin = new URL(options.baseUrl);
      const outcomes = await sendChain(origin, wire.map((w, i) => rawRequest(chain[i]!, w, origin, options.baseUrl)), { timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes, text: (bytes) => bodies.text(bytes), pipelined: chain.some((planned) => planned.variant?.pipelined === true) });
      return chain.slice(0, outcomes.length).map((planned, i): Exchange => {
        const outcome = outcomes[i]!;
        const target = serverWideTarget(planned, options.baseUrl);
        const exchange: Exchange = { ...planned, seq: firstSeq + i, request: { method: planned.method, url: wire[i]!.recordedUrl, headers: wire[i]!.recorded, ...(wire[i]!.body !== undefined ? { body: wire[i]!.body } : {}), ...(target !== undefined ? { target } : {}) } };
        if (planned.variant) exchange.variant = { ...planned.variant, fresh: outcome.fresh, ...(outcome.closed !== undefined ? { closed: outcome.closed } : {}), ...(outcome.pipelineBroken !== undefined ? { pipelineBroken: outcome.pipelineBroken } : {}), ...(outcome.pipelineDropped !== undefined ? { pipelineDropped: outcome.pipelineDropped } : {}), ...(outcome.processedAfterClose !== undefined ? { processedAfterClose: outcome.processedAfterClose } : {}) };
        if (outcome.response) {
          exchange.response = outcome.response;
          seen.learn(planned.path, outcome.response);
        }
        else if (outcome.notJudged !== undefined) exchange.notJudged = outcome.notJudged;
        else {
          exchange.transportError = outcome.error ?? 'no answer';
          if (outcome.timedOut) exchange.timedOut = true;
          if (outcome.began) exchange.responseBegan = true;
        }
        return exchange;
      });
    },
    close: () => client.close(),
  };
}

/** How long the raw look at an answer the parser refused may take, at most. */
const RAW_PROBE_MS = 1000;
/** How much of that answer is read and quoted: the status line and the first header lines. */
const RAW_PROBE_BYTES = 160;

/**
 * The first bytes of the target's answer to `GET /` (latin1), read from a plain socket with no
 * parser in the way; undefined when none came within `ms` or the target is https (node:tls
 * would be needed for a look the parser's reason already gives most of). Bounded in time and size.
 */
function rawAnswerHead(baseUrl: string, ms: number): Promise<string | undefined> {
  const origin = new URL(baseUrl);
  if (origin.protocol !== 'http:') return Promise.resolve(undefined);
  const { connect } = process.getBuiltinModule('node:net');
  return new Promise((resolve) => {
    const socket = connect(Number(origin.port || 80), origin.hostname.replace(/^\[|\]$/g, ''));
    let got = Buffer.alloc(0);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(got.length === 0 ? undefined : got.subarray(0, RAW_PROBE_BYTES).toString('latin1'));
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= RAW_PROBE_BYTES) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(`GET ${origin.pathname.replace(/\/$/, '')}/ HTTP/1.1\r\nHost: ${origin.host}\r\nConnection: close\r\n\r\n`);
  });
}

/** The port a base URL names, or its scheme's default. */
function portOf(baseUrl: string): string {
  const origin = new URL(baseUrl);
  return origin.port || (origin.protocol === 'https:' ? '443' : '80');
}

/**
 * A planned request as its bytes go on the wire (send-chain.ts): the base URL's path before the
 * request's, and what a wire variant changes in the message itself (variant-kinds.ts WireForm):
 * the absolute form of the target, the HTTP version, no Host or two Host lines.
 */
function rawRequest(planned: PlannedRequest, wire: { url: string; headers: [string, string][]; body?: string }, origin: URL, baseUrl: string): RawRequest {
  const form = planned.variant ? VARIANT_KIND.get(planned.variant.kind)?.wire : undefined;
  const path = origin.pathname.replace(/\/$/, '') + wire.url.slice(baseUrl.length);
  const hostLines = form?.hostLines?.[planned.variant?.alternative ?? 0];
  const headers = hostFirst(origin.host, wire.headers);
  const lines = hostLines === 0 ? headers.slice(1) : hostLines === 2 ? [headers[0]!, headers[0]!, ...headers.slice(1)] : headers;
  // A framing of no content (kind bodyless-framing): its fields are among the headers (wireRequest), its bytes follow the head.
  const framing = form?.framings?.[planned.variant?.alternative ?? 0];
  return {
    method: planned.method,
    path,
    headers: lines,
    ...(form?.absoluteForm ? { target: `${origin.protocol}//${origin.host}${path}` } : {}),
    ...(serverWideTarget(planned, baseUrl) !== undefined ? { target: serverWideTarget(planned, baseUrl)! } : {}),
    ...(form?.version !== undefined ? { version: form.version } : {}),
    ...(wire.body !== undefined ? { body: wire.body } : framing !== undefined ? { body: framing.bytes } : {}),
  };
}

/** RFC 9112 §3.2.4 and §3.2.3: the asterisk form names the server, the authority form the host and port a CONNECT is for (the port always given); undefined for a request to a path. */
function serverWideTarget(planned: PlannedRequest, baseUrl: string): string | undefined {
  const form = planned.variant ? VARIANT_KIND.get(planned.variant.kind)?.wire?.target : undefined;
  if (form === 'asterisk') return '*';
  return form === 'authority' ? `${new URL(baseUrl).hostname}:${portOf(baseUrl)}` : undefined;
}

/** The request's header lines with Host first: the base URL's, or the one a variant names instead (kind host-names). */
function hostFirst(own: string, headers: readonly [string, string][]): [string, string][] {
  const named = headers.find(([name]) => name.toLowerCase() === 'host');
  return named ? [named, ...headers.filter((h) => h !== named)] : [['host', own], ...headers];
}

/**
 * The request as it goes on the wire: the suite's own headers (Accept as API §4.1 and §4.2 ask,
 * a User-Agent), the key where the step puts it, then what an invariance variant changes
 * (conformance/plan/variants/variant-kinds.ts). The recorded copy carries placeholders for keys.
 */
function wireRequest(planned: PlannedRequest, options: SenderOptions, keyFor: (credential: Credential, keyIndex?: number) => string | undefined, seen: AnswersSeen): { url: string; recordedUrl: string; headers: [string, string][]; recorded: Record<string, string>; body?: string } {
  const operation = options.contract.operation(planned.operationId);
  const spec = planned.variant ? VARIANT_KIND.get(planned.variant.kind) : undefined;
  // A path spelled otherwise (kind path-spellings) goes on the wire and in the report so; the model judges the plain path it stands for.
  const spelling = spec?.wire?.spellings?.[planned.variant?.alternative ?? 0];
  let url = options.baseUrl + (spelling ? spellPath(planned.path, spelling) : planned.path);
  let recordedUrl = url;
  const headers: [string, string][] = [['accept', 'application/json'], ['user-agent', SUITE_USER_AGENT]];
  const recorded: [string, string][] = [...headers];
  const given = keyFor(planned.credential, planned.keyIndex);
  const nearMiss = planned.keyVariant;
  const header = operation.authHeaders[0];
  if (given !== undefined && header !== undefined) {
    const key = nearMiss ? nearMissValue(given, nearMiss) : given;
    const placeholder = keyPlaceholder(planned.credential, nearMiss, planned.keyIndex) ?? key;
    const where = nearMiss?.placement ?? { in: 'header' };
    if (where.in === 'header') {
      const name = planned.variant?.authName ?? header;
      const twice = spec?.wire?.authorizationTwice?.[planned.variant?.alternative ?? 0];
      if (twice !== undefined) {
        // Two lines (RFC 9110 §5.3: one list): the second is spelled in another case so that the recorded headers, an object, keep both.
        const other = name === name.toLowerCase() ? name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase()) : name.toLowerCase();
        const invalid: [[string, string], [string, string]] = [[name, options.keys.invalid], [name, keyPlaceholder('invalid') ?? '']];
        const full: [[string, string], [string, string]] = [[other, key], [other, placeholder]];
        const [first, second] = twice === 'invalid-first' ? [invalid, full] : [full, invalid];
        headers.push(first[0], second[0]);
        recorded.push(first[1], second[1]);
      } else {
        // A scheme before the key (kind auth-scheme-case), spelled as the variant's turn says.
        const scheme = spec?.authSchemes?.[planned.variant?.alternative ?? 0];
        headers.push([name, scheme === undefined ? key : `${scheme} ${key}`]);
        recorded.push([name, scheme === undefined ? placeholder : `${scheme} ${placeholder}`]);
      }
    } else if (where.in === 'cookie') {
      headers.push(['cookie', `${where.name}=${key}`]);
      recorded.push(['cookie', `${where.name}=${placeholder}`]);
    } else {
      const separator = url.includes('?') ? '&' : '?';
      url += `${separator}${encodeURIComponent(where.name)}=${encodeURIComponent(key)}`;
      recordedUrl += `${separator}${encodeURIComponent(where.name)}=${placeholder}`;
    }
  }
  if (spec) {
    if (spec.emptyAuth && header !== undefined && given === undefined) {
      headers.push([header, '']);
      recorded.push([header, '']);
    }
    // The full key in headers other than Authorization (keyIn), recorded with its placeholder; another operation's path as the server sees it (namesPath).
    const keyed = given === undefined && spec.keyIn ? spec.keyIn.map((name): [string, string] => [name, options.keys.full]) : [];
    const keyedRecorded = keyed.map(([name]): [string, string] => [name, keyPlaceholder('full') ?? '']);
    const named = spec.namesPath && planned.variant?.namedPath !== undefined ? spec.namesPath.map((name): [string, string] => [name, new URL(options.baseUrl).pathname.replace(/\/$/, '') + planned.variant!.namedPath]) : [];
    const framing = spec.wire?.framings?.[planned.variant?.alternative ?? 0]?.headers.map(([name, value]): [string, string] => [name, value]) ?? [];
    const learned = [...(spec.fromAnswers?.(planned.path, seen) ?? []), ...(spec.fromOrigin?.(new URL(options.baseUrl).origin) ?? []), ...named, ...framing];
    const dropped = new Set([...(spec.omit ?? []), ...(spec.add ?? []).map(([name]) => name), ...(spec.alternatives ?? []).flat().map(([name]) => name), ...learned.map(([name]) => name)]);
    const keep = ([name]: [string, string]) => !dropped.has(name.toLowerCase());
    const alternative = spec.alternatives?.[planned.variant?.alternative ?? 0] ?? [];
    // Host is header text only (the connection still goes to the base URL): the sender puts it first, in place of the base URL's.
    const host: [string, string][] = spec.hostNames
      ? [['host', spec.hostNames[planned.variant?.alternative ?? 0]!(portOf(options.baseUrl))]]
      : spec.hostSpellings
        ? [['host', spec.hostSpellings[planned.variant?.alternative ?? 0]!.host(new URL(options.baseUrl))]]
        : [];
    const added = [...(spec.add ?? []).map(([name, value]): [string, string] => [name, typeof value === 'string' ? value : value(operation.method)]), ...alternative, ...learned, ...host];
    headers.splice(0, headers.length, ...headers.filter(keep), ...added, ...keyed);
    recorded.splice(0, recorded.length, ...recorded.filter(keep), ...added, ...keyedRecorded);
  }
  return { url, recordedUrl, headers, recorded: Object.fromEntries(recorded), ...(spec?.content !== undefined ? { body: spec.content } : {}) };
}

/**
 * One request under a single deadline (connect, headers and every body byte: a server dripping a
 * byte a second never gets past it) and a body cap (an endless body is read only up to it).
 * Never throws.
 */
function fetchBounded(client: HttpClient, url: string, init: { method: string; headers: readonly (readonly [string, string])[] }, options: { timeoutMs: number; maxBodyBytes: number }, bodies: BodyTexts): Promise<Fetched> {
  return client.request(url, init, options, (bytes) => bodies.text(bytes));
}

type Received = NonNullable<Exchange['received']>;

/** What arrived before the answer broke off, e.g. `answered 200 with Content-Length 1000 and sent 16 bytes of the body`. */
function receivedSoFar(received: Received): string {
  // Only what the suite can state in its own words: the coverage table repeats this text unredacted.
  const length = received.headers['content-length'];
  const encoding = received.headers['transfer-encoding'];
  const framing = length !== undefined && /^\d+$/.test(length) ? ` with Content-Length ${length}` : encoding !== undefined ? ` with Transfer-Encoding ${/chunked/i.test(encoding) ? 'chunked' : '(not chunked)'}` : '';
  return `answered ${received.status}${framing} and sent ${Buffer.byteLength(received.body)} bytes of the body`;
}

function deadlineMessage(timeoutMs: number): string {
  return `no complete response within ${timeoutMs} ms (--timeout, connect to last byte)`;
}

/** A stable description (no ports, no timings) so that reports stay byte-identical. */
function describeTransportError(error: unknown): string {
  const code = errorCode(error) ?? 'unknown';
  // One wording for all of them: which code a dropped connection surfaces as depends on timing.
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'the connection closed before a complete response';
  if (CONNECT_FAILURES.has(code)) return `the connection could not be made; the server may have crashed (${code})`;
  if (code === HEADER_OVERFLOW) return `a response began, but its headers exceeded the ${HEADER_LIMIT_KIB} KiB the suite reads (${HEADER_OVERFLOW}); its status and headers were not read`;
  const reason = parseReason(error);
  if (reason !== undefined) {
    // llhttp's reason in the words the report has always used for it.
    const described = `Response does not match the HTTP/1.1 protocol (${reason})`;
    return notHttp(error) ? `the target answered with bytes that are not an HTTP response (${described})` : `the response broke HTTP's framing (${described})`;
  }
  return `${code}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
}

interface BodyTexts {
  text(bytes: Buffer): string;
}

/** Bodies of at least this size are shared when the same bytes come back again. */
const SHARED_BODY_BYTES = 4096;
/** How many distinct large bodies are remembered for sharing; older ones are simply not shared. */
const SHARED_BODIES = 64;

/**
 * The run repeats identical reads (start, middle, end, every project, every key), and the
 * recorded exchanges keep every body: identical large bodies share one string, so a target that
 * answers a megabyte to each of a hundred reads costs one megabyte, not a hundred (the bound on
 * the checker's memory, docs/conformance.md). Keyed by content hash; bounded.
 */
function createBodyTexts(): BodyTexts {
  const seen = new Map<string, string>();
  return {
    text(bytes) {
      if (bytes.length < SHARED_BODY_BYTES) return bytes.toString('utf8');
      // node:crypto loads only for a body this large: the mock's answers never are.
      const key = `${bytes.length}:${process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('base64')}`;
      const known = seen.get(key);
      if (known !== undefined) return known;
      const text = bytes.toString('utf8');
      if (seen.size < SHARED_BODIES) seen.set(key, text);
      return text;
    },
  };
}
