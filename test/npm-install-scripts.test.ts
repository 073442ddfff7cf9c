import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

/**
 * Issue 13, item 13: `npm ci` ended with "install-scripts … node@24.21.0 (preinstall …) not yet
 * covered by allowScripts", which reads as if the pinned Node had not installed. package.json's
 * `allowScripts` (npm 11.16+) records the review: the pinned Node's and esbuild's binaries and
 * msw's worker copy are allowed, @scarf/scarf's install-time analytics call is denied. Asked of
 * npm itself, read-only, so the test needs no network.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function npm(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('npm', args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code: number | string; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const version = (await npm(['--version'])).output.match(/^(\d+)\.(\d+)/m);
const [major, minor] = version ? [Number(version[1]), Number(version[2])] : [0, 0];
const hasAllowScripts = major > 11 || (major === 11 && minor >= 16);
if (!hasAllowScripts) console.warn(`npm install-scripts review: skipped: npm ${version?.[0] ?? '(not found)'} has no allowScripts (npm 11.16+)`);

it.runIf(hasAllowScripts)('leaves no dependency install script unreviewed, so npm ci prints no install-scripts warning', async () => {
  const run = await npm(['approve-scripts', '--allow-scripts-pending']);
  expect(run.output).toContain('No packages with unreviewed install scripts.');
  expect(run.code).toBe(0);
});
