import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BROWSER_BUNDLE_NAME, buildBrowserBundle } from '../../../scripts/build-browser-bundle.ts';
import { describeInBrowser, pageResult } from '../../../test/browser.ts';
import { exampleRequest } from '../../../test/example-requests.ts';
import { ADMIN_KEY } from '../../../test/http.ts';
import { serveStatic, type StaticServer } from '../../../test/static-server.ts';
import { loadContract, type Contract } from '../../contract/index.ts';

// MSW's own files, as `npx msw init` copies the worker and a page would load its browser build.
const MSW_DIR = dirname(createRequire(import.meta.url).resolve('msw/package.json'));
const msw = (file: string) => readFileSync(join(MSW_DIR, file));

/**
 * The README's "Mount it in MSW" for a browser page, as written there but for the imports: the
 * page loads MSW's own browser build and the kit's browser bundle (npm run build:browser), fetches
 * the { spec, fixtures } values, and starts MSW's service worker with the mock behind it.
 */
function workerPage(call: { method: string; path: string }, key: string): string {
  return `<!DOCTYPE html><meta charset="utf-8"><title>app with MSW</title><pre id="result"></pre>
<script src="/msw.js"></script>
<script type="module">
  import { createContract, createMockHandler } from '/${BROWSER_BUNDLE_NAME}.js';
  const show = (value) => (document.getElementById('result').textContent = JSON.stringify(value));
  try {
    const values = await (await fetch('/${BROWSER_BUNDLE_NAME}.json')).json();
    const mock = createMockHandler({ contract: createContract(values.spec), fixtures: values.fixtures });
    const { setupWorker, http } = MockServiceWorker;
    const worker = setupWorker(http.all('/api/admin/*', ({ request }) => mock(request)));
    await worker.start({ quiet: true, onUnhandledRequest: 'bypass' });
    const remove = () => fetch(${JSON.stringify(call.path)}, { method: ${JSON.stringify(call.method)}, headers: { Authorization: ${JSON.stringify(key)} } });
    const first = await remove();
    const again = await remove();
    show({ statuses: [first.status, again.status], again: await again.json(), controlled: Boolean(navigator.serviceWorker.controller) });
  } catch (error) {
    show({ error: String(error) });
  }
</script>`;
}

let contract: Contract;
let site: StaticServer | undefined;
let outDir: string;
beforeAll(async () => {
  contract = await loadContract({ validate: false, lazyValidators: true });
  outDir = mkdtempSync(join(tmpdir(), 'flag-admin-browser-'));
  const bundle = await buildBrowserBundle(outDir);
  const call = exampleRequest(contract, contract.operation('deleteServiceAccountToken'));
  site = await serveStatic({
    '/': { type: 'text/html; charset=utf-8', body: workerPage(call, ADMIN_KEY) },
    // The worker script must come from the page's origin, at its root so its scope covers the page.
    '/mockServiceWorker.js': { type: 'text/javascript', body: msw('lib/mockServiceWorker.js') },
    '/msw.js': { type: 'text/javascript', body: msw('lib/iife/index.js') },
    [`/${BROWSER_BUNDLE_NAME}.js`]: { type: 'text/javascript', body: bundle.script },
    [`/${BROWSER_BUNDLE_NAME}.json`]: { type: 'application/json', body: bundle.values },
  });
}, 60_000);
afterAll(async () => {
  await site?.close();
  rmSync(outDir, { recursive: true, force: true });
});

describeInBrowser('the mock in MSW\'s service worker, in Chromium', (browser) => {
  it('answers a token delete 200, then 404 for the same delete: the mock keeps its state in the page', async () => {
    const page = await browser().newPage();
    try {
      await page.goto(`${site!.url}/`);
      const shown = await pageResult(page);
      expect(shown).toEqual({ statuses: [200, 404], again: expect.objectContaining({ name: 'NotFoundError' }), controlled: true });
      // The API calls never reached the network: MSW answered them in the browser.
      expect(site!.requested.filter((path) => path.startsWith('/api/'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
