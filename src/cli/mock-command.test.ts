import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useCliProcesses } from '../../test/cli-process.ts';
import { rawRequest } from '../../test/raw-http.ts';
import { keysOutsideTheHeader, sendTargets } from '../../test/keys-outside-the-header.ts';
import { tempDir } from '../../test/temp-dir.ts';

const DEFAULT_FIXTURES = fileURLToPath(new URL('../../fixtures/default.json', import.meta.url));
/** Runs the real CLI with the Node that runs the tests (the pinned Node 24). */
const run = useCliProcesses({ ...process.env, FLAG_ADMIN_MOCK_SELF_CHECK: '1' });

describe('flag-admin mock', () => {
  it('serves the default state on a free port, prints URL and keys, and stops cleanly on SIGTERM', async () => {
    const mock = run(['mock', '--port', '0']);
    const [, url] = (await mock.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))!;
    expect(mock.out()).toContain('mock-admin-key  all operations');
    expect(mock.out()).toContain('mock-viewer-key  getProjectEnvironments');
    const response = await fetch(`${url}/api/admin/environments/project/default`, { headers: { authorization: 'mock-admin-key' } });
    expect(response.status).toBe(200);
    await mock.waitFor(/GET \/api\/admin\/environments\/project\/default 200/);
    expect(mock.out()).toContain(`docs: ${url}/docs (spec: ${url}/openapi.json`);
    expect((await fetch(`${url}/docs`)).status).toBe(200);
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
    expect(mock.out()).toContain('flag-admin mock stopped');
    expect(mock.err()).toBe('');
  });

  it('stops cleanly on SIGINT (Ctrl-C)', async () => {
    const mock = run(['mock', '--port', '0', '--quiet']);
    await mock.waitFor(/listening on/);
    mock.child.kill('SIGINT');
    expect(await mock.exited).toBe(0);
  });

  it('serves a fixtures file and hides its keys', async () => {
    const fixtures = fileURLToPath(new URL('../../fixtures/default.json', import.meta.url));
    const mock = run(['mock', '--port', '0', '--fixtures', fixtures]);
    await mock.waitFor(/listening on/);
    expect(mock.out()).not.toContain('mock-admin-key');
    expect(mock.out()).toContain('<hidden>  all operations');
    mock.child.kill('SIGTERM');
    await mock.exited;
  });

  it('lists three keys in the banner and counts the rest, however many the fixtures hold', async () => {
    const state = JSON.parse(readFileSync(fileURLToPath(new URL('../../fixtures/default.json', import.meta.url)), 'utf8'));
    state.apiKeys.push(...Array.from({ length: 5000 }, (_, i) => ({ key: `bulk-key-${i}`, permissions: ['*'] })));
    const file = join(tempDir('flag-admin-banner-'), 'many-keys.json');
    writeFileSync(file, JSON.stringify(state));
    const mock = run(['mock', '--port', '0', '--fixtures', file]);
    await mock.waitFor(/Ctrl-C to stop/);
    expect(mock.out().match(/<hidden>/g)).toHaveLength(3);
    expect(mock.out()).toContain('… and 4,999 more');
    mock.child.kill('SIGTERM');
    await mock.exited;
  });

  it.each([
    [['--port', 'abc'], '--port expects an integer from 0 to 65535, got "abc"'],
    [['-p', '70000'], '--port expects an integer from 0 to 65535, got "70000"'],
    [['--verbose'], 'unknown option --verbose'],
    [['--prot', '4010'], 'unknown option --prot (did you mean --port?)'],
    [['--port'], '--port expects a value'],
    [['--quiet=yes'], '--quiet takes no value'],
    [['extra'], 'unexpected argument "extra"'],
    [['--cors-origin', 'http://localhost:8000/app'], '--cors-origin expects an origin such as http://localhost:8000 (no path, no trailing slash), got "http://localhost:8000/app"'],
    [['--no-cors', '--cors-origin', 'http://localhost:8000'], '--no-cors and --cors-origin contradict each other; give one'],
    [['--host', 'http://localhost:4010'], '--host expects an interface address or host name such as 127.0.0.1, ::1, 0.0.0.0 or localhost, got "http://localhost:4010"'],
    [['--max-sessions', '0'], '--max-sessions expects an integer from 1 to 999999, got "0"'],
    [['--max-sessions', '-1'], '--max-sessions expects an integer from 1 to 999999, got "-1"'],
    [['-p', '-1'], '--port expects an integer from 0 to 65535, got "-1"'],
    [['--max-rules', '-5', '--quiet'], '--max-rules expects an integer from 1 to 999999, got "-5"'],
    [['--max-rules', '1e9'], '--max-rules expects an integer from 1 to 999999, got "1e9"'],
    [['--max-connections', '-1'], '--max-connections expects a positive integer, got "-1"'],
    [['--port', '-x'], '--port expects a value'],
    [['--log-format', 'xml'], '--log-format expects text or json, got "xml"'],
    [['--watch'], '--watch needs --fixtures FILE: the embedded state does not change'],
  ])('rejects %j in one line with a pointer to the help and exit code 2', async (args, message) => {
    const mock = run(['mock', ...args]);
    expect(await mock.exited).toBe(2);
    expect(mock.err()).toBe(`flag-admin mock: ${message}\nRun 'flag-admin help mock' for the options.\n`);
  });

  it('stops start-up on a bad fixture, naming file, pointer and expectation', async () => {
    const mock = run(['mock', '--port', '0', '--fixtures', fileURLToPath(new URL('./__fixtures__/bad-oidc.json', import.meta.url))]);
    expect(await mock.exited).toBe(2);
    expect(mock.err()).toMatch(/bad fixtures: .*bad-oidc\.json#\/oidcSettings\/discoverUrl: expected a string in format uri \(spec\/openapi\.yaml#\/components\/schemas\/OidcSettings\/properties\/discoverUrl\/format\), got "login\.example\.com"/);
  });

  it('says which port is taken and exits 1', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const { port } = blocker.address() as { port: number };
    try {
      const mock = run(['mock', '--port', String(port)]);
      expect(await mock.exited).toBe(1);
      expect(mock.err()).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    } finally {
      blocker.close();
    }
  });


  it('narrows CORS to the --cors-origin origins, and --no-cors turns it off', async () => {
    const preflight = (origin: string) => ({ method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    const narrowed = run(['mock', '-p', '0', '-q', '--cors-origin', 'http://localhost:8000', '--cors-origin', 'http://127.0.0.1:3000']);
    const [, url] = (await narrowed.waitFor(/listening on (http:\/\/\S+)/))!;
    expect((await fetch(`${url}/api/admin/auth/oidc/settings`, preflight('http://127.0.0.1:3000'))).headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    expect((await fetch(`${url}/api/admin/auth/oidc/settings`, preflight('http://localhost:9999'))).status).toBe(403);
    narrowed.child.kill('SIGTERM');
    const off = run(['mock', '-p', '0', '-q', '--no-cors']);
    const [, offUrl] = (await off.waitFor(/listening on (http:\/\/\S+)/))!;
    expect((await fetch(`${offUrl}/api/admin/auth/oidc/settings`, preflight('http://localhost:8000'))).status).toBe(405);
    off.child.kill('SIGTERM');
    await Promise.all([narrowed.exited, off.exited]);
  });

  it('reports an address it cannot bind in one line and exits 1', async () => {
    // 192.0.2.1 (TEST-NET-1, RFC 5737) is no interface of this machine: bind fails, nothing is sent.
    const mock = run(['mock', '-p', '0', '--host', '192.0.2.1']);
    expect(await mock.exited).toBe(1);
    expect(mock.err()).toBe('flag-admin mock: cannot listen on 192.0.2.1:0 (EADDRNOTAVAIL); choose another with --port (0 picks a free one) or --host\n');
  });

  it('logs operationId, session and whether a key came, never the key; --log-format json gives one object per line', async () => {
    const text = run(['mock', '-p', '0']);
    const [, url] = (await text.waitFor(/listening on (http:\/\/\S+)/))!;
    await fetch(`${url}/api/admin/auth/oidc/settings`, { headers: { authorization: 'mock-admin-key', 'x-mock-session': 'e2e-1' } });
    await fetch(`${url}/api/admin/service-account/1/token/1`, { method: 'DELETE' });
    await text.waitFor(/DELETE .* 401 .*\n/);
    expect(text.out()).toMatch(/^GET \/api\/admin\/auth\/oidc\/settings 200 \d+\.\dms getOidcSettings session=e2e-1 key=present$/m);
    expect(text.out()).toMatch(/^DELETE \/api\/admin\/service-account\/1\/token\/1 401 \d+\.\dms deleteServiceAccountToken session=default key=absent$/m);
    expect(text.out().split('listening on')[1]).not.toContain('mock-admin-key\n');
    text.child.kill('SIGTERM');
    const json = run(['mock', '-p', '0', '--log-format', 'json']);
    const [, jsonUrl] = (await json.waitFor(/listening on (http:\/\/\S+)/))!;
    await fetch(`${jsonUrl}/api/admin/environments/project/default`, { headers: { authorization: 'mock-viewer-key' } });
    const [line] = (await json.waitFor(/^\{.*\}$/m))!;
    expect(JSON.parse(line)).toEqual({ time: expect.any(String), method: 'GET', path: '/api/admin/environments/project/default', status: 200, ms: expect.any(Number), operationId: 'getProjectEnvironments', session: 'default', key: 'present' });
    expect(line).not.toContain('mock-viewer-key');
    json.child.kill('SIGTERM');
    await Promise.all([text.exited, json.exited]);
  });

  it('never logs a key sent in userinfo, the query, a path segment or the fragment, as text or as JSON', async () => {
    for (const format of ['text', 'json']) {
      const mock = run(['mock', '-p', '0', '--log-format', format]);
      const [, port] = (await mock.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/))!;
      const targets = keysOutsideTheHeader('mock-admin-key', Number(port), '/api/admin/auth/oidc/settings');
      await sendTargets(Number(port), targets, { authorization: 'mock-admin-key' });
      await mock.waitFor(/authorization=<redacted>/);
      const log = mock.out().split('Ctrl-C to stop.')[1]!;
      expect(log.trim().split('\n')).toHaveLength(targets.length);
      expect(log).not.toContain('mock-admin');
      expect(log).not.toContain('an-unknown-secret');
      expect(log).toContain('<redacted>');
      mock.child.kill('SIGTERM');
      await mock.exited;
    }
  });

  it('--watch reloads the fixtures file; a broken edit is reported with its pointer and the last good state stays', async () => {
    const file = join(tempDir('flag-admin-watch-'), 'state.json');
    const state = JSON.parse(readFileSync(DEFAULT_FIXTURES, 'utf8'));
    writeFileSync(file, JSON.stringify(state));
    const mock = run(['mock', '-p', '0', '-q', '--fixtures', file, '--watch']);
    const [, url] = (await mock.waitFor(/listening on (http:\/\/\S+)/))!;
    const projects = async () => (await fetch(`${url}/api/admin/environments/project/renamed`, { headers: { authorization: 'mock-admin-key' } })).status;
    expect(await projects()).toBe(404);
    state.projects[0].id = 'renamed';
    writeFileSync(file, JSON.stringify(state));
    await mock.waitFor(/fixtures reloaded from/);
    expect(await projects()).toBe(200);
    state.projects[0].environments[0].name = 'prod';
    writeFileSync(file, JSON.stringify(state));
    for (let i = 0; i < 200 && !mock.err().includes('not reloaded'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(mock.err()).toMatch(/^flag-admin mock: fixtures not reloaded, still serving the last good state: .*state\.json#\/projects\/0\/environments\/0\/name: expected the name of an environment in \/environments/m);
    expect(await projects()).toBe(200);
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });

  it('--allowed-host opens the control API to requests addressed by that name; other names get 403 naming the flag', async () => {
    const mock = run(['mock', '--port', '0', '--quiet', '--allowed-host', 'mock.internal', '--allowed-host', 'other.internal']);
    const [, port] = (await mock.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/))!;
    const read = (host: string) => rawRequest(Number(port), `GET /__mock/state HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`);
    expect((await read(`mock.internal:${port}`))!.status).toBe(200);
    expect((await read('other.internal'))!.status).toBe(200);
    const refused = (await read('evil.example'))!;
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).message).toContain('--allowed-host evil.example');
    const bad = run(['mock', '--allowed-host', 'http://mock.internal:4010']);
    expect(await bad.exited).toBe(2);
    expect(bad.err()).toContain('--allowed-host expects a host name or address');
  });

  it('with --control-token, opens the control API only to callers that send it', async () => {
    const mock = run(['mock', '-p', '0', '-q', '--control-token', 's3cret-token']);
    const [, url] = (await mock.waitFor(/listening on (http:\/\/\S+)/))!;
    expect(mock.out()).not.toContain('s3cret-token');
    expect((await fetch(`${url}/__mock/state`)).status).toBe(403);
    expect((await fetch(`${url}/__mock/state`, { headers: { 'x-mock-control-token': 's3cret-token' } })).status).toBe(200);
    mock.child.kill('SIGTERM');
    await mock.exited;
  });

  it('stops serving when `npm start` gets SIGTERM (npm signals only its shell)', async () => {
    const npm = run(['start', '--', '-p', '0', '-q'], ['npm']);
    const [, url] = (await npm.waitFor(/listening on (http:\/\/\S+)/))!;
    npm.child.kill('SIGTERM');
    await npm.exited;
    let refused = false;
    for (let i = 0; i < 100 && !refused; i++) {
      await new Promise((r) => setTimeout(r, 50));
      refused = await fetch(`${url}/__mock/sessions`).then(() => false, () => true);
    }
    expect(refused, 'the mock still serves after npm start was stopped').toBe(true);
  });
});

describe('flag-admin mock limits on clients', () => {
  it('takes --headers-timeout: a client that never finishes its headers gets a JSON 408 that soon', async () => {
    const mock = run(['mock', '--port', '0', '--quiet', '--headers-timeout', '300', '--request-timeout', '300']);
    const [, port] = (await mock.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/))!;
    const { connect } = await import('node:net');
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    const started = Date.now();
    socket.write('GET / HTTP/1.1\r\nhost: x\r\n');
    await new Promise((resolve) => socket.on('close', resolve));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received).toContain('"name":"RequestTimeoutError"');
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });

  it.each([
    ['--max-connections', '0'],
    ['--headers-timeout', 'soon'],
    ['--max-body-bytes', '1.5'],
  ])('rejects %s %j in one line', async (flag, value) => {
    const mock = run(['mock', flag, value]);
    expect(await mock.exited).toBe(2);
    expect(mock.err()).toContain(`${flag} expects a positive integer, got ${JSON.stringify(value)}`);
  });
});
