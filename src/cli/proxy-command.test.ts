import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useCliProcesses } from '../../test/cli-process.ts';
import { breakResponses } from '../../conformance/test/serve-target.ts';
import { serveSilent } from '../../test/unusual-backends.ts';
import { loadContract } from '../contract/index.ts';
import { startMock, type RunningServer } from '../mock/index.ts';
import { tempDir } from '../../test/temp-dir.ts';

const ADMIN_KEY = 'mock-admin-key';
const run = useCliProcesses({ PATH: process.env.PATH ?? '' });
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe('flag-admin proxy', () => {
  it('forwards, logs each verdict without the key, and on SIGTERM writes the reports and the recording and exits 1 on a finding', async () => {
    const contract = await loadContract({ validate: false });
    // One defect: a missing project is answered 200 with a body of the wrong shape.
    const target = await breakResponses(contract, (req, res) => (req.url.includes('no-such') ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"environments":"none"}' } : res));
    servers.push(target);
    const dir = tempDir('flag-admin-proxy-cli-');
    const files = { json: join(dir, 'reports', 'proxy.json'), junit: join(dir, 'reports', 'proxy.xml'), record: join(dir, 'recorded.json') };
    const proxy = run(['proxy', '--target', target.url, '--port', '0', '--json', files.json, '--junit', files.junit, '--record', files.record]);
    const [, url] = (await proxy.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+), forwarding to/))!;
    expect((await fetch(`${url}/api/admin/environments/project/default`, { headers: { authorization: ADMIN_KEY } })).status).toBe(200);
    expect((await fetch(`${url}/api/admin/environments/project/no-such`, { headers: { authorization: ADMIN_KEY } })).status).toBe(200);
    await proxy.waitFor(/GET \/api\/admin\/environments\/project\/no-such 200 .* verdict=not-conformant findings=response-schema-conformance/);
    expect(proxy.out()).toMatch(/GET \/api\/admin\/environments\/project\/default 200 .*key=present verdict=conformant\n/);
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(1);

    const report = JSON.parse(readFileSync(files.json, 'utf8'));
    expect(report).toMatchObject({ tool: 'flag-admin proxy', verdict: 'not conformant', summary: { requests: 2, errors: 2 } });
    expect(readFileSync(files.junit, 'utf8')).toContain('type="response-schema-conformance"');
    const recorded = readFileSync(files.record, 'utf8');
    const placeholder = JSON.parse(recorded).apiKeys[0].key as string;
    // The placeholder key is printed once, on stderr; the real key nowhere.
    expect(proxy.err().split(placeholder)).toHaveLength(2);
    for (const text of [proxy.out(), proxy.err(), recorded, readFileSync(files.json, 'utf8'), readFileSync(files.junit, 'utf8')]) expect(text).not.toContain(ADMIN_KEY);
  });

  it('refuses a run without --target, and a target with credentials in it, without echoing them', async () => {
    const missing = run(['proxy', '--port', '0']);
    expect(await missing.exited).toBe(2);
    expect(missing.err()).toContain('--target URL is required');
    const withKey = run(['proxy', '--target', 'http://user:sekrit-key@127.0.0.1:1']);
    expect(await withKey.exited).toBe(2);
    expect(withKey.err()).toContain('must not carry credentials');
    expect(withKey.err()).not.toContain('sekrit-key');
  });

  it('serves the mock it recorded: flag-admin mock --fixtures on the recording', async () => {
    const original = await startMock({ port: 0 });
    servers.push(original);
    const dir = tempDir('flag-admin-proxy-cli-');
    const record = join(dir, 'recorded.json');
    const proxy = run(['proxy', '--target', original.url, '--port', '0', '--record', record, '--quiet']);
    const [, url] = (await proxy.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))!;
    const direct = await (await fetch(`${url}/api/admin/environments/project/mobile-app`, { headers: { authorization: ADMIN_KEY } })).text();
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(0);
    const key = JSON.parse(readFileSync(record, 'utf8')).apiKeys[0].key as string;
    const mock = run(['mock', '--port', '0', '--fixtures', record, '--quiet']);
    const [, mockUrl] = (await mock.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))!;
    expect(await (await fetch(`${mockUrl}/api/admin/environments/project/mobile-app`, { headers: { authorization: key } })).text()).toBe(direct);
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });

  it('refuses --add-cors with --no-cors, and a --target-timeout that is not a whole number of milliseconds', async () => {
    const both = run(['proxy', '--target', 'http://127.0.0.1:1', '--add-cors', '--no-cors']);
    expect(await both.exited).toBe(2);
    expect(both.err()).toContain('--add-cors and --no-cors contradict each other');
    const timeout = run(['proxy', '--target', 'http://127.0.0.1:1', '--target-timeout', '2s']);
    expect(await timeout.exited).toBe(2);
    expect(timeout.err()).toContain('--target-timeout expects a whole number of milliseconds, at least 1, got "2s"');
  });

  it('with --add-cors answers preflights itself, and with --target-timeout answers 504 when the backend stays silent', async () => {
    const silent = await serveSilent();
    servers.push(silent);
    const proxy = run(['proxy', '--target', silent.url, '--port', '0', '--add-cors', '--cors-origin', 'http://app.localhost', '--target-timeout', '300', '--quiet']);
    const [, url] = (await proxy.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))!;
    const preflight = await fetch(`${url}/api/admin/auth/oidc/settings`, { method: 'OPTIONS', headers: { origin: 'http://app.localhost', 'access-control-request-method': 'GET' } });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, 'http://app.localhost']);
    const read = await fetch(`${url}/api/admin/auth/oidc/settings`, { headers: { authorization: ADMIN_KEY } });
    expect(read.status).toBe(504);
    expect(((await read.json()) as { name: string }).name).toBe('ProxyTargetTimeout');
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(1);
  });

  it('refuses at start-up a --record file whose folder does not exist, in one line; with the folder there, Ctrl-C writes it', async () => {
    const dir = tempDir('flag-admin-proxy-cli-');
    const missing = run(['proxy', '--target', 'http://127.0.0.1:1', '--port', '0', '--record', join(dir, 'fixtures', 'staging.json')]);
    expect(await missing.exited).toBe(2);
    expect(missing.err()).toContain(`--record ${join(dir, 'fixtures', 'staging.json')}: the folder ${join(dir, 'fixtures')} does not exist; create it (mkdir -p ${join(dir, 'fixtures')})`);
    expect(missing.err()).not.toMatch(/^\s+at /m);

    const original = await startMock({ port: 0 });
    servers.push(original);
    const file = join(dir, 'staging.json');
    const proxy = run(['proxy', '--target', original.url, '--port', '0', '--record', file, '--quiet']);
    const [, url] = (await proxy.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))!;
    expect((await fetch(`${url}/api/admin/environments/project/default`, { headers: { authorization: ADMIN_KEY } })).status).toBe(200);
    proxy.child.kill('SIGINT');
    expect(await proxy.exited).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).projects.map((p: { id: string }) => p.id)).toEqual(['default']);
  });

  it('says which port is taken in one line and exits 1, as the mock does', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const { port } = blocker.address() as { port: number };
    try {
      const proxy = run(['proxy', '--target', `http://127.0.0.1:${port}`, '--port', String(port)]);
      expect(await proxy.exited).toBe(1);
      expect(proxy.err()).toBe(`flag-admin proxy: cannot listen on 127.0.0.1:${port} (EADDRINUSE); choose another with --port (0 picks a free one) or --host\n`);
    } finally {
      blocker.close();
    }
  });
});
