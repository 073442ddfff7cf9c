import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { editJson, freshMock, serveRaw, toMockRequest } from '../../conformance/test/serve-target.ts';
import { loadContract, type Contract } from '../contract/index.ts';
import type { JournalEntry, RunningServer } from '../mock/index.ts';
import { startProxy, type ProxyLogLine, type RunningProxy } from './start-proxy.ts';
import { closedAfterEach } from '../../test/closed-after-each.ts';

/**
 * Issue 19, "evidence you can act on": what the proxy's journal, log and reports say must be
 * something a user can check and replay. Keys get a variable each ($KEY_1, ...) that the report
 * says the meaning of, so a curl line replays as the request went; identical findings are one
 * group; "request #N" is an entry of the journal; a changed answer shows what changed; a media
 * type is compared as RFC 9110 §8.3.1 says; what was not judged says so.
 */
const ADMIN_KEY = 'mock-admin-key';
const VIEWER_KEY = 'mock-viewer-key';
const GARBAGE = 'not-a-key-at-all';
const OIDC = '/api/admin/auth/oidc/settings';
const ENVIRONMENTS = '/api/admin/environments/project/default';

const contract: Contract = await loadContract({ validate: false });
const running = closedAfterEach();

/** The mock, writing `application/json; charset=utf-8` (RFC 9110 §8.3.1: the same media type as the spec's application/json). */
function charsetMock(): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveRaw((req, _, answer) => {
    const response = mock.handle(toMockRequest(req));
    answer(response.body === undefined ? response : { ...response, headers: { ...response.headers, 'content-type': 'application/json; charset=utf-8' } });
  });
}

/** Two defects: every 401 names the wrong error kind, and the OIDC client id counts the reads. */
function twoDefects(): Promise<RunningServer> {
  const mock = freshMock(contract);
  let reads = 0;
  return serveRaw((req, _, answer) => {
    const response = mock.handle(toMockRequest(req));
    if (response.status === 401) return answer(editJson(response, (body) => ({ ...body, name: 'Unauthorized' })));
    if (req.url === OIDC && response.status === 200) return answer(editJson(response, (body) => ({ ...body, clientId: `client-${++reads}` })));
    answer(response);
  });
}

async function through(backend: RunningServer, traffic: { path: string; key?: string }[]): Promise<{ proxy: RunningProxy; log: ProxyLogLine[] }> {
  running.push(backend);
  const log: ProxyLogLine[] = [];
  const proxy = await startProxy({ contract, port: 0, target: backend.url, onExchange: (line) => log.push(line) });
  running.push(proxy);
  for (const { path, key } of traffic) await (await fetch(proxy.url + path, { headers: key ? { authorization: key } : {} })).arrayBuffer();
  return { proxy, log };
}

const entriesOf = async (proxy: RunningProxy) => (JSON.parse(await (await fetch(`${proxy.url}/__mock/journal`)).text()) as { entries: JournalEntry[] }).entries;

