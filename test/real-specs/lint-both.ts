// The real-documents tier runs the CLI as users do: `flag-admin ...`, and lint twice, `flag-admin spec lint` and Redocly CLI (pinned in
// scripts/real-specs), for the real-documents tier's tests to hold one against the other.
import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import { expect } from 'vitest';
import { REDOCLY_CLI, redoclyEnv } from './real-documents.ts';

const BIN = new URL('../../bin/flag-admin.js', import.meta.url).pathname;

export interface Message {
  ruleId: string;
  severity: string;
  message: string;
  file: string;
  line: number;
  column: number;
  pointer: string;
}

export interface RedoclyProblem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer?: string; source: { ref: string } }[];
}

/** A process as a user runs it: its exit code, stdout and stderr. */
export function run(args: string[], env = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr }));
  });
}

/** `flag-admin ARGS...` run as a user runs it. */
export const cli = (args: string[]) => run([BIN, ...args]);

/** `flag-admin spec lint FILE --format json`, its exit code and messages; nothing on stderr. */
export async function ourLint(file: string) {
  const { code, stdout, stderr } = await run([BIN, 'spec', 'lint', file, '--format', 'json']);
  expect(stderr).toBe('');
  return { code, ...(JSON.parse(stdout) as { messages: Message[]; errors: number; warnings: number }) };
}

/** `redocly lint FILE --format json`, every problem. */
export async function redoclyLint(file: string) {
  const { stdout } = await run([REDOCLY_CLI, 'lint', file, '--format', 'json', '--max-problems', '1000000'], redoclyEnv());
  return JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: RedoclyProblem[] };
}

/** A finding as both tools can be compared on: rule, file, JSON pointer. */
export const findingKey = (ruleId: string, file: string, pointer: string) => `${ruleId} ${relative(process.cwd(), file)} ${pointer.replace(/^#/, '')}`;
