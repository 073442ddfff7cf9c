import { createPassiveJudge, type PassiveReport } from '../../conformance/judge/passive-judge.ts';
import { renderJson } from '../../conformance/report/json.ts';
import { renderJunit } from '../../conformance/report/junit.ts';
import { loadContract, type Contract } from '../contract/index.ts';
import { originForm, requestPath } from '../mock/core/request-path.ts';
import { CONTROL_API_PREFIX } from '../mock/layers/control-api-document.ts';
import { redactFindings } from '../../conformance/report/redact-findings.ts';
import { createTrafficSecrets } from '../../conformance/report/traffic-secrets.ts';
import { errorResponse, randomIds } from '../mock/core/errors.ts';
import type { MockHandle, MockRequest } from '../mock/core/types.ts';
import { serveHandler, type ForwardAnswer, type RunningServer, type ServeOptions } from '../mock/adapters/node-server.ts';
import { CONTROL_TOKEN_HEADER, controlLayer } from '../mock/layers/control.ts';
import { corsLayer } from '../mock/layers/cors.ts';
import { headerValue } from '../mock/layers/layer.ts';
import { createJournal, DEFAULT_JOURNAL_SIZE, type Journal, type JournalFinding, type Judged } from '../mock/layers/journal.ts';
import { authHeaderNames } from '../mock/layers/request-facts.ts';
import { createSessions, DEFAULT_SESSION, SESSION_HEADER } from '../mock/layers/sessions.ts';
import { DEFAULT_FIXTURES } from '../mock/core/default-fixtures.ts';
import { DEFAULT_LIMITS } from '../mock/adapters/node-connection-guards.ts';
import { createFixtureRecorder, type RecordedFixture } from './fixture-recorder.ts';
import { checkRecordingFile, writeRecording } from './recording-file.ts';
import { DEFAULT_TARGET_TIMEOUT_MS, MAX_CLIENT_HEADER_BYTES, createForwarder, type ForwardedExchange } from './forward-to-target.ts';
import { tunnelTo } from './connect-tunnel.ts';
import { decodeForJudging } from './decode-content.ts';
import { createRepeatMemo, lazyResponse } from './repeat-memo.ts';
import type { Finding, RecordedResponse } from '../../conformance/types.ts';

export interface StartProxyOptions extends Omit<ServeOptions, 'forward' | 'onResponse'> {
  /** The real backend, e.g. `https://staging.example.com`; a path in it prefixes every forwarded path. */
  target: string;
  /** A contract already loaded; by default the kit's spec. */
  contract?: Contract;
  /**
   * CORS on the proxy's own routes (/__mock/*), as the mock's: `false` for none, `{ origins }` to
   * allow only those. Forwarded answers carry the backend's own CORS, unless `addCors`.
   * @default any origin, reflected
   */
  cors?: false | { origins?: readonly string[] };
  /**
   * `--add-cors`: also answer preflights and add CORS headers to forwarded answers, as the mock does
   * (for a backend without CORS of its own). It changes what clients get, so only when asked.
   * @default false
   */
  addCors?: boolean;
  /** How long the backend may stay silent before the client gets a 504 (--target-timeout). @default 30000 */
  targetTimeoutMs?: number;
  /** As the mock's: the control API (journal, report, dashboard) wants it from every caller. */
  controlToken?: string;
  /** As the mock's `--allowed-host`: host names besides the loopback ones the control API answers under. */
  allowedHosts?: readonly string[];
  /** Journal entries kept at most. @default 1000 */
  journalSize?: number;
  /** `--strict`: flag properties the spec does not list. @default false */
  strict?: boolean;
  /** Response body bytes kept for judging (clients always get all of it). @default 4 MiB */
  maxJudgedBytes?: number;
  /** Write what the traffic showed to this fixture file when the proxy closes; its folder must exist (checked at start). */
  record?: string;
  /** What the recording keeps at most, in bytes (about the file's size). @default 64 MiB */
  maxRecordingBytes?: number;
  /** Called once per forwarded exchange, after it was judged: e.g. the access log. Never given the key. */
  onExchange?: (line: ProxyLogLine) => void;
}

/** What the access log may say about a forwarded exchange: no header value, no body. */
export interface ProxyLogLine {
  method: string;
  url: string;
  status: number;
  ms: number;
  operationId: string | null;
  session: string;
  keyPresent: boolean;
  verdict: 'conformant' | 'not conformant' | 'not judged';
  /** The check ids that failed, in report order. */
  findings: string[];
}