describe('flag-admin proxy: evidence you can act on', () => {
  it('compares media types by type and parameters (RFC 9110 §8.3.1): application/json; charset=utf-8 keeps a spec that says application/json', async () => {
    const { proxy } = await through(await charsetMock(), [
      { path: ENVIRONMENTS, key: ADMIN_KEY },
      { path: OIDC, key: ADMIN_KEY },
      { path: OIDC, key: VIEWER_KEY },
      { path: OIDC },
    ]);
    const entries = await entriesOf(proxy);
    expect(entries.map((e) => [e.status, e.responseMatchesSpec, e.verdict])).toEqual([
      [200, true, 'conformant'],
      [200, true, 'conformant'],
      [403, true, 'conformant'],
      [401, true, 'conformant'],
    ]);
  });

  it('says "not judged" for a request outside the API, in the journal and the log alike', async () => {
    const { proxy, log } = await through(await charsetMock(), [{ path: '/api/admin/nothing/here', key: ADMIN_KEY }, { path: '/', key: ADMIN_KEY }]);
    expect((await entriesOf(proxy)).map((e) => e.verdict)).toEqual(['not judged', 'not judged']);
    expect(log.map((l) => l.verdict)).toEqual(['not judged', 'not judged']);
    const filtered = JSON.parse(await (await fetch(`${proxy.url}/__mock/journal?verdict=not%20judged`)).text()) as { entries: JournalEntry[] };
    expect(filtered.entries).toHaveLength(2);
  });

  describe('in front of a backend with two defects, read with three keys and none', () => {
    const round = [
      { path: ENVIRONMENTS, key: GARBAGE },
      { path: OIDC },
      { path: OIDC, key: ADMIN_KEY },
      { path: OIDC, key: VIEWER_KEY },
    ];
    const traffic = Array.from({ length: 5 }, () => round).flat();

    it('gives each key a variable of its own, says what it stands for, and a finding replays as it happened', async () => {
      const backend = await twoDefects();
      const { proxy } = await through(backend, traffic);
      const report = proxy.report();
      // One variable per key, in the order first seen; what each stands for names the request that first carried it.
      expect(report.keys.map((k) => k.variable)).toEqual(['KEY_1', 'KEY_2', 'KEY_3']);
      expect(report.keys[0]!.standsFor).toMatch(/authorization header of request #1\b/);
      expect(report.keys[0]!.standsFor).toContain('401');
      const garbage = report.findings.find((f) => f.checkId === 'error-kind-conformance' && f.curl.includes('$KEY_'))!;
      expect(garbage.curl).toContain('"authorization: $KEY_1"');
      expect(JSON.stringify(report)).not.toContain('FLAG_ADMIN_API_KEY');
      // Replayed with the variable set to the key it stands for, the same answer comes back.
      // The backend runs in this process: the replay must not block its event loop.
      const { stdout: status } = await promisify(execFile)('bash', ['-c', `${garbage.curl} -s -o /dev/null -w '%{http_code}'`], { env: { PATH: process.env.PATH, KEY_1: GARBAGE }, encoding: 'utf8' });
      expect(status).toBe('401');
      // The journal's findings use the same variables.
      const entries = await entriesOf(proxy);
      expect(entries.flatMap((e) => e.findings ?? []).some((f) => f.curl.includes('$KEY_1'))).toBe(true);
    });

    it('groups identical findings by rule and cause, with a count, and cites journal entries that exist', async () => {
      const { proxy } = await through(await twoDefects(), traffic);
      const report = JSON.parse(await (await fetch(`${proxy.url}/__mock/report`)).text()) as { findingGroups: { checkId: string; count: number }[]; findings: { message: string }[] };
      const kinds = report.findingGroups.filter((g) => g.checkId === 'error-kind-conformance');
      expect(kinds).toHaveLength(1);
      expect(kinds[0]!.count).toBe(10);
      const entries = await entriesOf(proxy);
      const cited = report.findings.flatMap((f) => [...f.message.matchAll(/request #(\d+)/g)].map((m) => Number(m[1])));
      expect(cited.length).toBeGreaterThan(0);
      // Only the changed OIDC answer cites an earlier request here: the admin key's first read of it.
      for (const seq of cited) expect(entries.find((e) => e.seq === seq), `request #${seq}`).toMatchObject({ path: OIDC, status: 200 });
      // The first OIDC read with the admin key is entry 3; a changed answer cites it.
      expect(entries.find((e) => e.seq === 3)).toMatchObject({ method: 'GET', path: OIDC, status: 200 });
    });

    it('shows what changed when the same read answers differently', async () => {
      const { proxy } = await through(await twoDefects(), traffic);
      const changed = proxy.report().findings.filter((f) => f.checkId === 'answers-agree');
      expect(changed.length).toBeGreaterThan(0);
      expect(changed[0]!.message).toContain('request #3');
      expect(changed[0]!.message).toContain('/clientId: "client-1" → "client-2"');
    });
  });
});

describe('flag-admin proxy: a key sent in the query instead of the header', () => {
  it('is the same variable as in the header, and the curl line sends it in the query again: the replay gets what the client got', async () => {
    // A backend that reads keys from ?apiKey= too (API §5 reads them from the header only): a request "without a key" answered 200.
    const mock = freshMock(contract);
    const backend = await serveRaw((req, _, answer) => {
      const url = new URL(req.url!, 'http://x');
      const key = url.searchParams.get('apiKey');
      url.searchParams.delete('apiKey');
      answer(mock.handle({ ...toMockRequest(req), url: url.pathname + url.search, headers: key ? { ...req.headers, authorization: key } : req.headers }));
    });
    const { proxy } = await through(backend, [
      { path: OIDC, key: ADMIN_KEY },
      { path: `${OIDC}?apiKey=${ADMIN_KEY}` },
    ]);
    const report = proxy.report();
    expect(report.keys).toEqual([{ variable: 'KEY_1', standsFor: 'the key first sent in the authorization header of request #1; answers it got: 200 ×2' }]);
    // Judged as the suite's own near-miss of the key placed in the query is.
    expect(report.findings.map((f) => f.checkId)).toEqual(['near-miss-key-rejected']);
    const finding = report.findings[0]!;
    expect(finding.curl).toContain('-G --data-urlencode "apiKey=$KEY_1"');
    expect(JSON.stringify(report)).not.toContain(ADMIN_KEY);
    const { stdout } = await promisify(execFile)('bash', ['-c', `${finding.curl} -s -o /dev/null -w '%{http_code}'`], { env: { PATH: process.env.PATH, KEY_1: ADMIN_KEY }, encoding: 'utf8' });
    expect(stdout).toBe('200');
  });
});
