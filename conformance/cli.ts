import { dirname } from 'node:path';
import { UsageError as CliUsageError, usageFailure } from '../src/cli/io.ts';
import { parseFlags } from '../src/cli/parse-flags.ts';
import { ContractError } from '../src/contract/index.ts';
import { readCheckConfig, type CheckConfig } from './config-file.ts';
import { CHECK_USAGE } from './check-usage.ts';
import { KEY_VARIABLES } from './key-variables.ts';
import { colourWanted } from '../src/cli/colour.ts';
import { problemReport, type ProblemReport } from './report/build-report.ts';
import { parseByteSize } from './send/byte-size.ts';
import { UsageError } from './errors.ts';
import { hideUrlCredentials } from './report/hide-url-credentials.ts';
import type { ConformanceOptions } from './options.ts';
import { renderConsole } from './report/console.ts';
import { renderJson } from './report/json.ts';
import { renderJunit } from './report/junit.ts';
import { runConformance } from './run.ts';
import { parseToken } from './token-ref.ts';
import type { Report } from './types.ts';

export { CHECK_USAGE };
// For src/cli/commands.ts, which keeps these tables beside the suite's bundle between runs.
export { adoptUnicodeFacts, unicodeFacts } from './plan/near-miss/unicode-forms.ts';

export interface CheckIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
}

/**
 * `flag-admin check`: options from flags, env and --config; runs the suite; prints and writes the
 * reports; resolves to the exit code. Whenever the report files are known, they are written,
 * set-up problems included, so a CI job always has an artifact that says what happened.
 */
export async function checkCommand(argv: string[], io: CheckIo): Promise<number> {
  let parsed: ReturnType<typeof parseCheckArgs>;
  try {
    parsed = parseCheckArgs(argv);
  } catch (error) {
    if (error instanceof UsageError || error instanceof CliUsageError) return usageFailure('check', error.message, io);
    throw error;
  }
  const outputs = { junit: parsed.options.junit, json: parsed.options.json };
  const setupFailure = (message: string, usage = false): number => {
    const written = writeReports(outputs, problemReport(hideUrlCredentials(parsed.options.baseUrl ?? ''), message));
    if (usage) usageFailure('check', message, io);
    else io.stderr(`flag-admin check: ${message}\n`);
    if (written) io.stderr(`flag-admin check: ${written}\n`);
    return 2;
  };
  let config: CheckConfig = {};
  try {
    if (parsed.config) config = readCheckConfig(parsed.config);
  } catch (error) {
    if (error instanceof ContractError) return setupFailure(`bad config: ${error.message}`);
    throw error;
  }
  const merged = merge(parsed.options, config, io.env);
  outputs.junit = merged.junit;
  outputs.json = merged.json;
  if (!merged.baseUrl) return setupFailure('missing --base-url URL (or baseUrl in --config)', true);
  if (!merged.apiKey) return setupFailure(`missing the full-access key: --api-key KEY or ${KEY_VARIABLES.full}`, true);

  const { junit: _junit, json: _json, failOnNotChecked = false, ...options } = merged;
  let report: Report;
  try {
    report = await runConformance({ ...options, baseUrl: merged.baseUrl, apiKey: merged.apiKey });
  } catch (error) {
    if (error instanceof UsageError) return setupFailure(error.message, true);
    if (error instanceof ContractError) return setupFailure(`bad spec: ${error.message}`);
    throw error;
  }
  const code = exitCode(report, failOnNotChecked);
  // Each message once: the console report (stdout) opens with a set-up problem; an unreachable target has no console report, so its message goes to stderr.
  if (report.verdict === 'unreachable') io.stderr(`flag-admin check: ${report.problem!.message}\n`);
  else io.stdout(renderConsole(report, { colour: colourWanted(io), failOnNotChecked }));
  const failed = writeReports(outputs, report);
  if (failed) {
    io.stderr(`flag-admin check: ${failed}\n`);
    return 2;
  }
  return code;
}

/** 0 conformant, 1 an error finding (or, with --fail-on-not-checked, a check not run), 2 a set-up problem, 3 unreachable. */
export function exitCode(report: Report, failOnNotChecked: boolean): number {
  switch (report.verdict) {
    case 'unreachable':
      return 3;
    case 'set-up problem':
      return 2;
    case 'not conformant':
      return 1;
    case 'conformant':
      return failOnNotChecked && report.summary.checksNotChecked > 0 ? 1 : 0;
  }
}

/** Writes whichever reports were asked for; returns what went wrong, if anything. */
function writeReports(outputs: { junit?: string | undefined; json?: string | undefined }, report: Report | ProblemReport): string | undefined {
  try {
    if (outputs.junit) writeReport(outputs.junit, renderJunit(report));
    if (outputs.json) writeReport(outputs.json, renderJson(report));
    return undefined;
  } catch (error) {
    return `cannot write a report: ${(error as NodeJS.ErrnoException).code ?? ''} ${(error as Error).message}`.replace('  ', ' ');
  }
}

type CliOptions = Partial<ConformanceOptions> & { junit?: string; json?: string; failOnNotChecked?: boolean };

