import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCommand } from '../cli.ts';
import type { Report } from '../types.ts';

export const ADMIN_KEY = 'mock-admin-key';
export const VIEWER_KEY = 'mock-viewer-key';
/** Every token of the mock's default fixtures: what a user with all of them would pass. */
export const ALL_TOKENS = ['--token', '1/1', '--token', '1/2', '--token', '1/3', '--token', '2/4', '--token', '2/5', '--token', '12/1'];
/** Every project of the default fixtures. */
export const ALL_PROJECTS = ['--project', 'default', '--project', 'mobile-app'];
/** Short enough to keep the tests fast; the default (500 ms) is exercised by the mock's own test. */
export const TEST_SETTLE = ['--settle-ms', '100'];

export interface CheckRun {
  code: number;
  stdout: string;
  stderr: string;
  report: Report | undefined;
  json: string;
  junit: string;
}

/** `flag-admin check` through its real entry point, keys from the environment as in CI, both reports written. */
export async function runCheck(args: string[], env: Record<string, string | undefined> = { FLAG_ADMIN_API_KEY: ADMIN_KEY, FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY }): Promise<CheckRun> {
  const dir = mkdtempSync(join(tmpdir(), 'flag-admin-check-'));
  const jsonFile = join(dir, 'report.json');
  const junitFile = join(dir, 'junit.xml');
  let stdout = '';
  let stderr = '';
  try {
    const code = await checkCommand([...args, '--json', jsonFile, '--junit', junitFile], { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env });
    const json = read(jsonFile);
    return { code, stdout, stderr, json, junit: read(junitFile), report: json ? (JSON.parse(json) as Report) : undefined };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The options a user with everything would pass: the restricted key (env), deletes allowed, every project and token of the default fixtures. */
export function targetArgs(url: string, tokens: string[] = ALL_TOKENS): string[] {
  return ['--base-url', url, '--allow-delete', ...ALL_PROJECTS, ...TEST_SETTLE, ...tokens];
}

export function failingChecks(report: Report, severity: 'error' | 'warning'): string[] {
  return [...new Set(report.findings.filter((f) => f.severity === severity).map((f) => f.checkId))].sort();
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
