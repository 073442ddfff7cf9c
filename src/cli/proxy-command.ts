import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { renderJson } from '../../conformance/report/json.ts';
import { renderJunit } from '../../conformance/report/junit.ts';
import { hideUrlCredentials } from '../../conformance/report/hide-url-credentials.ts';
import { DEFAULT_TARGET_TIMEOUT_MS } from '../proxy/forward-to-target.ts';
import { RecordingError, checkOutputFile } from '../proxy/recording-file.ts';
import { startProxy, type ProxyLogLine, type RunningProxy } from '../proxy/start-proxy.ts';
import { formatAccessLog } from './access-log.ts';
import { batchedLines } from './batched-lines.ts';
import { UsageError, usageFailure, type CommandIo } from './io.ts';
import { listenFailure } from './listen-failure.ts';
import { SERVER_FLAGS, SERVER_FLAGS_USAGE, serverArgs, type ServerArgs } from './mock-args.ts';
import { parseFlags } from './parse-flags.ts';
import { untilStopped } from './stop-with-parent.ts';
import { capYoungGeneration } from './young-generation-cap.ts';

export const PROXY_USAGE = `Usage: flag-admin proxy --target URL [-p 4010] [--record FILE] [options]

Forwards every request to --target and its answer back unchanged, and judges each exchange of
the API's operations with the suite's checks and its model of the contract as it passes. Verdicts:
the journal (/__mock/journal?verdict=not%20conformant), the access log, the dashboard (/__mock/ui), the
suite's reports (GET /__mock/report[?format=junit], and --json/--junit on exit). It sends no
request of its own; keys are never logged, recorded or reported.

  --target URL             the real backend (http or https), e.g. https://staging.example.com
  --record FILE            on exit (Ctrl-C, SIGTERM), write what the traffic showed as a fixture the
                           mock serves (flag-admin mock --fixtures FILE); keys become placeholders,
                           printed once; its folder must exist
  --record-max-mib N       what the recording keeps at most, in MiB (default 64)
  --json FILE  --junit FILE  write the reports on exit
  --strict                 also flag properties the spec does not list
  --target-timeout MS      the backend may stay silent this long (before its answer, or within
                           its body); then the client gets 504, or its connection is cut
                                                                    (default ${DEFAULT_TARGET_TIMEOUT_MS})
  --add-cors               also answer preflights and add CORS headers to forwarded answers, as
                           the mock does (for a backend without CORS of its own; it changes what
                           clients get). Otherwise the backend's CORS is forwarded as sent and
                           --cors-origin/--no-cors apply to the proxy's own /__mock/ routes only
${SERVER_FLAGS_USAGE}
  In the proxy, --max-body-bytes caps forwarded request bodies only when given (it streams them on
  and keeps none, so the backend decides); the default above is for its own /__mock/ routes.
`;

interface ProxyArgs extends ServerArgs {
  target: string;
  record: string | undefined;
  recordMaxBytes: number | undefined;
  json: string | undefined;
  junit: string | undefined;
  strict: boolean;
  addCors: boolean;
  targetTimeoutMs: number;
}

