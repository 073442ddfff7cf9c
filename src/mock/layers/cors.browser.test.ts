import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, pageResult } from '../../../test/browser.ts';
import { exampleRequests } from '../../../test/example-requests.ts';
import { ADMIN_KEY } from '../../../test/http.ts';
import { serveStatic, type StaticServer } from '../../../test/static-server.ts';
import { loadContract, type Contract } from '../../contract/index.ts';
import { startMock, type RunningMock } from '../index.ts';

/**
 * A web app on one origin calling the mock on another with an Authorization header: the case
 * that failed in the browser before (issue 6: the preflight got 405 and every fetch threw).
 * The page does what an app does: fetch with the key, read the status; it shows the outcome.
 */
function appPage(mockUrl: string, calls: { method: string; path: string }[], key: string): string {
  return `<!DOCTYPE html><meta charset="utf-8"><title>app</title><pre id="result"></pre>
<script type="module">
  const outcomes = [];
  for (const call of ${JSON.stringify(calls)}) {
    try {
      const response = await fetch(${JSON.stringify(mockUrl)} + call.path, { method: call.method, headers: { Authorization: ${JSON.stringify(key)} } });
      outcomes.push(response.status);
    } catch (error) {
      outcomes.push(String(error));
    }
  }
  document.getElementById('result').textContent = JSON.stringify(outcomes);
</script>`;
}

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract({ validate: false, lazyValidators: true });
});

describeInBrowser('a page on another origin calling the mock', (browser) => {
  const servers: { close(): Promise<void> }[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  async function openApp(mock: RunningMock): Promise<unknown[]> {
    const calls = exampleRequests(contract);
    const site: StaticServer = await serveStatic({ '/': { type: 'text/html; charset=utf-8', body: appPage(mock.url, calls, ADMIN_KEY) } });
    servers.push(site);
    expect(new URL(site.url).origin).not.toBe(new URL(mock.url).origin);
    const page = await browser().newPage();
    try {
      await page.goto(`${site.url}/`);
      return (await pageResult(page)) as unknown[];
    } finally {
      await page.close();
    }
  }

  it('reads the documented success of all three operations with the default key', async () => {
    const mock = await startMock({ port: 0 });
    servers.push(mock);
    const documentedSuccess = contract.operations.map((operation) => Number([...operation.responses.keys()].find((status) => status.startsWith('2'))));
    expect(await openApp(mock)).toEqual(documentedSuccess);
  });

  it('fails in the browser as before when CORS is off (--no-cors): the preflight is refused and fetch throws', async () => {
    const mock = await startMock({ port: 0, cors: false });
    servers.push(mock);
    expect(await openApp(mock)).toEqual(contract.operations.map(() => 'TypeError: Failed to fetch'));
  });
});
