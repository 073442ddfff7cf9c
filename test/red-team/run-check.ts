// Runs the real CLI (`flag-admin check`, the process a backend team runs) against one red-team
// target, with the options a backend team gives it from the README: the fixtures' full-access and
// restricted keys, --allow-delete and the README's three tokens. Bounded in time; the target is
// always closed.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FULL_KEY, RESTRICTED_KEY, TOKENS } from './app.ts';
import type { RedTeamTarget } from './servers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/flag-admin.js');

/** The flags every target is checked with, after --base-url and --json. */
export const CHECK_FLAGS = ['--api-key', FULL_KEY, '--restricted-key', RESTRICTED_KEY, '--allow-delete', ...TOKENS.flatMap((t) => ['--token', t])];

export interface CheckOutcome {
  target: string;
  broken: boolean;
  /** The CLI's exit code (0 conformant, 1 a defect, 2 set-up, 3 unreachable), or null when it was killed at the time limit. */
  exitCode: number | null;
  /** The check ids of findings of severity error, each once, in report order. */
  errorChecks: string[];
  /** The check ids of warnings, each once. */
  warningChecks: string[];
  /** True when the verdict is the one the target asks for (broken → 1, conformant → 0). */
  expected: boolean;
  seconds: number;
  /** The last lines the CLI printed, for a run without a JSON report. */
  tail: string;
}

interface JsonFinding {
  checkId?: string;
  severity?: string;
}

export async function runCheck(target: RedTeamTarget, timeoutMs = 180_000): Promise<CheckOutcome> {
  const dir = await mkdtemp(join(tmpdir(), 'red-team-'));
  const report = join(dir, 'report.json');
  const started = Date.now();
  const server = await target.start();
  try {
    const child = spawn(process.execPath, [BIN, 'check', '--base-url', server.url, '--json', report, ...CHECK_FLAGS], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const exitCode = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    clearTimeout(timer);
    let findings: JsonFinding[] = [];
    try {
      findings = (JSON.parse(await readFile(report, 'utf8')) as { findings?: JsonFinding[] }).findings ?? [];
    } catch {
      // No report (killed, or a crash): the exit code and the output's tail say what happened.
    }
    const ids = (severity: string) => [...new Set(findings.filter((f) => f.severity === severity).map((f) => f.checkId ?? '?'))];
    const errorChecks = ids('error');
    return {
      target: target.name,
      broken: target.broken,
      exitCode,
      errorChecks,
      warningChecks: ids('warning'),
      expected: target.broken ? exitCode === 1 && errorChecks.length > 0 : exitCode === 0,
      seconds: (Date.now() - started) / 1000,
      tail: output.trim().split('\n').slice(-3).join('\n'),
    };
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}