function parseCheckArgs(argv: string[]): { config?: string; options: CliOptions } {
  const { values, positionals } = parseFlags(
    argv,
    {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'restricted-key': { type: 'string', multiple: true },
      forbidden: { type: 'string' },
      project: { type: 'string', multiple: true },
      'missing-project': { type: 'string' },
      token: { type: 'string', multiple: true },
      'allow-delete': { type: 'boolean' },
      config: { type: 'string' },
      junit: { type: 'string' },
      json: { type: 'string' },
      strict: { type: 'boolean' },
      timeout: { type: 'string' },
      spec: { type: 'string' },
      seed: { type: 'string' },
      'skip-check': { type: 'string', multiple: true },
      'random-steps': { type: 'string' },
      timings: { type: 'boolean' },
      'max-body': { type: 'string' },
      'settle-ms': { type: 'string' },
      'fail-on-not-checked': { type: 'boolean' },
    },
    { positionals: true },
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    timeoutMs = Number(values.timeout);
    if (!/^\d+$/.test(values.timeout) || timeoutMs < 1) throw new UsageError(`--timeout: expected a positive integer of milliseconds, got ${JSON.stringify(values.timeout)}`);
  }
  let settleMs: number | undefined;
  if (values['settle-ms'] !== undefined) {
    settleMs = Number(values['settle-ms']);
    if (!/^\d+$/.test(values['settle-ms'])) throw new UsageError(`--settle-ms: expected an integer of milliseconds, 0 or more, got ${JSON.stringify(values['settle-ms'])}`);
  }
  let randomSteps: number | undefined;
  if (values['random-steps'] !== undefined) {
    randomSteps = Number(values['random-steps']);
    if (!/^\d+$/.test(values['random-steps'])) throw new UsageError(`--random-steps: expected a number of requests, e.g. 200, got ${JSON.stringify(values['random-steps'])}`);
  }
  const maxBodyBytes = values['max-body'] === undefined ? undefined : parseByteSize(values['max-body']);
  if (maxBodyBytes === null) throw new UsageError(`--max-body: expected a number of bytes, e.g. 1048576 or 4M, got ${JSON.stringify(values['max-body'])}`);
  const tokens = values.token?.map((text) => parseToken(text) ?? raise(new UsageError(`--token: expected ACCOUNT/TOKEN, e.g. 1/2, got ${JSON.stringify(text)}`)));
  const options: CliOptions = {
    baseUrl: values['base-url'],
    apiKey: values['api-key'],
    restrictedKey: values['restricted-key'],
    forbidden: values.forbidden?.split(',').map((s) => s.trim()).filter(Boolean),
    project: values.project,
    missingProject: values['missing-project'],
    tokens,
    allowDelete: values['allow-delete'],
    strict: values.strict,
    timeoutMs,
    maxBodyBytes,
    settleMs,
    specFile: values.spec,
    seed: values.seed,
    skipChecks: values['skip-check'],
    randomSteps,
    timings: values.timings,
    junit: values.junit,
    json: values.json,
    failOnNotChecked: values['fail-on-not-checked'],
  };
  return { config: values.config, options };
}

/** Flags win over the environment, which wins over the config file. */
function merge(flags: CliOptions, config: CheckConfig, env: Record<string, string | undefined>): CliOptions {
  const pick = <T>(...candidates: (T | undefined)[]): T | undefined => candidates.find((c) => c !== undefined && c !== '');
  return {
    baseUrl: pick(flags.baseUrl, config.baseUrl),
    apiKey: pick(flags.apiKey, env[KEY_VARIABLES.full!], config.apiKey),
    restrictedKey: pick(flags.restrictedKey, env[KEY_VARIABLES.restricted!], config.restrictedKey),
    forbidden: pick(flags.forbidden, config.forbidden),
    project: pick(flags.project, config.project),
    missingProject: pick(flags.missingProject, config.missingProject),
    tokens: pick(flags.tokens, config.tokens),
    allowDelete: pick(flags.allowDelete, config.allowDelete),
    strict: pick(flags.strict, config.strict),
    timeoutMs: pick(flags.timeoutMs, config.timeout),
    maxBodyBytes: pick(flags.maxBodyBytes, config.maxBody),
    settleMs: pick(flags.settleMs, config.settleMs),
    specFile: pick(flags.specFile, config.spec),
    seed: pick(flags.seed, config.seed),
    skipChecks: pick(flags.skipChecks, config.skipChecks),
    randomSteps: pick(flags.randomSteps, config.randomSteps),
    timings: pick(flags.timings, config.timings),
    junit: pick(flags.junit, config.junit),
    json: pick(flags.json, config.json),
    failOnNotChecked: pick(flags.failOnNotChecked, config.failOnNotChecked),
  };
}

function writeReport(file: string, text: string): void {
  // The CommonJS module: an ESM import of node:fs builds its whole namespace (fs/promises with readline, watchers) on every run.
  const { mkdirSync, writeFileSync } = process.getBuiltinModule('node:fs');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function raise(error: Error): never {
  throw error;
}
