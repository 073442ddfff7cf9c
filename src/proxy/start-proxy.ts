import { createPassiveJudge, type PassiveReport } from '../../conformance/judge/passive-judge.ts';
import { renderJson } from '../../conformance/report/json.ts';
import { renderJunit } from '../../conformance/report/junit.ts';
import { loadContract, type Contract } from '../contract/index.ts';
import { redactFindings } from '../../conformance/report/redact-findings.ts';
import { createTrafficSecrets } from '../../conformance/report/traffic-secrets.ts';
import { requestPath } from '../mock/core/request-path.ts';
import { errorResponse, randomIds } from '../mock/core/errors.ts';
import type { MockHandle, MockRequest } from '../mock/core/types.ts';
import { serveHandler, type ForwardAnswer, type RunningServer, type ServeOptions } from '../mock/adapters/node-server.ts';
import { CONTROL_TOKEN_HEADER, controlLayer } from '../mock/layers/control.ts';
import { corsLayer } from '../mock/layers/cors.ts';
import { headerValue } from '../mock/layers/layer.ts';
import { createJournal, DEFAULT_JOURNAL_SIZE, type EntryVerdict, type Journal, type JournalFinding } from '../mock/layers/journal.ts';
import { authHeaderNames } from '../mock/layers/request-facts.ts';
import { createSessions, DEFAULT_SESSION, SESSION_HEADER } from '../mock/layers/sessions.ts';
import { DEFAULT_FIXTURES } from '../mock/core/default-fixtures.ts';
import { DEFAULT_LIMITS } from '../mock/adapters/node-connection-guards.ts';
import { createFixtureRecorder, type RecordedFixture } from './fixture-recorder.ts';
import { checkRecordingFile, writeRecording } from './recording-file.ts';
import { createForwarder, type ForwardedExchange } from './forward-to-target.ts';

export interface StartProxyOptions extends Omit<ServeOptions, 'forward' | 'onResponse'> {
  /** The real backend, e.g. `https://staging.example.com`; a path in it prefixes every forwarded path. */
  target: string;
  /** A contract already loaded; by default the kit's spec. */
  contract?: Contract;
  /** As the mock's: `false` for none, `{ origins }` to allow only those. @default any origin, reflected */
  cors?: false | { origins?: readonly string[] };
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

  const onExchange = (exchange: ForwardedExchange) => {
    if (exchange.clientGone) return;
    const sent: MockRequest = { method: exchange.method, url: exchange.target, headers: exchange.headers };
    const keyHeader = authHeaders.find((name) => (headerValue(sent, name) ?? '').trim() !== '');
    const key = keyHeader === undefined ? undefined : headerValue(sent, keyHeader);
    secrets.learnRequest(sent);
    if (exchange.response) secrets.learnResponse(exchange.response);
    // The number the journal gives this exchange: findings cite it as `request #N`.
    const placedKey = key === undefined ? secrets.placedKey(sent) : undefined;
    const findings = judge.judge({ method: exchange.method, target: exchange.target, key, keyHeader, placedKey, seq: journal.nextSeq(), response: exchange.response, transportError: exchange.transportError, notJudged: exchange.notJudged });
    recorder?.observe({ method: exchange.method, target: exchange.target, key, headers: exchange.headers, response: exchange.response });
    // A key in the query, a cookie, the path or userinfo must not reach the journal or the log, in any form: the journal
    // keeps the target masked and redacts it when read, the log line (written now) is redacted now, and only when there is one.
    const shown = secrets.mask(exchange.target);
    const request: MockRequest = { ...sent, url: shown };
    const session = headerValue(sent, SESSION_HEADER) || DEFAULT_SESSION;
    // Without a whole answer kept: the status the client got (the target's, or the proxy's 502).
    const response = exchange.response ?? { status: exchange.status ?? 502, headers: {}, body: '' };
    const journalFindings: JournalFinding[] | undefined = findings?.map(({ checkId, severity, title, message, expected, got, schemaPointer, instancePointer, response, curl }) => ({ checkId, severity, title, message, expected, got, schemaPointer, instancePointer, response, curl }));
    // Not judged: a path outside the API's operations, or a body over what the proxy keeps; the journal says which.
    const notJudged = findings === undefined ? `not judged: ${exchange.method} ${requestPath(shown)} is outside the operations of the spec` : exchange.notJudged !== undefined ? `not judged: ${exchange.notJudged}` : undefined;
    const verdict: EntryVerdict = notJudged !== undefined ? 'not judged' : findings!.some((f) => f.severity === 'error') ? 'not conformant' : 'conformant';
    journal.record(request, session, exchange.at, exchange.durationMs, { status: response.status, headers: response.headers, body: response.body }, { verdict, findings: journalFindings ?? [], ...(notJudged !== undefined ? { note: notJudged } : {}) });
    const route = contract.matchRoute(exchange.method, requestPath(exchange.target));
    if (options.onExchange) options.onExchange({
      method: exchange.method,
      url: secrets.redact(shown),
      status: response.status,
      ms: exchange.durationMs,
      operationId: route.kind === 'operation' ? route.operation.operationId : null,
      session,
      keyPresent: key !== undefined,
      verdict,
      findings: [...new Set((findings ?? []).map((f) => f.checkId))],
    });
  };

  const forwarder = createForwarder({ target, maxJudgedBytes: options.maxJudgedBytes ?? DEFAULT_MAX_JUDGED_BYTES, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes, onExchange });
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
    handle = corsLayer({
      origins: options.cors?.origins,
      allowHeaders: [...authHeaders, 'content-type', 'prefer', SESSION_HEADER, CONTROL_TOKEN_HEADER],
      exposeHeaders: ['allow', SESSION_HEADER],
      newId: randomIds,
    })(handle);
  }
  const server = await serveHandler(handle, { ...options, forward: forwarder.forward });

  return {
    ...server,
    journal,
    contract,
    report,
    // After close, the recording written (building it redacts every string of it: once is enough).
    recording: () => written ?? recorder?.fixture(),
    close: async () => {
      await server.close();
      await forwarder.close();
      if (options.record && recorder) writeRecording(options.record, (written = recorder.fixture()));
    },
  };
}
