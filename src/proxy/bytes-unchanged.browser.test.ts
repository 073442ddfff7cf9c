import type { Browser } from 'playwright-core';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, pageResult } from '../../test/browser.ts';
import { HOP_BY_HOP } from '../../test/http-exchange.ts';
import { serveStatic, type StaticServer } from '../../test/static-server.ts';
import { serveDressedMock, unusualBackends } from '../../test/unusual-backends.ts';
import { loadContract, type Contract } from '../contract/index.ts';
import { startProxy } from './start-proxy.ts';

const KEY = 'mock-admin-key';
const PATHS = ['/api/admin/environments/project/default', '/api/admin/auth/oidc/settings', '/api/admin/environments/project/no-such'];

/** A web app on its own origin calling the API with the key (so with a preflight) and without: what the page itself can see. */
function appPage(): string {
  return `<!DOCTYPE html><meta charset="utf-8"><title>app</title><pre id="result"></pre>
<script type="module">
  const apiUrl = new URLSearchParams(location.search).get('api');
  const seen = [];
  for (const [path, key] of ${JSON.stringify(PATHS.flatMap((p) => [[p, KEY], [p, null]]))}) {
    try {
      const response = await fetch(apiUrl + path, { headers: key ? { Authorization: key } : {}, credentials: 'include' });
      seen.push({ status: response.status, headers: [...response.headers], body: await response.text() });
    } catch (error) {
      seen.push(String(error));
    }
  }
  document.getElementById('result').textContent = JSON.stringify(seen);
</script>`;
}

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract({ validate: false, lazyValidators: true });
});

/** Every answer the browser's network stack received (preflights included), end-to-end headers, decoded body; and what the page saw. */
async function browse(browser: Browser, site: StaticServer, apiUrl: string): Promise<{ network: unknown[]; page: unknown; navigated: unknown[] }> {
  const context = await browser.newContext();
  try {
    const network: Promise<unknown>[] = [];
    const page = await context.newPage();
    page.on('response', (response) => {
      if (!response.url().startsWith(apiUrl)) return;
      network.push(
        (async () => {
          const headers = Object.entries(await response.allHeaders()).filter(([name]) => !HOP_BY_HOP.has(name));
          const body = response.request().method() === 'OPTIONS' ? '' : (await response.body().catch(() => Buffer.alloc(0))).toString('utf8');
          return { method: response.request().method(), path: response.url().slice(apiUrl.length), status: response.status(), headers, body };
        })(),
      );
    });
    await page.goto(`${site.url}/app?api=${encodeURIComponent(apiUrl)}`);
    const seen = await pageResult(page);
    // The bodies of the page's answers are read before navigating away: after it Chromium may drop them (body() fails, seen under load).
    const fetched = await Promise.all(network.splice(0));
    // Straight to the API too: a navigation, the answer shown as the browser decoded it.
    const navigated = [];
    for (const path of PATHS) {
      const response = await page.goto(apiUrl + path);
      navigated.push({ status: response!.status(), headers: Object.entries(await response!.allHeaders()).filter(([name]) => !HOP_BY_HOP.has(name)), body: (await response!.body()).toString('utf8') });
    }
    return { network: [...fetched, ...(await Promise.all(network))], page: seen, navigated };
  } finally {
    await context.close();
  }
}

describeInBrowser('Chromium through flag-admin proxy', (browser) => {
  const running: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const server of running.splice(0).reverse()) await server.close();
  });

  it('sees the same answers, preflights, CORS outcome and bytes through the proxy as from the backend itself, for every kind of backend', async () => {
    const site = await serveStatic({ '/app': { type: 'text/html; charset=utf-8', body: appPage() } });
    running.push(site);
    const origin = new URL(site.url).origin;
    for (const backend of unusualBackends(() => origin)) {
      const served = await serveDressedMock(contract, backend.dress);
      running.push(served);
      const proxy = await startProxy({ contract, port: 0, target: served.url });
      running.push(proxy);
      const direct = await browse(browser(), site, served.url);
      const preflights = served.received.filter((r) => r.startsWith('OPTIONS ')).length;
      const proxied = await browse(browser(), site, proxy.url);
      // Chromium's preflights (the keyed calls) reached the backend through the proxy as they did directly.
      expect(preflights, backend.name).toBeGreaterThan(0);
      expect(served.received.filter((r) => r.startsWith('OPTIONS ')).length, backend.name).toBe(2 * preflights);
      expect(proxied, backend.name).toEqual(direct);
      // The backend with CORS of its own lets the app read; without CORS the app's calls fail, through the proxy as directly.
      const outcomes = (direct.page as unknown[]).map((o) => (typeof o === 'string' ? o : (o as { status: number }).status));
      if (backend.name.startsWith("CORS")) expect(outcomes).toEqual([200, 401, 200, 401, 404, 401]);
      else expect(outcomes.every((o) => o === 'TypeError: Failed to fetch'), backend.name).toBe(true);
      if (backend.encodes) expect(JSON.stringify(direct.navigated)).toContain(`"content-encoding","${backend.encodes}"`);
    }
  }, 120_000);
});
