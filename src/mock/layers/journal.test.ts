import { describe, expect, it } from 'vitest';
import { ADMIN_KEY, VIEWER_KEY, paths, sessionHeader as session, useMockClient } from '../../../test/http.ts';
import type { JournalEntry } from '../index.ts';
import { controlContract } from './control.ts';
import { keysOutsideTheHeader, sendTargets } from '../../../test/keys-outside-the-header.ts';
import { DEFAULT_FIXTURES } from '../index.ts';

const mocks = useMockClient();
const start = mocks.start;

async function journal(query = '', headers: Record<string, string> = {}): Promise<JournalEntry[]> {
  const answer = await mocks.client.call('GET', `/__mock/journal${query}`, undefined, headers);
  expect(answer.status).toBe(200);
  expect(controlContract.operation('getJournal').responses.get('200')!.validate(answer.json)).toEqual([]);
  return answer.json.entries;
}

describe('the request journal', () => {
  it('records time, method, path, operationId, status, duration, session and whether a key came, never the key', async () => {
    const { call } = await start({ now: () => Date.parse('2026-11-22T08:00:00.000Z') });
    await call('GET', `${paths.environments('default')}?q=1`, ADMIN_KEY);
    await call('DELETE', paths.token('1', '1'));
    const entries = await journal();
    expect(entries).toEqual([
      { seq: 1, time: '2026-11-22T08:00:00.000Z', method: 'GET', path: '/api/admin/environments/project/default?q=1', operationId: 'getProjectEnvironments', status: 200, durationMs: expect.any(Number), session: 'default', keyPresent: true, requestMatchesSpec: true, responseMatchesSpec: true, verdict: 'conformant' },
      { seq: 2, time: '2026-11-22T08:00:00.000Z', method: 'DELETE', path: '/api/admin/service-account/1/token/1', operationId: 'deleteServiceAccountToken', status: 401, durationMs: expect.any(Number), session: 'default', keyPresent: false, requestMatchesSpec: false, responseMatchesSpec: true, verdict: 'conformant' },
    ]);
    expect(JSON.stringify(entries)).not.toContain(ADMIN_KEY);
  });

  it('never records a key sent in userinfo, the query, a path segment or the fragment, of the default state or of the session\'s own', async () => {
    const { call, mock } = await start();
    const own = 'sessi0n-only-key-4711';
    const state = { ...structuredClone(DEFAULT_FIXTURES), apiKeys: [{ key: own, permissions: ['*'] }] };
    expect((await call('PUT', '/__mock/state', undefined, session('own'), JSON.stringify(state))).status).toBe(204);
    const path = paths.environments('default');
    await sendTargets(mock.port, keysOutsideTheHeader(ADMIN_KEY, mock.port, path), { authorization: ADMIN_KEY });
    await sendTargets(mock.port, keysOutsideTheHeader(own, mock.port, path), { authorization: own, 'x-mock-session': 'own' });
    for (const [entries, key] of [[await journal(), ADMIN_KEY], [await journal('', session('own')), own]] as const) {
      expect(entries.map((e) => e.status)).toEqual([...Array(7).fill(200), 404, 404, 200]);
      expect(entries.map((e) => e.path)).toEqual([
        `http://127.0.0.1:${mock.port}${path}?page=1`,
        `http://localhost:${mock.port}${path}`,
        `${path}?api_key=<redacted>&page=1`,
        `${path}?q=<redacted>&page=2`,
        `${path}?token=<redacted>`,
        `${path}?<redacted>`,
        `${path}?authorization=<redacted>`,
        `${path}/<redacted>`,
        `${path}/<redacted>/x`,
        `${path}?page=4#<redacted>`,
      ]);
      expect(JSON.stringify(entries)).not.toContain(key.slice(0, 8));
      expect(JSON.stringify(entries)).not.toContain('an-unknown-secret');
    }
    // A query that holds no key, nor 8 consecutive characters of one (the redactor's SUBSTRING_MIN), is recorded as sent.
    await call('GET', `${path}?q=mock-ad1min&page=3`, ADMIN_KEY);
    expect((await journal()).at(-1)!.path).toBe(`${path}?q=mock-ad1min&page=3`);
    await call('GET', `${path}?q=mock-admin&page=3`, ADMIN_KEY);
    expect((await journal()).at(-1)!.path).toBe(`${path}?q=<redacted>&page=3`);
  });

  it('finds a key in a long query as soon with a thousand keys of a thousand lengths (one 8 kB value took 8 s: each slice hashed)', async () => {
    const { call, mock } = await start();
    const keys = Array.from({ length: 1000 }, (_, i) => `${'k'.repeat(20 + i)}-${i}`);
    const state = { ...structuredClone(DEFAULT_FIXTURES), apiKeys: [...DEFAULT_FIXTURES.apiKeys, ...keys.map((key) => ({ key, permissions: ['*'] }))] };
    expect((await call('PUT', '/__mock/state', undefined, {}, JSON.stringify(state))).status).toBe(204);
    const path = paths.environments('default');
    // Two values of 8,000 characters, one holding the longest key: each is searched as sent and percent-decoded.
    await sendTargets(mock.port, [`${path}?a=${'k'.repeat(8000)}&b=${'k'.repeat(6000)}${keys.at(-1)}`], { authorization: ADMIN_KEY });
    const [entry] = await journal();
    // Runs of k are 8 consecutive characters of every key here: the one redactor (conformance/report/secret-redactor.ts) redacts both.
    expect(entry!.path).toBe(`${path}?a=<redacted>&b=<redacted>`);
  });

  it('says when a request is outside the spec', async () => {
    const { call } = await start();
    await call('GET', '/api/admin/nothing', ADMIN_KEY);
    await call('POST', paths.oidc(), ADMIN_KEY);
    expect((await journal()).map((e) => [e.operationId, e.status, e.requestMatchesSpec])).toEqual([
      [null, 404, false],
      [null, 405, false],
    ]);
  });

  it('filters by operationId, status and since', async () => {
    let clock = Date.parse('2026-11-22T08:00:00Z');
    const { call } = await start({ now: () => clock });
    await call('GET', paths.oidc(), ADMIN_KEY);
    clock += 60_000;
    await call('GET', paths.oidc(), VIEWER_KEY);
    await call('GET', paths.environments('default'), VIEWER_KEY);
    expect((await journal('?operationId=getOidcSettings')).map((e) => e.status)).toEqual([200, 403]);
    expect((await journal('?status=403')).map((e) => e.operationId)).toEqual(['getOidcSettings']);
    expect((await journal('?since=2026-11-22T08:00:30Z')).map((e) => e.seq)).toEqual([2, 3]);
    expect((await journal('?operationId=getOidcSettings&status=200&since=2026-11-22T08:00:30Z'))).toEqual([]);
  });

  it('refuses a filter it cannot use, naming it and what was expected', async () => {
    const { call } = await start();
    const answer = await call('GET', '/__mock/journal?status=teapot');
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe('GET /__mock/journal#/status: expected an HTTP status from 100 to 599, got "teapot"');
    expect((await call('GET', '/__mock/journal?operationId=listFlags')).json.expected).toContain('getProjectEnvironments, getOidcSettings, deleteServiceAccountToken');
    expect((await call('GET', '/__mock/journal?since=yesterday')).status).toBe(400);
    expect((await call('GET', '/__mock/journal?verdict=bad')).json.message).toBe('GET /__mock/journal#/verdict: expected "conformant" or "not conformant" or "not judged", got "bad"');
  });

  it('filters by verdict: the mock\'s own answers keep the spec', async () => {
    const { call } = await start();
    await call('GET', paths.oidc(), ADMIN_KEY);
    await call('GET', paths.oidc());
    expect((await journal('?verdict=conformant')).map((e) => e.status)).toEqual([200, 401]);
    expect(await journal('?verdict=not%20conformant')).toEqual([]);
  });

  it('keeps a journal per session, and clears one session only', async () => {
    const { call } = await start();
    await call('GET', paths.oidc(), ADMIN_KEY, session('a'));
    await call('GET', paths.oidc(), ADMIN_KEY, session('b'));
    await call('GET', paths.oidc(), ADMIN_KEY, session('b'));
    expect((await journal('', session('a'))).map((e) => e.session)).toEqual(['a']);
    expect(await journal()).toEqual([]);
    expect((await call('DELETE', '/__mock/journal', undefined, session('b'))).status).toBe(204);
    expect(await journal('', session('b'))).toEqual([]);
    expect(await journal('', session('a'))).toHaveLength(1);
  });

  it('is bounded: the oldest entries go first', async () => {
    const { call } = await start({ journalSize: 3 });
    for (let i = 0; i < 5; i++) await call('GET', paths.environments(`p${i}`), ADMIN_KEY);
    const answer = await call('GET', '/__mock/journal');
    expect(answer.json.capacity).toBe(3);
    expect(answer.json.entries.map((e: JournalEntry) => e.path)).toEqual(['/api/admin/environments/project/p2', '/api/admin/environments/project/p3', '/api/admin/environments/project/p4']);
  });

  it('does not record the control API itself', async () => {
    const { call } = await start();
    await call('POST', '/__mock/reset');
    await call('GET', '/__mock/state');
    expect(await journal()).toEqual([]);
  });
});
