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
  async function open(url: string): Promise<Page> {
    outside.length = 0;
    page = await browser().newPage({ viewport: { width: 1400, height: 800 } });
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

    await expect.poll(() => page.locator('#journal tbody tr').count(), { timeout: 2_000 }).toBeGreaterThanOrEqual(4);
    const shown = await page.locator('#journal tbody tr').count();
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

  it('on the proxy, shows each finding with its evidence', async () => {
    const target = await breakResponses(contract, (req, res) => (operationOf(contract, req) === 'getOidcSettings' && res.status === 200 ? editJson(res, (body) => ({ ...body, defaultRootRole: 'Owner' })) : res));
    const proxy = await startProxy({ contract, port: 0, target: target.url });
    try {
      await open(proxy.url);
      await call(proxy.url, 'GET', '/api/admin/environments/project/default', ADMIN_KEY);
      await call(proxy.url, 'GET', '/api/admin/auth/oidc/settings', ADMIN_KEY);
      await call(proxy.url, 'DELETE', '/api/admin/service-account/1/token/1');
      const finding = page.locator('#finding-list li', { hasText: 'response-schema-conformance' });
      await finding.waitFor({ timeout: 2_000 });
      expect(await finding.textContent()).toContain('/defaultRootRole');
      expect(await finding.locator('pre.curl').textContent()).toContain('$FLAG_ADMIN_API_KEY');
      await finding.locator('a').click();
      expect(JSON.parse((await page.locator('#entry-json').textContent())!)).toMatchObject({ operationId: 'getOidcSettings', verdict: 'not conformant' });
      expect(await rows(page)).toEqual([
        ['DELETE', '/api/admin/service-account/1/token/1', '401', 'conformant'],
        ['GET', '/api/admin/auth/oidc/settings', '200', 'not conformant (1)'],
        ['GET', '/api/admin/environments/project/default', '200', 'conformant'],
      ]);
      expect(await page.content()).not.toContain(ADMIN_KEY);
      await page.screenshot({ path: `${REPORTS}dashboard-proxy.png`, fullPage: true });
    } finally {
      await proxy.close();
      await target.close();
    }
  });
});
