import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../../../test/browser.ts';
import { ADMIN_KEY } from '../../../test/http.ts';
import { startMock, type RunningMock } from '../index.ts';

/**
 * DNS rebinding as a browser lives it: Chromium resolves `rebound.test` (RFC 2606) to 127.0.0.1,
 * as an attacker's name does once rebound, so a page of that name is same-origin with the mock
 * and its GETs carry no Origin header. Only its Host header tells it apart.
 */
const REBOUND = 'rebound.test';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(() => mock?.close());

describeInBrowser(
  'a page of a name rebound to this machine, in Chromium',
  (browser) => {
    /** What a page at `origin` reads with a same-origin fetch, and what its console said. */
    async function readFrom(origin: string, path: string): Promise<{ status: number; body: string; console: string[] }> {
      const page = await browser().newPage();
      const said: string[] = [];
      page.on('console', (message) => said.push(message.text()));
      try {
        await page.goto(`${origin}/docs`);
        await page.waitForFunction('window.ui !== undefined', undefined, { timeout: 15_000 });
        const read = (await page.evaluate(`fetch(${JSON.stringify(path)}).then(async (r) => ({ status: r.status, body: await r.text() }))`)) as { status: number; body: string };
        return { ...read, console: said };
      } finally {
        await page.close();
      }
    }

    it('cannot read the state or the journal, and its docs page gets no pre-filled key, while localhost can', async () => {
      const rebound = `http://${REBOUND}:${mock.port}`;
      for (const path of ['/__mock/state', '/__mock/journal', '/docs/init.js']) {
        const read = await readFrom(rebound, path);
        expect(read.body, path).not.toContain(ADMIN_KEY);
        if (path !== '/docs/init.js') {
          expect(read.status, path).toBe(403);
          expect(JSON.parse(read.body).message).toContain(`--allowed-host ${REBOUND}`);
        }
      }
      expect((await readFrom(rebound, '/__mock/state')).console.join('\n')).toContain('the API key is not pre-filled');

      const local = await readFrom(`http://localhost:${mock.port}`, '/__mock/state');
      expect(local.status).toBe(200);
      expect(local.body).toContain(ADMIN_KEY);
      expect(local.console.join('\n')).not.toContain('not pre-filled');
    });
  },
  [`--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`],
);