export interface RunningProxy extends RunningServer {
  journal: Journal;
  contract: Contract;
  /** The suite's report over the traffic so far. */
  report(): PassiveReport;
  /** The recording so far (with --record). */
  recording(): RecordedFixture | undefined;
  /** Stops, and with `record` writes the fixture. */
  close(): Promise<void>;
}

export const DEFAULT_MAX_JUDGED_BYTES = 4 * 1024 * 1024;

/** Body characters the journal keeps of an answer it did not judge (for its own self-check); a longer one is kept without. */
const JOURNAL_BODY_BYTES = 64 * 1024;

const CONFORMANT: Judged = Object.freeze({ verdict: 'conformant', findings: Object.freeze([]), responseMatchesSpec: true });
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The checks of what the journal calls `responseMatchesSpec`: status documented, media type, body schema (self-check.ts). */
const SPEC_CHECKS: ReadonlySet<string> = new Set(['status-code-documented', 'content-type-conformance', 'response-schema-conformance', 'no-undocumented-body']);

/**
 * flag-admin proxy (issue 15): forwards every request to `target` and the answer back, judges
 * each exchange of the API's operations with the suite's checks and the model of the contract as
 * it passes (conformance/judge/passive-judge.ts), and keeps the verdicts in the mock's journal, behind
 * the mock's control API, CORS and limits. It sends no request of its own.
 */
