import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
// The quickest browser test file: without Chromium it never launches one.
const BROWSER_TEST = 'src/mock/layers/cors.browser.test.ts';

/** Runs one browser test file in a child vitest with no Chromium where the tests look for it. */
function runWithoutChromium(ci: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, FLAG_ADMIN_CHROMIUM: '/nonexistent/chromium', CI: ci ? 'true' : '' };
    execFile(process.execPath, [VITEST, 'run', BROWSER_TEST], { cwd: ROOT, env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('the browser tests without Chromium', () => {
  it('are skipped locally, saying why and how to get it', async () => {
    const { code, output } = await runWithoutChromium(false);
    expect(code).toBe(0);
    expect(output).toContain('skipped: no Chromium at /nonexistent/chromium (apt-get install chromium)');
    expect(output).not.toMatch(/\d+ passed/);
  }, 60_000);

  it('fail under CI, where they must run', async () => {
    const { code, output } = await runWithoutChromium(true);
    expect(code).not.toBe(0);
    expect(output).toContain('CI is set but there is no Chromium at /nonexistent/chromium');
    expect(output).toMatch(/1 failed/);
  }, 60_000);
});
