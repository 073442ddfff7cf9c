import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../../../test/browser.ts';
import { exampleRequest } from '../../../test/example-requests.ts';
import { loadContract, type Contract } from '../../contract/index.ts';
import { startMock, type RunningMock } from '../index.ts';

let contract: Contract;
let mock: RunningMock;
beforeAll(async () => {
  contract = await loadContract({ validate: false, lazyValidators: true });
  mock = await startMock({ port: 0 });
});
afterAll(() => mock?.close());

describeInBrowser('the /docs reference in Chromium', (browser) => {
  it('lists the three operations and runs the environments read with try-it to a 200, loading nothing from elsewhere', async () => {
    const page = await browser().newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') blocked.push(message.text());
    });
    try {
      await page.goto(`${mock.url}/docs`);
      // Swagger UI shows each operation's operationId (displayOperationId) in its summary line.
      const shown = page.locator('.opblock .opblock-summary-operation-id');
      await shown.first().waitFor({ timeout: 15_000 });
      expect((await shown.allTextContents()).sort()).toEqual(contract.operations.map((o) => o.operationId).sort());

      const read = contract.operation('getProjectEnvironments');
      const block = page.locator('.opblock', { has: page.locator('.opblock-summary-operation-id', { hasText: new RegExp(`^${read.operationId}$`) }) });
      await block.locator('.opblock-summary').click();
      // Try-it is open (tryItOutEnabled), the path parameter holds the spec's example and the key is pre-authorized.
      await block.locator('button.execute').click();
      const status = block.locator('.live-responses-table tbody .response-col_status');
      await status.first().waitFor({ timeout: 10_000 });
      expect((await status.first().textContent())?.trim()).toBe('200');
      expect(await block.locator('.live-responses-table .response-col_description pre').first().textContent()).toContain('"environments"');

      const origin = new URL(mock.url).origin;
      expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
      expect(requested).toContain(`${origin}${exampleRequest(contract, read).path}`);
      expect(blocked.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
