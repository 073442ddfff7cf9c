import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';

/**
 * The real-browser tests drive Debian's Chromium (`apt-get install chromium`) with playwright-core,
 * which downloads no browser of its own. `.ci/run` installs it and exports FLAG_ADMIN_CHROMIUM.
 */
export const CHROMIUM = process.env.FLAG_ADMIN_CHROMIUM || '/usr/bin/chromium';

/**
 * Flags for a headless Chromium that talks to nothing but the loopback servers of the test:
 * no sandbox (CI runs as root), no GPU, and none of the background traffic (QUIC, component
 * updates, sync, field trials) a fresh profile starts. chromium.launch gives every launch a fresh
 * temporary user-data-dir, so no state leaks between runs.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `extraArgs`, e.g. `--host-resolver-rules=MAP rebound.test 127.0.0.1` to stand in for DNS. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs], timeout: 30_000 });
}

/**
 * A describe block that shares one Chromium among its tests. Without Chromium it is skipped with
 * the reason in its title, except under CI (`CI` set), where a missing browser is a failure: the
 * browser tests are part of what CI proves.
 */
export function describeInBrowser(title: string, body: (browser: () => Browser) => void, extraArgs: readonly string[] = []): void {
  const present = existsSync(CHROMIUM);
  if (!present && !process.env.CI) {
    console.warn(`${title}: skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
    describe.skip(`${title} (skipped: no Chromium at ${CHROMIUM} (apt-get install chromium))`, () => body(() => undefined as never));
    return;
  }
  if (!present) {
    // A failing test rather than a failing hook, so CI's count shows it as a failure.
    describe(title, () => {
      it('runs in Chromium', () => {
        throw new Error(`CI is set but there is no Chromium at ${CHROMIUM}: .ci/run installs it with apt-get install chromium`);
      });
    });
    return;
  }
  describe(title, () => {
    let browser: Browser | undefined;
    beforeAll(async () => {
      browser = await launchChromium(extraArgs);
    });
    afterAll(async () => {
      await browser?.close();
    });
    body(() => {
      if (!browser) throw new Error('Chromium did not start');
      return browser;
    });
  });
}

/** What a test page shows in its `<pre id="result">` once its script is done, parsed as JSON. */
export async function pageResult(page: Page, timeout = 15_000): Promise<unknown> {
  const shown = await page.waitForFunction("document.getElementById('result')?.textContent || undefined", undefined, { timeout });
  return JSON.parse((await shown.jsonValue()) as string);
}