export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const contract = options.contract ?? (await loadContract({ validate: false, lazyValidators: true }));
  const target = new URL(options.target);
  const baseUrl = target.href.replace(/\/+$/, '');
  const judge = createPassiveJudge({ contract, baseUrl, strict: options.strict });
  const authHeaders = authHeaderNames(contract);
  // Every secret the traffic carried, and the one redactor every output of the proxy goes through (the recording too).
  const secrets = createTrafficSecrets({ contract, authHeaders });
  const { journal } = createJournal({ contract, capacity: options.journalSize ?? DEFAULT_JOURNAL_SIZE, redact: () => secrets.redact });
  // Before listening: a recording that cannot be written is said now, not lost at the end.
  if (options.record) checkRecordingFile(options.record);
  const recorder = options.record ? createFixtureRecorder(contract, { maxBytes: options.maxRecordingBytes, secrets: () => secrets.keys() }) : undefined;
  let written: RecordedFixture | undefined;

  const maxJudgedBytes = options.maxJudgedBytes ?? DEFAULT_MAX_JUDGED_BYTES;
  const repeats = createRepeatMemo();

  const onExchange = (exchange: ForwardedExchange) => {
    if (exchange.clientGone) return;
    const sent: MockRequest = { method: exchange.method, url: exchange.target, headers: exchange.headers };
    const keyHeader = authHeaders.find((name) => (headerValue(sent, name) ?? '').trim() !== '');
    const key = keyHeader === undefined ? undefined : headerValue(sent, keyHeader);
    secrets.learnRequest({ url: exchange.target, headers: exchange.headers, rawHeaders: exchange.rawHeaders });
    // A request the proxy refused itself never reached the backend: the journal shows the refusal, nothing is judged.
    // Nor is a CORS preflight (Fetch standard §3.2.2): the browser's question about the backend's CORS, not a call of the API;
    // nor a HEAD, whose answer has no body by definition (RFC 9110 §9.3.2) where the spec describes its GET's.
    const judged = !exchange.refused && !isPreflight(sent) && exchange.method !== 'HEAD';
    const { answer } = exchange;
    let notJudged = exchange.notJudged;
    let response: RecordedResponse | undefined;
    let findings: Finding[] | undefined;
    // The number the journal gives this exchange: findings cite it as `request #N`.
    const seq = journal.nextSeq();
    if (judged && answer && repeats.isRepeat(exchange.method, exchange.target, key, answer)) {
      // The same bytes to the same read by the same key as an answer judged without findings, nothing written between: judged the same.
      response = lazyResponse(answer, maxJudgedBytes);
      findings = judge.repeat({ method: exchange.method, target: exchange.target, key, response });
    } else {
      if (answer) {
        const body = decodeForJudging(answer.bytes, answer.headers['content-encoding'], maxJudgedBytes);
        if (typeof body === 'string') response = { status: answer.status, headers: answer.headers, body };
        else notJudged = `answered ${answer.status} with a body the proxy could not decode for judging (${body.problem}); the client got it as sent, it was not judged`;
      }
      if (response) secrets.learnResponse(response);
      if (judged) {
        const placedKey = key === undefined ? secrets.placedKey(sent) : undefined;
        findings = judge.judge({ method: exchange.method, target: exchange.target, key, keyHeader, placedKey, seq, response, transportError: exchange.transportError, notJudged });
        repeats.judged(exchange.method, exchange.target, key, response && findings?.length === 0 ? answer : undefined);
      }
    }
    // The recording numbers its keys as the report's KEY_N (the judge's one numbering of the traffic's keys).
    if (!exchange.refused) recorder?.observe({ method: exchange.method, target: exchange.target, key, headers: exchange.headers, response, transportError: exchange.transportError, keyNumber: key === undefined ? undefined : judge.keyNumber(key) });
    // A key in the query, a cookie, the path or userinfo must not reach the journal or the log, in any form: the journal
    // keeps the target masked and redacts it when read, the log line (written now) is redacted now, and only when there is one.
    const shown = secrets.mask(exchange.target);
    const request: MockRequest = { ...sent, url: shown };
    const session = headerValue(sent, SESSION_HEADER) || DEFAULT_SESSION;
    const journalFindings: JournalFinding[] | undefined = findings?.map(({ checkId, severity, title, message, expected, got, schemaPointer, instancePointer, response, curl }) => ({ checkId, severity, title, message, expected, got, schemaPointer, instancePointer, response, curl }));
    // Not judged: a path outside the API's operations, a preflight or HEAD, or a body over what the proxy keeps; the journal says which.
    const note = exchange.refused
      ? undefined
      : !judged
        ? `not judged: ${exchange.method === 'HEAD' ? 'a HEAD answer has no body to judge' : 'a CORS preflight is the browser asking about the backend\'s CORS'}`
        : findings === undefined
          ? `not judged: ${exchange.method} ${requestPath(shown)} is outside the operations of the spec`
          : notJudged !== undefined
            ? `not judged: ${notJudged}`
            : undefined;
    const verdict: Judged['verdict'] | undefined = exchange.refused ? undefined : note !== undefined ? 'not judged' : findings!.some((f) => f.severity === 'error') ? 'not conformant' : 'conformant';
    // What the journal keeps: the verdicts of a judged answer (its body is not kept, whatever its size: what the
    // spec says of it is in the findings); of an answer not judged, a body up to JOURNAL_BODY_BYTES for the self-check.
    const status = response?.status ?? exchange.refused?.status ?? exchange.status ?? 502;
    const headers = response?.headers ?? exchange.refused?.headers ?? {};
    const matchesSpec = verdict && verdict !== 'not judged' && response ? !findings!.some((f) => f.severity === 'error' && SPEC_CHECKS.has(f.checkId)) : undefined;
    // The common entry (conformant, nothing found, the spec kept) shares one verdict object: the journal's ring then holds
    // no object per exchange that lives long enough to be promoted (which grows V8's young generation, bench/proxy.ts).
    const judgedEntry: Judged | undefined =
      verdict &&
      (verdict === 'conformant' && journalFindings!.length === 0 && matchesSpec === true
        ? CONFORMANT
        : { verdict, findings: journalFindings ?? [], ...(matchesSpec === undefined ? {} : { responseMatchesSpec: matchesSpec }), ...(note !== undefined ? { note } : {}) });
    journal.record(request, session, exchange.at, exchange.durationMs, matchesSpec === undefined ? { status, headers, body: unjudgedBody(exchange, response) } : { status, headers: NO_HEADERS, body: undefined }, judgedEntry);
    const route = contract.matchRoute(exchange.method, requestPath(exchange.target));
    if (options.onExchange) options.onExchange({
      method: exchange.method,
      url: secrets.redact(shown),
      status,
      ms: exchange.durationMs,
      operationId: route.kind === 'operation' ? route.operation.operationId : null,
      session,
      keyPresent: key !== undefined,
      verdict: verdict ?? 'not judged',
      findings: [...new Set((findings ?? []).map((f) => f.checkId))],
    });
  };

  const forwarder = createForwarder({
    target,
    maxJudgedBytes,
    // The forwarder streams a body on and keeps none: no cap of its own unless asked (--max-body-bytes), so the backend decides.
    maxBodyBytes: options.maxBodyBytes ?? Number.POSITIVE_INFINITY,
    // One socket per client connection at most: a request never waits for one (docs/proxy.md, Forwarding).
    maxSockets: options.maxConnections ?? DEFAULT_LIMITS.maxConnections,
    targetTimeoutMs: options.targetTimeoutMs,
    onExchange,
  });
  const report = (): PassiveReport => {
    const raw = judge.report();
    return { ...raw, findings: redactFindings(raw.findings, secrets.redact), notJudged: raw.notJudged.map((n) => ({ ...n, label: secrets.redact(n.label), reason: secrets.redact(n.reason) })) };
  };

  // The mock's layers with the forwarder as their core: CORS, then the control API, else forward.
  const forwardAnswer: ForwardAnswer = { status: 0, headers: {}, body: undefined, forward: true };
  const allowedOrigins = options.cors === false ? [] : (options.cors?.origins ?? []);
  let handle: MockHandle = controlLayer({
    contract,
    // The control layer reads sessions only for operations the proxy does not serve (state, rules).
    sessions: createSessions({ contract, fixtures: DEFAULT_FIXTURES, maxSessions: 1, selfCheck: false }),
    journal,
    maxSessions: 1,
    maxRules: 0,
    controlToken: options.controlToken,
    allowedOrigins,
    // The names the proxy may be addressed by besides the loopback ones (the control API's Host rule).
    allowedHosts: [...(options.allowedHosts ?? []), options.host ?? '127.0.0.1'],
    newId: randomIds,
    proxy: {
      report: ({ query }) => {
        const format = query.get('format') ?? 'json';
        if (format === 'junit') return { status: 200, headers: { 'content-type': 'application/xml; charset=utf-8' }, body: renderJunit(report()) };
        if (format === 'json') return { status: 200, headers: { 'content-type': 'application/json' }, body: renderJson(report()) };
        return errorResponse(400, 'MockQueryError', `GET /__mock/report#/format: expected "json" or "junit", got ${JSON.stringify(format.slice(0, 40))}`, randomIds);
      },
    },
  })(() => forwardAnswer);
  if (options.cors !== false) {
    const inner = handle;
    const withCors = corsLayer({
      origins: options.cors?.origins,
      allowHeaders: [...authHeaders, 'content-type', 'prefer', SESSION_HEADER, CONTROL_TOKEN_HEADER],
      exposeHeaders: ['allow', SESSION_HEADER],
      newId: randomIds,
    })(inner);
    // The client gets what the backend said, CORS and Vary included; the proxy's CORS is on its own routes (or --add-cors).
    handle = options.addCors ? withCors : (request) => (originForm(request.url).startsWith(CONTROL_API_PREFIX) ? withCors(request) : inner(request));
  }
  const tunnels = tunnelTo(target, options.targetTimeoutMs ?? DEFAULT_TARGET_TIMEOUT_MS);
  // A forwarded request's Expect is the backend's to meet or refuse (RFC 9110 §10.1.1), and its body the forwarder's to limit;
  // the proxy's own routes keep node:http's answers and the mock's body limit.
  const forwards = (req: { url?: string }) => !originForm(req.url ?? '/').startsWith(CONTROL_API_PREFIX);
  const server = await serveHandler(handle, { ...options, forward: forwarder.forward, tunnel: tunnels.tunnel, forwards, maxHeaderBytes: MAX_CLIENT_HEADER_BYTES });

  return {
    ...server,
    journal,
    contract,
    report,
    // After close, the recording written (building it redacts every string of it: once is enough).
    recording: () => written ?? recorder?.fixture(),
    close: async () => {
      tunnels.close();
      await server.close();
      await forwarder.close();
      if (options.record && recorder) writeRecording(options.record, (written = recorder.fixture()));
    },
  };
}

/**
 * The body the journal keeps of an answer it did not judge (its self-check reads it), up to
 * JOURNAL_BODY_BYTES. Read only then: a repeated read's body is decoded lazily (repeat-memo.ts);
 * decoding it for an entry that keeps no body cost a string the size of the answer per request.
 */
function unjudgedBody(exchange: ForwardedExchange, response: RecordedResponse | undefined): string {
  return exchange.refused?.body ?? (response && response.body.length <= JOURNAL_BODY_BYTES ? response.body : '');
}

/** A CORS preflight (Fetch standard §3.2.2): OPTIONS with Origin and Access-Control-Request-Method. */
function isPreflight(request: MockRequest): boolean {
  return request.method === 'OPTIONS' && headerValue(request, 'origin') !== undefined && headerValue(request, 'access-control-request-method') !== undefined;
}
