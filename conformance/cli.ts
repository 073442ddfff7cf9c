import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError as CliUsageError, usageFailure } from '../src/cli/io.ts';
import { parseFlags } from '../src/cli/parse-flags.ts';
import { ContractError } from '../src/contract/index.ts';
import { readCheckConfig, type CheckConfig } from './config-file.ts';
import { KEY_VARIABLES } from './curl-line.ts';
import { TargetUnreachableError, UsageError } from './errors.ts';
import { DEFAULT_FORBIDDEN, DEFAULT_PROJECT, DEFAULT_SEED, DEFAULT_TIMEOUT_MS, type ConformanceOptions } from './options.ts';
import { renderConsole } from './reporters/console.ts';
import { renderJson } from './reporters/json.ts';
import { renderJunit } from './reporters/junit.ts';
import { runConformance } from './run.ts';
import { parseToken } from './token-ref.ts';

export const CHECK_USAGE = `Usage: flag-admin check --base-url URL [options]

  --base-url URL             the implementation under test
  --api-key KEY              full-access key                      (or env ${KEY_VARIABLES.full})
  --restricted-key KEY       a valid key lacking the permissions --forbidden names
                                                                  (or env ${KEY_VARIABLES.restricted})
  --forbidden OPS            comma-separated operationIds the restricted key must get 403 on
                                                                  (default: ${DEFAULT_FORBIDDEN.join(',')})
  --project ID               a project that exists                (default: ${DEFAULT_PROJECT})
  --missing-project ID       a project that does not              (default: generated from --seed)
  --token ACCOUNT/TOKEN      repeatable: disposable tokens the suite may delete
  --allow-delete             nothing is deleted without it
  --config FILE              the same options as JSON (baseUrl, apiKey, restrictedKey, forbidden,
                             project, missingProject, tokens, allowDelete, strict, timeout, spec,
                             seed, skipChecks, junit, json, timings); flags and env win over it
  --junit FILE  --json FILE  write reports; the console report is always printed
  --strict                   also flag properties the spec does not list
  --timeout MS               per request                          (default: ${DEFAULT_TIMEOUT_MS})
  --spec FILE                the OpenAPI 3.1 spec                 (default: the kit's spec/openapi.yaml)
  --seed TEXT                seeds the generated ids              (default: ${DEFAULT_SEED})
  --skip-check ID            repeatable: switch a check off (reported as not checked)
  --timings                  add the wall time to the reports (off: same target, same report)

Exit: 0 conformant (warnings allowed), 1 a finding of severity error, 2 bad usage, config or spec,
3 target unreachable.
`;

export interface CheckIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
}

/** `flag-admin check`: options from flags, env and --config; runs the suite; prints and writes the reports; resolves to the exit code. */
export async function checkCommand(argv: string[], io: CheckIo): Promise<number> {
  const fail = (code: number, message: string, usage = false): number => {
    if (usage) return usageFailure('check', message, io);
    io.stderr(`flag-admin check: ${message}\n`);
    return code;
  };
  let parsed: ReturnType<typeof parseCheckArgs>;
  try {
    parsed = parseCheckArgs(argv);
  } catch (error) {
    if (error instanceof UsageError || error instanceof CliUsageError) return fail(2, error.message, true);
    throw error;
  }
  let config: CheckConfig = {};
  try {
    if (parsed.config) config = readCheckConfig(parsed.config);
  } catch (error) {
    if (error instanceof ContractError) return fail(2, `bad config: ${error.message}`);
    throw error;
  }
  const merged = merge(parsed.options, config, io.env);
  if (!merged.baseUrl) return fail(2, 'missing --base-url URL (or baseUrl in --config)', true);
  if (!merged.apiKey) return fail(2, `missing the full-access key: --api-key KEY or ${KEY_VARIABLES.full}`, true);

  let report;
  try {
    report = await runConformance({ ...merged, baseUrl: merged.baseUrl, apiKey: merged.apiKey });
  } catch (error) {
    if (error instanceof UsageError) return fail(2, error.message, true);
    if (error instanceof ContractError) return fail(2, `bad spec: ${error.message}`);
    if (error instanceof TargetUnreachableError) return fail(3, error.message);
    throw error;
  }
  io.stdout(renderConsole(report));
  try {
    if (merged.junit) writeReport(merged.junit, renderJunit(report));
    if (merged.json) writeReport(merged.json, renderJson(report));
  } catch (error) {
    return fail(2, `cannot write a report: ${(error as NodeJS.ErrnoException).code ?? ''} ${(error as Error).message}`.replace('  ', ' '));
  }
  return report.verdict === 'conformant' ? 0 : 1;
}

type CliOptions = Partial<ConformanceOptions> & { junit?: string; json?: string };

function parseCheckArgs(argv: string[]): { config?: string; options: CliOptions } {
  const { values, positionals } = parseFlags(
    argv,
    {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'restricted-key': { type: 'string' },
      forbidden: { type: 'string' },
      project: { type: 'string' },
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
      timings: { type: 'boolean' },
    },
    { positionals: true },
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    timeoutMs = Number(values.timeout);
    if (!/^\d+$/.test(values.timeout) || timeoutMs < 1) throw new UsageError(`--timeout: expected a positive integer of milliseconds, got ${JSON.stringify(values.timeout)}`);
  }
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
    specFile: values.spec,
    seed: values.seed,
    skipChecks: values['skip-check'],
    timings: values.timings,
    junit: values.junit,
    json: values.json,
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
    specFile: pick(flags.specFile, config.spec),
    seed: pick(flags.seed, config.seed),
    skipChecks: pick(flags.skipChecks, config.skipChecks),
    timings: pick(flags.timings, config.timings),
    junit: pick(flags.junit, config.junit),
    json: pick(flags.json, config.json),
  };
}

function writeReport(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function raise(error: Error): never {
  throw error;
}
