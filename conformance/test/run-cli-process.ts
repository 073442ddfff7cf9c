import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/flag-admin.js', import.meta.url));

/** Printed by the child at exit: its peak resident set (process.resourceUsage().maxRSS, in KiB). */
const PEAK_MARK = 'flag-admin-test-peak-rss-kib=';
const REPORT_PEAK = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\n${PEAK_MARK}'+process.resourceUsage().maxRSS+'\\n'))`;

export interface CliProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
  json: string;
  junit: string;
  wallMs: number;
  /** Peak resident set of the checker process, in MiB. */
  peakMiB: number;
}

/**
 * The real `flag-admin check` in a child process (bin/flag-admin.js on the given Node), with its
 * wall time and peak memory; both reports written. The child is killed after `killAfterMs`, a
 * bound the checker itself must stay well inside.
 */
export async function runCliProcess(args: string[], env: Record<string, string>, { node = process.execPath, killAfterMs = 120_000 } = {}): Promise<CliProcessRun> {
  const dir = mkdtempSync(join(tmpdir(), 'flag-admin-cli-'));
  const json = join(dir, 'report.json');
  const junit = join(dir, 'junit.xml');
  const started = performance.now();
  try {
    const child = spawn(node, ['--import', REPORT_PEAK, BIN, 'check', ...args, '--json', json, '--junit', junit], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    clearTimeout(killer);
    const wallMs = performance.now() - started;
    const peak = new RegExp(`\\n?${PEAK_MARK}(\\d+)\\n`).exec(stderr);
    return { code, stdout, stderr: stderr.replace(peak?.[0] ?? '', ''), json: read(json), junit: read(junit), wallMs, peakMiB: peak ? Number(peak[1]) / 1024 : Number.NaN };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
