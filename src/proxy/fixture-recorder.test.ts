import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../contract/index.ts';
import { loadFixtures, startMock, type RunningServer } from '../mock/index.ts';
import { SECRET_PLACEHOLDER } from './fixture-recorder.ts';
import { startProxy } from './start-proxy.ts';

const ADMIN_KEY = 'mock-admin-key';
const VIEWER_KEY = 'mock-viewer-key';

const READS = [
  { path: '/api/admin/environments/project/default', key: ADMIN_KEY },
  { path: '/api/admin/environments/project/mobile-app', key: ADMIN_KEY },
  { path: '/api/admin/environments/project/no-such-project', key: ADMIN_KEY },
  { path: '/api/admin/auth/oidc/settings', key: ADMIN_KEY },
  { path: '/api/admin/auth/oidc/settings', key: VIEWER_KEY },
  { path: '/api/admin/environments/project/default', key: VIEWER_KEY },
  { path: '/api/admin/auth/oidc/settings', key: undefined },
];

let contract: Contract;
const running: RunningServer[] = [];
beforeAll(async () => {
  contract = await loadContract({ validate: false });
});
afterEach(async () => {
  for (const server of running.splice(0).reverse()) await server.close();
});

/** An answer as a client compares it: status and body, with error ids (fresh per answer) and secret values (never recorded) masked. */
async function read(base: string, path: string, key: string | undefined, method = 'GET'): Promise<{ status: number; body: unknown }> {
  const response = await fetch(base + path, { method, headers: key ? { authorization: key } : {} });
  const text = await response.text();
  const body = text ? JSON.parse(text) : undefined;
  if (body && typeof body === 'object') {
    if ('id' in body && 'name' in body && 'message' in body) body.id = '(error id)';
    for (const name of contract.secretProperties) if (name in body) body[name] = '(secret)';
  }
  return { status: response.status, body };
}

describe('flag-admin proxy --record', () => {
  it('records the mock through the proxy into a fixture that a second mock serves with the same answers to the same requests', async () => {
    const original = await startMock({ port: 0 });
    running.push(original);
    const file = join(mkdtempSync(join(tmpdir(), 'flag-admin-record-')), 'recorded.json');
    const proxy = await startProxy({ contract, port: 0, target: original.url, record: file });
    const first = [];
    for (const r of READS) first.push(await read(proxy.url, r.path, r.key));
    const deleted = await read(proxy.url, '/api/admin/service-account/1/token/1', ADMIN_KEY, 'DELETE');
    expect(deleted.status).toBe(200);
    await proxy.close();

    const recorded = JSON.parse(readFileSync(file, 'utf8'));
    // A file the mock loads: checked against fixtures/fixture.schema.json and the spec's schemas (throws otherwise).
    expect(() => loadFixtures(contract, file)).not.toThrow();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(ADMIN_KEY);
    expect(text).not.toContain(VIEWER_KEY);
    const secret = original.store.oidcSettings().secret;
    expect(secret).toBeTruthy();
    expect(text).not.toContain(secret);
    expect(recorded.oidcSettings.secret).toBe(SECRET_PLACEHOLDER);
    expect(recorded.description).toContain('cannot be seen');

    // The keys are placeholders: the first key seen (admin) and the second (viewer), in that order.
    const [admin, viewer] = recorded.apiKeys as { key: string; permissions: string[] }[];
    expect(admin!.permissions.sort()).toEqual(['deleteServiceAccountToken', 'getOidcSettings', 'getProjectEnvironments']);
    expect(viewer!.permissions).toEqual(['getProjectEnvironments']);
    const placeholder: Record<string, string> = { [ADMIN_KEY]: admin!.key, [VIEWER_KEY]: viewer!.key };

    const replay = await startMock({ port: 0, fixtures: file });
    running.push(replay);
    for (const [i, r] of READS.entries()) expect(await read(replay.url, r.path, r.key && placeholder[r.key]), `${r.path} with ${r.key ?? 'no key'}`).toEqual(first[i]);
    // The token the traffic deleted is there as it was before the delete.
    expect(await read(replay.url, '/api/admin/service-account/1/token/1', admin!.key, 'DELETE')).toEqual(deleted);
  });

  it('invents nothing the traffic did not show: no reads, no projects, no OIDC settings but an empty object, and says so', async () => {
    const original = await startMock({ port: 0 });
    running.push(original);
    const proxy = await startProxy({ contract, port: 0, target: original.url, record: join(mkdtempSync(join(tmpdir(), 'flag-admin-record-')), 'r.json') });
    await read(proxy.url, '/api/admin/environments/project/no-such-project', ADMIN_KEY);
    await proxy.close();
    const { state } = proxy.recording()!;
    expect(state.projects).toEqual([]);
    expect(state.environments).toEqual([]);
    expect(state.serviceAccounts).toEqual([]);
    expect(state.oidcSettings).toEqual({});
    expect(state.description).toContain('OIDC settings: never read through the proxy');
  });
});
