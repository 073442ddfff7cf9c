import { describe, expect, it } from 'vitest';
import { breakResponses } from '../../conformance/test/serve-target.ts';
import { loadContract, type Contract } from '../contract/index.ts';
import type { JournalEntry, MockResponse, RunningServer } from '../mock/index.ts';
import { startProxy } from './start-proxy.ts';
import { closedAfterEach } from '../../test/closed-after-each.ts';

/**
 * The date rules (conformance/judge/rules/http-dates.ts, spec decision http-dates) judge each
 * answer on its own, so they run on live traffic too: a backend's Date and Last-Modified are
 * judged as it sent them, through the proxy, with no plan. A backend whose Last-Modified is "now"
 * (node:http's Date is cached for up to a second) and whose Expires is a date keeps them.
 */
const ADMIN_KEY = 'mock-admin-key';
const OIDC = '/api/admin/auth/oidc/settings';
const ENVIRONMENTS = '/api/admin/environments/project/default';

const contract: Contract = await loadContract({ validate: false });
const running = closedAfterEach();

/** The mock with `headers` added to every 200 (node:http still writes its own Date unless one is given). */
const withHeaders = (headers: () => Record<string, string>) => breakResponses(contract, (_, res): MockResponse => (res.status === 200 ? { ...res, headers: { ...res.headers, ...headers() } } : res));

async function judged(backend: RunningServer): Promise<JournalEntry[]> {
  running.push(backend);
  const proxy = await startProxy({ contract, port: 0, target: backend.url });
  running.push(proxy);
  for (const path of [ENVIRONMENTS, OIDC, OIDC]) await (await fetch(proxy.url + path, { headers: { authorization: ADMIN_KEY } })).arrayBuffer();
  return (JSON.parse(await (await fetch(`${proxy.url}/__mock/journal`)).text()) as { entries: JournalEntry[] }).entries;
}

const checksOf = (entries: JournalEntry[]) => entries.map((e) => (e.findings ?? []).map((f) => `${f.checkId} ${f.severity}`));

describe('flag-admin proxy: HTTP-date fields on live traffic', () => {
  it('keeps a backend whose Last-Modified is now and whose Expires is a date in the past', async () => {
    const entries = await judged(await withHeaders(() => ({ 'last-modified': new Date().toUTCString(), expires: 'Thu, 01 Jan 1970 00:00:00 GMT' })));
    expect(entries.map((e) => e.verdict)).toEqual(['conformant', 'conformant', 'conformant']);
  });

  it('reports a Last-Modified later than its Date and a Date in ISO 8601 as errors, an asctime Date as a warning', async () => {
    const later = await judged(await withHeaders(() => ({ date: new Date().toUTCString(), 'last-modified': new Date(Date.now() + 3_600_000).toUTCString() })));
    expect(checksOf(later)).toEqual([['http-dates-valid error'], ['http-dates-valid error'], ['http-dates-valid error']]);
    const iso = await judged(await withHeaders(() => ({ date: new Date().toISOString() })));
    expect(checksOf(iso)).toEqual([['http-dates-valid error'], ['http-dates-valid error'], ['http-dates-valid error']]);
    const asctime = await judged(await withHeaders(() => ({ date: 'Sun Nov  6 08:49:37 1994' })));
    expect(checksOf(asctime)).toEqual([['http-dates-imf-fixdate warning'], ['http-dates-imf-fixdate warning'], ['http-dates-imf-fixdate warning']]);
  });
});
