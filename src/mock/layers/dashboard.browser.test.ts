import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../../../test/browser.ts';
import { breakResponses, editJson, operationOf } from '../../../conformance/test/serve-target.ts';
import { loadContract, type Contract } from '../../contract/index.ts';
import { startProxy } from '../../proxy/start-proxy.ts';
import { startMock, type RunningMock } from '../index.ts';

const ADMIN_KEY = 'mock-admin-key';
const REPORTS = fileURLToPath(new URL('../../../reports/', import.meta.url));

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract({ validate: false, lazyValidators: true });
  mkdirSync(REPORTS, { recursive: true });
});

const call = (base: string, method: string, path: string, key?: string) => fetch(base + path, { method, headers: key ? { authorization: key } : {} }).then((r) => r.status);

/** The rows the journal table shows, newest first: [method, path, status, verdict]. */
async function rows(page: Page): Promise<string[][]> {
  return page.$$eval('#journal tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].filter((_, i) => [2, 3, 5, 8].includes(i)).map((td) => td.textContent ?? '')));
}

describeInBrowser('the dashboard at /__mock/ui in Chromium', (browser) => {
  let mock: RunningMock;
  let page: Page;
  const outside: string[] = [];
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
  });
  afterAll(() => mock?.close());
  afterEach(async () => {
    // Served from the package: nothing from another origin, no CSP violation.
    expect(outside).toEqual([]);
    await page?.close();
  });
  async function open(url: string, viewport = { width: 1400, height: 800 }): Promise<Page> {
    outside.length = 0;
    page = await browser().newPage({ viewport });
    page.on('request', (request) => new URL(request.url()).origin !== new URL(url).origin && outside.push(request.url()));
    page.on('console', (message) => /Content Security Policy/i.test(message.text()) && outside.push(message.text()));
    await page.goto(`${url}/__mock/ui`);
    await page.locator('#status', { hasText: 'live' }).waitFor({ timeout: 5_000 });
    return page;
  }

  it('shows a new request within a second, without a reload, and its details on a click', async () => {
    await fetch(`${mock.url}/__mock/journal`, { method: 'DELETE' });
    await open(mock.url);
    const sent = performance.now();
    await call(mock.url, 'GET', '/api/admin/environments/project/default', ADMIN_KEY);
    await page.locator('#journal tbody tr', { hasText: '/api/admin/environments/project/default' }).waitFor({ timeout: 1_000 });
    expect(performance.now() - sent).toBeLessThan(1_000);
    await page.locator('#journal tbody tr').first().click();
    const details = JSON.parse((await page.locator('#entry-json').textContent())!);
    expect(details).toMatchObject({ method: 'GET', path: '/api/admin/environments/project/default', operationId: 'getProjectEnvironments', status: 200, keyPresent: true, verdict: 'conformant' });
    expect(await page.content()).not.toContain(ADMIN_KEY);
  });

  it('filters by operation, status, session and verdict', async () => {
    await open(mock.url);
    await call(mock.url, 'GET', '/api/admin/auth/oidc/settings', ADMIN_KEY);
    await call(mock.url, 'GET', '/api/admin/auth/oidc/settings');
    await fetch(`${mock.url}/api/admin/environments/project/default`, { headers: { authorization: ADMIN_KEY, 'x-mock-session': 'alice' } });
    await page.selectOption('#filter-operation', 'getOidcSettings');
    await page.fill('#filter-status', '401');
    await expect.poll(() => rows(page), { timeout: 2_000 }).toEqual([['GET', '/api/admin/auth/oidc/settings', '401', 'conformant']]);
    await page.fill('#filter-status', '');
    await page.selectOption('#filter-operation', '');
    await page.selectOption('#filter-verdict', 'not conformant');
    await expect.poll(() => rows(page), { timeout: 2_000 }).toEqual([]);
    await page.selectOption('#filter-verdict', '');
    await page.locator('#filter-session option[value="alice"]').waitFor({ state: 'attached', timeout: 2_000 });
    await page.selectOption('#filter-session', 'alice');
    await expect.poll(() => rows(page), { timeout: 2_000 }).toEqual([['GET', '/api/admin/environments/project/default', '200', 'conformant']]);
  });

  it('adds a sticky rule with the form that changes the next answers, and resets a session', async () => {
    await open(mock.url);
    await page.selectOption('#rule-operation', 'deleteServiceAccountToken');
    await page.fill('#rule-code', '403');
    await page.fill('#rule-count', '2');
    await page.click('#rule-form button[type=submit]');
    await page.locator('#rule-list li', { hasText: 'deleteServiceAccountToken: answer 403 (next 2)' }).waitFor({ timeout: 2_000 });
    const token = '/api/admin/service-account/1/token/1';
    expect([await call(mock.url, 'DELETE', token, ADMIN_KEY), await call(mock.url, 'DELETE', token, ADMIN_KEY), await call(mock.url, 'DELETE', token, ADMIN_KEY), await call(mock.url, 'DELETE', token, ADMIN_KEY)]).toEqual([403, 403, 200, 404]);
    // A rule the spec cannot honour is refused, and the form says why.
    await page.fill('#rule-code', '418');
    await page.fill('#rule-count', '');
    await page.click('#rule-form button[type=submit]');
    await expect.poll(() => page.locator('#rule-error').textContent(), { timeout: 2_000 }).toContain('a status or example the operation documents');

    // Every entry the journal holds is shown before the count is taken (the page polls; a count taken mid-way races it).
    const held = ((await (await fetch(`${mock.url}/__mock/journal`)).json()) as { entries: unknown[] }).entries.length;
    await expect.poll(() => page.locator('#journal tbody tr').count(), { timeout: 2_000 }).toBe(held);
    const shown = held;
    await page.click('#session-list li[data-session="default"] button.reset');
    await page.locator('#session-list li[data-session="default"]', { hasText: 'reset to the fixtures at' }).waitFor({ timeout: 2_000 });
    expect(await call(mock.url, 'DELETE', token, ADMIN_KEY)).toBe(200);
    await expect.poll(() => page.locator('#journal tbody tr').count(), { timeout: 1_000 }).toBe(shown + 1);
    expect(await page.locator('#journal tbody tr').first().locator('td.status').textContent()).toBe('200');
    await page.screenshot({ path: `${REPORTS}dashboard-mock.png`, fullPage: true });
  });

  it('with a control token, works when the page is opened with it in the fragment, and shows the refusal without it', async () => {
    const guarded = await startMock({ port: 0, controlToken: 'dashboard-token' });
    try {
      await call(guarded.url, 'GET', '/api/admin/auth/oidc/settings', ADMIN_KEY);
      outside.length = 0;
      page = await browser().newPage();
      await page.goto(`${guarded.url}/__mock/ui`);
      await page.locator('#status', { hasText: 'control token' }).waitFor({ timeout: 5_000 });
      await page.goto(`${guarded.url}/__mock/ui#token=dashboard-token`);
      await page.locator('#journal tbody tr', { hasText: '/api/admin/auth/oidc/settings' }).waitFor({ timeout: 5_000 });
      // The token leaves the address bar at once: no screenshot, bookmark or shared link carries it.
      expect(page.url()).toBe(`${guarded.url}/__mock/ui`);
    } finally {
      await guarded.close();
    }
  });

  it('on the proxy at 1280 px: findings grouped by rule and cause with counts, first and last, errors and warnings apart, keys explained, paths on one line', async () => {
    // Two defects: every 401 names the wrong error kind (an error, once per request), the OIDC client id counts the reads (a warning).
    let reads = 0;
    const target = await breakResponses(contract, (req, res) => {
      if (res.status === 401) return editJson(res, (body) => ({ ...body, name: 'Unauthorized' }));
      if (operationOf(contract, req) === 'getOidcSettings' && res.status === 200) return editJson(res, (body) => ({ ...body, clientId: `client-${++reads}` }));
      return res;
    });
    const proxy = await startProxy({ contract, port: 0, target: target.url });
    try {
      await open(proxy.url, { width: 1280, height: 800 });
      for (let i = 0; i < 6; i++) {
        await call(proxy.url, 'GET', '/api/admin/environments/project/default', 'not-a-key');
        await call(proxy.url, 'GET', '/api/admin/auth/oidc/settings', ADMIN_KEY);
      }
      await call(proxy.url, 'GET', '/api/admin/nothing/here', ADMIN_KEY);
      const kinds = page.locator('#finding-list li.group.error', { hasText: 'error-kind-conformance' });
      // Once the last request is in, everything before it is too.
      await expect.poll(async () => (await rows(page))[0], { timeout: 3_000 }).toEqual(['GET', '/api/admin/nothing/here', '404', 'not judged']);
      await expect.poll(() => kinds.locator('.count').textContent(), { timeout: 2_000 }).toBe('×6');
      expect(await page.locator('#finding-list li.group').count()).toBe(2);
      // First and last link to their journal entries; the evidence holds a curl line with the key's own variable.
      expect(await kinds.locator('dd.first').textContent()).toBe('#1 GET /api/admin/environments/project/default');
      expect(await kinds.locator('dd.last').textContent()).toBe('#11 GET /api/admin/environments/project/default');
      expect(await kinds.locator('pre.curl').textContent()).toContain('"authorization: $KEY_1"');
      expect(await page.locator('#key-list').textContent()).toContain('$KEY_1the key first sent in the authorization header of request #1; answers it got: 401 ×6');
      const changed = page.locator('#finding-list li.group.warning', { hasText: 'answers-agree' });
      await expect.poll(() => changed.locator('.count').textContent(), { timeout: 2_000 }).toBe('×5');
      expect(await changed.locator('.finding p').first().textContent()).toContain('request #2');
      expect(await changed.locator('.finding p').first().textContent()).toContain('/clientId: "client-1" → "client-2"');
      await changed.locator('dd.first a').click();
      expect(JSON.parse((await page.locator('#entry-json').textContent())!)).toMatchObject({ seq: 4, operationId: 'getOidcSettings', verdict: 'conformant' });
      // At 1280 px every path of the journal stays on one line.
      const lines = await page.$$eval('#journal tbody td.path', (cells) =>
        cells.map((td) => {
          // The number of line boxes the path's text takes (the test's tsconfig has no DOM types: the page's document, typed here).
          const range = (td.ownerDocument as unknown as { createRange(): { selectNodeContents(node: unknown): void; getClientRects(): { length: number } } }).createRange();
          range.selectNodeContents(td);
          return range.getClientRects().length;
        }),
      );
      expect(lines.length).toBe(13);
      expect(Math.max(...lines)).toBe(1);
      await page.screenshot({ path: `${REPORTS}dashboard-proxy.png`, fullPage: true });
      // Warnings apart from errors: the filter keeps the warning group and the rows that hold a warning.
      await page.selectOption('#filter-severity', 'warning');
      await expect.poll(() => page.locator('#finding-list li.group').count(), { timeout: 2_000 }).toBe(1);
      expect(await page.locator('#finding-list li.group.warning').count()).toBe(1);
      expect(new Set((await rows(page)).map((r) => r[1]))).toEqual(new Set(['/api/admin/auth/oidc/settings']));
      await page.selectOption('#filter-severity', 'error');
      await expect.poll(() => page.locator('#finding-list li.group.error').count(), { timeout: 2_000 }).toBe(1);
      expect(await page.locator('#finding-list li.group.warning').count()).toBe(0);
      expect(await page.content()).not.toContain(ADMIN_KEY);
      expect(await page.content()).not.toContain('not-a-key');
    } finally {
      await proxy.close();
      await target.close();
    }
  });
});