function parseProxyArgs(argv: string[], env: Record<string, string | undefined>): ProxyArgs {
  const { values } = parseFlags(argv, {
    ...SERVER_FLAGS,
    target: { type: 'string' },
    record: { type: 'string' },
    'record-max-mib': { type: 'string' },
    json: { type: 'string' },
    junit: { type: 'string' },
    strict: { type: 'boolean', default: false },
    'add-cors': { type: 'boolean', default: false },
    'target-timeout': { type: 'string' },
  });
  if (values.target === undefined) throw new UsageError('--target URL is required: the backend to forward to, e.g. --target https://staging.example.com');
  let url: URL;
  try {
    url = new URL(values.target);
  } catch {
    throw new UsageError(`--target expects an http or https URL, got ${JSON.stringify(hideUrlCredentials(values.target))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--target expects an http or https URL, got ${JSON.stringify(url.protocol)}`);
  // Each request's own target follows --target's path (RFC 9112 §3.2 origin-form: path, then the request's query): a query or
  // fragment of --target would have nowhere to go, and dropping it silently sends what the user did not ask for.
  if (url.search !== '' || values.target.includes('?')) throw new UsageError(`--target must not carry a query (${JSON.stringify(hideUrlCredentials(values.target))}): each request's own query is forwarded; put what the backend needs in the path, or send it from the client`);
  if (url.hash !== '' || values.target.includes('#')) throw new UsageError(`--target must not carry a fragment (${JSON.stringify(hideUrlCredentials(values.target))}): a fragment is never sent (RFC 3986 §3.5, RFC 9110 §4.2.5)`);
  if (url.username || url.password) throw new UsageError('--target must not carry credentials in the URL: they would be sent to the backend and shown in reports');
  const recordMax = values['record-max-mib'];
  if (recordMax !== undefined && (!/^\d{1,6}$/.test(recordMax) || Number(recordMax) < 1)) throw new UsageError(`--record-max-mib expects an integer from 1 to 999999, got ${JSON.stringify(recordMax)}`);
  const timeout = values['target-timeout'] === undefined ? DEFAULT_TARGET_TIMEOUT_MS : Number(values['target-timeout']);
  if (!Number.isInteger(timeout) || timeout < 1) throw new UsageError(`--target-timeout expects a whole number of milliseconds, at least 1, got ${JSON.stringify(values['target-timeout'])}`);
  const server = serverArgs(values, env);
  if (values['add-cors'] && server.cors === false) throw new UsageError('--add-cors and --no-cors contradict each other: choose one');
  return {
    ...server,
    target: values.target,
    record: values.record,
    recordMaxBytes: recordMax === undefined ? undefined : Number(recordMax) * 1024 * 1024,
    json: values.json,
    junit: values.junit,
    strict: values.strict,
    addCors: values['add-cors'],
    targetTimeoutMs: timeout,
  };
}

/** One access-log line of the proxy: the mock's line, plus the verdict and the failed checks. */
function proxyLogLine(line: ProxyLogLine, format: ServerArgs['logFormat']): string {
  const base = formatAccessLog(line, format);
  if (format === 'json') return `${JSON.stringify({ ...JSON.parse(base), verdict: line.verdict, findings: line.findings })}\n`;
  return `${base.trimEnd()} verdict=${line.verdict.replace(' ', '-')}${line.findings.length ? ` findings=${line.findings.join(',')}` : ''}\n`;
}

/**
 * Serves the proxy until SIGINT or SIGTERM, then writes --record, --json and --junit and
 * resolves to 0, or 1 when a finding of severity error was seen (as flag-admin check exits).
 */
export async function proxyCommand(argv: string[], io: CommandIo): Promise<number> {
  let options: ProxyArgs;
  try {
    options = parseProxyArgs(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure('proxy', error.message, io);
  }
  // Every output asked for is writable before the proxy listens: a session's reports are not lost at its end (issue 19).
  try {
    if (options.record) checkOutputFile('--record', options.record);
    if (options.json) checkOutputFile('--json', options.json, { createFolder: true });
    if (options.junit) checkOutputFile('--junit', options.junit, { createFolder: true });
  } catch (error) {
    if (error instanceof RecordingError) return usageFailure('proxy', error.message, io);
    throw error;
  }
  const log = batchedLines(io.stdout);
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      target: options.target,
      port: options.port,
      host: options.host,
      cors: options.cors,
      controlToken: options.controlToken,
      allowedHosts: options.allowedHosts,
      strict: options.strict,
      addCors: options.addCors,
      targetTimeoutMs: options.targetTimeoutMs,
      record: options.record,
      maxRecordingBytes: options.recordMaxBytes,
      ...options.limits,
      onExchange: options.quiet ? undefined : (line) => log.write(proxyLogLine(line, options.logFormat)),
      onError: (error) => io.stderr(`flag-admin proxy: internal error: ${error instanceof Error ? error.message : String(error)}\n`),
    });
  } catch (error) {
    if (error instanceof RecordingError) return usageFailure('proxy', error.message, io);
    const failed = listenFailure('proxy', options, error, io);
    if (failed !== undefined) return failed;
    throw error;
  }

  const stopped = untilStopped(io.env);
  // A proxy runs for hours under whatever load its clients make: its RSS must not follow V8's young generation to its default cap.
  const uncap = capYoungGeneration(undefined, { nodeOptions: io.env.NODE_OPTIONS });
  io.stdout(
    [
      `flag-admin proxy listening on ${proxy.url}, forwarding to ${hideUrlCredentials(options.target)}`,
      `  verdicts: ${proxy.url}/__mock/journal, report: ${proxy.url}/__mock/report, dashboard: ${proxy.url}/__mock/ui (${options.controlToken ? 'needs the control token' : 'loopback callers'})`,
      ...(options.record ? [`  recording to ${options.record} on exit`] : []),
      '  Ctrl-C to stop.',
    ].join('\n') + '\n',
  );
  await stopped;
  uncap();
  // The reports are written even when the recording cannot be (a disk full): nothing asked for is lost to another's failure.
  let recordingFailed: unknown;
  try {
    await proxy.close();
  } catch (error) {
    recordingFailed = error;
  }
  // Every exchange's line, before anything said after the stop.
  log.close();
  const report = proxy.report();
  // One output that cannot be written (its folder changed since start-up, a disk full) is said in one line; the others are still written.
  let outputFailed = false;
  for (const [flag, file, text] of [
    ['--json', options.json, () => renderJson(report)],
    ['--junit', options.junit, () => renderJunit(report)],
  ] as const) {
    if (!file) continue;
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text());
    } catch (error) {
      outputFailed = true;
      io.stderr(`flag-admin proxy: could not write ${flag} ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  const recording = proxy.recording();
  if (recordingFailed !== undefined) {
    io.stderr(`flag-admin proxy: could not write --record ${options.record}: ${recordingFailed instanceof Error ? recordingFailed.message : String(recordingFailed)}\n`);
    return 1;
  }
  for (const warning of recording?.warnings ?? []) io.stderr(`flag-admin proxy: recording: ${warning}\n`);
  if (options.record && recording) {
    io.stderr(`flag-admin proxy: recorded to ${options.record}. Placeholder keys (shown this once; the real keys were never written):\n${recording.keys.map((k) => `    ${k}`).join('\n') || '    (none: no request with a key got an answer)'}\n`);
  }
  io.stdout(`flag-admin proxy stopped: ${report.summary.requests} exchanges judged, ${report.summary.errors} errors, ${report.summary.warnings} warnings\n`);
  return report.summary.errors > 0 || outputFailed ? 1 : 0;
}
