import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../contract/index.ts';
import { loadFixtures, startMock, type RunningServer } from '../mock/index.ts';
import { serveRaw } from '../../conformance/test/serve-target.ts';
import { createFixtureRecorder, SECRET_PLACEHOLDER } from './fixture-recorder.ts';
import { startProxy } from './start-proxy.ts';
import { tempDir } from '../../test/temp-dir.ts';

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
    const file = join(tempDir('flag-admin-record-'), 'recorded.json');
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
    const proxy = await startProxy({ contract, port: 0, target: original.url, record: join(tempDir('flag-admin-record-'), 'r.json') });
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

/**
 * A backend that answers as open-source Unleash 8.2.0 does (../shared/real-backends/unleash,
 * recorded exchanges): any project id is 200 with fields the spec does not list (visible,
 * requiredApprovals), `%00` in an id a 500, OIDC and service accounts 404 (Enterprise only), a
 * client key 403 with a body of its own (no id, no name), an unknown key 401, and `Bearer <key>`
 * the same key. `echo` puts the key it was given into what it keeps, as a hostile backend may.
 */
const UNLEASH_ADMIN = '*:*.unleash-insecure-admin-api-token';
const UNLEASH_CLIENT = 'default:development.unleash-insecure-client-api-token';
function unleashLike(options: { echo?: (key: string) => string } = {}) {
  return serveRaw((req: IncomingMessage, res) => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
    };
    const raw = String(req.headers.authorization ?? '');
    const key = raw.replace(/^bearer +/i, '').trim();
    const path = (req.url ?? '/').split('?')[0]!;
    const notFound = () => send(404, { id: crypto.randomUUID(), name: 'NotFoundError', message: `The path you were looking for (${path}) is not available.`, details: [{ message: 'not available' }] });
    if (!path.startsWith('/api/admin/')) return notFound();
    if (key !== UNLEASH_ADMIN && key !== UNLEASH_CLIENT) return send(401, { id: crypto.randomUUID(), name: 'UnauthorizedError', message: 'You must log in to use Unleash.' });
    if (key === UNLEASH_CLIENT) return send(403, { message: 'invalid token: expected a different token type for this endpoint' });
    const project = /^\/api\/admin\/environments\/project\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && project) {
      if (project[1]!.includes('%ZZ')) return send(500, { name: 'URIError', message: 'Failed to decode param' });
      if (project[1]!.includes('%00')) return send(500, { name: 'UnknownError', message: 'invalid byte sequence for encoding "UTF8": 0x00' });
      const known = project[1] === 'default';
      const name = options.echo ? options.echo(key) : 'development';
      return send(200, { version: 1, environments: [{ name, type: 'development', sortOrder: 2, enabled: true, protected: false, requiredApprovals: null, projectApiTokenCount: known ? 2 : 0, projectEnabledToggleCount: 0, visible: known }] });
    }
    return notFound();
  });
}

interface Sent {
  method: string;
  path: string;
  key: string | undefined;
}

/** Sends each request to `base` with the key the mapping gives (undefined: none), and returns the statuses. */
async function statuses(base: string, requests: readonly Sent[], keyOf: (key: string | undefined) => string | undefined): Promise<number[]> {
  const out: number[] = [];
  for (const r of requests) {
    const key = keyOf(r.key);
    out.push((await fetch(base + r.path, { method: r.method, headers: key ? { authorization: key } : {} }).then(async (res) => (await res.arrayBuffer(), res.status))));
  }
  return out;
}

/** Records `requests` through a proxy in front of `target`; the file, the recording and the statuses the backend gave. */
async function record(target: string, requests: readonly Sent[], options: { maxRecordingBytes?: number } = {}) {
  const file = join(tempDir('flag-admin-record-'), 'recorded.json');
  const proxy = await startProxy({ contract, port: 0, target, record: file, ...options });
  const backend = await statuses(proxy.url, requests, (k) => k);
  await proxy.close();
  return { file, recording: proxy.recording()!, backend };
}

/** The placeholder the recording gives a real key: the one whose description says it stands for the n-th key seen. */
function placeholderFor(recorded: { apiKeys: { key: string; description?: string }[] }, n: number): string {
  const found = recorded.apiKeys.find((k) => k.description?.startsWith(`stands for key ${n} `));
  if (!found) throw new Error(`no placeholder for key ${n}`);
  return found.key;
}

const UNLEASH_TRAFFIC: Sent[] = [
  { method: 'GET', path: '/api/admin/environments/project/default', key: UNLEASH_ADMIN },
  { method: 'GET', path: '/api/admin/environments/project/default', key: `Bearer ${UNLEASH_ADMIN}` },
  { method: 'GET', path: '/api/admin/environments/project/default%09', key: UNLEASH_ADMIN },
  { method: 'GET', path: '/api/admin/environments/project/odd%2Fid', key: UNLEASH_ADMIN },
  { method: 'GET', path: '/api/admin/environments/project/odd%00id', key: UNLEASH_ADMIN },
  { method: 'GET', path: '/api/admin/environments/project/odd%ZZid', key: UNLEASH_ADMIN },
  { method: 'GET', path: '/api/admin/auth/oidc/settings', key: UNLEASH_ADMIN },
  { method: 'GET', path: '/api/admin/auth/oidc/settings', key: `bearer ${UNLEASH_ADMIN}` },
  { method: 'DELETE', path: '/api/admin/service-account/1/token/1', key: UNLEASH_ADMIN },
  { method: 'GET', path: '/api/admin/environments/project/default', key: UNLEASH_CLIENT },
  { method: 'GET', path: '/api/admin/auth/oidc/settings', key: UNLEASH_CLIENT },
  { method: 'DELETE', path: '/api/admin/service-account/1/token/1', key: UNLEASH_CLIENT },
  { method: 'GET', path: '/api/admin/environments/project/default', key: 'not-a-key-at-all' },
  { method: 'GET', path: '/api/admin/auth/oidc/settings', key: undefined },
];

describe('flag-admin proxy --record: per key and operation, the backend\u2019s answers, nothing invented', () => {
  it('replays every recorded request, per key, with the status the backend gave (404 where it has no route, its own 403, a 500, also on an id that is not valid percent-encoding), and keeps fields the spec does not list', async () => {
    const backend = await unleashLike();
    running.push(backend);
    const { file, recording, backend: expected } = await record(backend.url, UNLEASH_TRAFFIC);
    const recorded = JSON.parse(readFileSync(file, 'utf8'));
    // Admin (however spelled) and client: two keys; the key answered 401 everywhere is left out.
    expect(recorded.apiKeys).toHaveLength(2);
    // One numbering with the report's KEY_N: the admin key is 1, its `Bearer`/`bearer` spellings 2 and 3 (variables of their own in curl lines), the client 4.
    expect(recorded.apiKeys.find((k: { description: string }) => k.description.startsWith('stands for key 1 ')).description).toContain('as key 2, 3 of the traffic');
    const placeholders: Record<string, string> = { [UNLEASH_ADMIN]: placeholderFor(recorded, 1), [`Bearer ${UNLEASH_ADMIN}`]: placeholderFor(recorded, 1), [`bearer ${UNLEASH_ADMIN}`]: placeholderFor(recorded, 1), [UNLEASH_CLIENT]: placeholderFor(recorded, 4) };
    const replay = await startMock({ port: 0, fixtures: file });
    running.push(replay);
    expect(await statuses(replay.url, UNLEASH_TRAFFIC, (k) => (k === undefined ? undefined : (placeholders[k] ?? k)))).toEqual(expected);
    // The client's 403 is the backend's body, not the mock's.
    const forbidden = await fetch(`${replay.url}/api/admin/auth/oidc/settings`, { headers: { authorization: placeholders[UNLEASH_CLIENT]! } });
    expect(await forbidden.json()).toEqual({ message: 'invalid token: expected a different token type for this endpoint' });
    // A 404 replayed gets a fresh error id each time, as the backend's did.
    const ids = new Set<string>();
    for (let i = 0; i < 2; i++) ids.add((await (await fetch(`${replay.url}/api/admin/auth/oidc/settings`, { headers: { authorization: placeholders[UNLEASH_ADMIN]! } })).json() as { id: string }).id);
    expect(ids.size).toBe(2);
    const listed = (await (await fetch(`${replay.url}/api/admin/environments/project/default`, { headers: { authorization: placeholders[UNLEASH_ADMIN]! } })).json()) as { environments: unknown[] };
    expect(listed.environments[0]).toMatchObject({ visible: true, requiredApprovals: null, projectApiTokenCount: 2 });
    expect(recording.warnings).toEqual([]);
  });

  it('says in the description what the traffic showed and what it could not, in counts a user checks', async () => {
    const backend = await unleashLike();
    running.push(backend);
    const { recording } = await record(backend.url, UNLEASH_TRAFFIC);
    const { description } = recording.state;
    expect(description).toContain(`from ${UNLEASH_TRAFFIC.length} exchanges`);
    expect(description).toContain('OIDC settings: read 4 times through the proxy and never answered 2xx');
    expect(description).not.toContain('never read through the proxy');
    expect(description).toContain('Keys: 2 placeholders');
    expect(description).toContain('1 key was answered 401 to every request and is left out');
    expect(description).toContain('Without a key: 1 request (401 \u00d71)');
    // default, default<TAB> and odd/id were answered 200; odd<NUL>id 500 is replayed, not a project.
    expect(description).toContain('Projects: 3 ids answered with a list of environments');
    expect(description).toContain('this backend answered 2xx to every project id it was asked about');
    expect(recording.state.projects.map((p) => p.id).sort()).toEqual(['default', 'default\t', 'odd/id']);
    const admin = recording.state.apiKeys.find((k) => k.description?.startsWith('stands for key 1 '))!;
    expect(admin.description).toContain('getProjectEnvironments 6 requests (200 \u00d74, 500 \u00d72)');
    expect(admin.description).toContain('getOidcSettings 2 requests (404 \u00d72)');
  });

  it('keeps ids the traffic showed missing missing, per key', async () => {
    // A backend where `shared` exists for the admin key only, and `gone` for no key.
    const backend = await serveRaw((req, res) => {
      const key = String(req.headers.authorization ?? '');
      const visible = req.url!.endsWith('/shared') && key === ADMIN_KEY;
      const body = visible ? JSON.stringify({ version: 1, environments: [{ name: 'production', type: 'production', enabled: true, protected: true, sortOrder: 1 }] }) : JSON.stringify({ id: crypto.randomUUID(), name: 'NotFoundError', message: 'no such project' });
      res.writeHead(visible ? 200 : 404, { 'content-type': 'application/json' });
      res.end(body);
    });
    running.push(backend);
    const traffic: Sent[] = [
      { method: 'GET', path: '/api/admin/environments/project/shared', key: ADMIN_KEY },
      { method: 'GET', path: '/api/admin/environments/project/gone', key: ADMIN_KEY },
      { method: 'GET', path: '/api/admin/environments/project/shared', key: VIEWER_KEY },
      { method: 'GET', path: '/api/admin/environments/project/gone', key: VIEWER_KEY },
    ];
    const { file, backend: expected } = await record(backend.url, traffic);
    expect(expected).toEqual([200, 404, 404, 404]);
    const recorded = JSON.parse(readFileSync(file, 'utf8'));
    expect(recorded.projects.map((p: { id: string }) => p.id)).toEqual(['shared']);
    const placeholders: Record<string, string> = { [ADMIN_KEY]: placeholderFor(recorded, 1), [VIEWER_KEY]: placeholderFor(recorded, 2) };
    const replay = await startMock({ port: 0, fixtures: file });
    running.push(replay);
    expect(await statuses(replay.url, traffic, (k) => placeholders[k!])).toEqual(expected);
  });

  it('never writes a value that was a secret in the traffic, however the backend echoes it, and keeps data that merely shares a piece of one', async () => {
    const encodings: ((key: string) => string)[] = [
      (k) => k,
      (k) => Buffer.from(k).toString('base64'),
      (k) => Buffer.from(k).toString('hex'),
      (k) => encodeURIComponent(k),
      (k) => [...k].reverse().join(''),
      // Every encoding the suite's one redactor reads is kept out alike: the recorder adds none of its own.
    ];
    for (const encode of encodings) {
      const backend = await unleashLike({ echo: (key) => `env-${encode(key)}` });
      running.push(backend);
      const { file } = await record(backend.url, [{ method: 'GET', path: '/api/admin/environments/project/default', key: `Bearer ${UNLEASH_ADMIN}` }]);
      const text = readFileSync(file, 'utf8');
      expect(text, encode(UNLEASH_ADMIN)).not.toContain(encode(UNLEASH_ADMIN));
      expect(text).not.toContain('unleash-insecure-admin');
      // The project `default` is data, not a secret.
      expect(JSON.parse(text).projects.map((p: { id: string }) => p.id)).toEqual(['default']);
      expect(() => loadFixtures(contract, file)).not.toThrow();
    }
  });

  it('refuses at record time an answer with a key that reaches prototypes, says so, and writes a file the mock loads', async () => {
    const backend = await serveRaw((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"version":1,"environments":[{"name":"p","type":"production","enabled":true,"protected":false,"sortOrder":1,"__proto__":{"polluted":true}}]}');
    });
    running.push(backend);
    const { file, recording } = await record(backend.url, [{ method: 'GET', path: '/api/admin/environments/project/default', key: ADMIN_KEY }]);
    expect(recording.warnings.join('\n')).toContain('"__proto__"');
    expect(recording.state.description).toContain('Not recorded: 1 exchange, an answer held "__proto__" at /environments/0/__proto__');
    expect(readFileSync(file, 'utf8')).not.toContain('"__proto__":');
    expect(() => loadFixtures(contract, file)).not.toThrow();
  });

  it('stops growing at its size limit, says so, and still writes a file the mock loads', async () => {
    const backend = await unleashLike();
    running.push(backend);
    const traffic: Sent[] = Array.from({ length: 200 }, (_, i) => ({ method: 'GET', path: `/api/admin/environments/project/p${i}`, key: UNLEASH_ADMIN }));
    const { file, recording } = await record(backend.url, traffic, { maxRecordingBytes: 16 * 1024 });
    expect(recording.warnings.join('\n')).toMatch(/reached its size limit \(0 MiB\) at exchange \d+/);
    expect(recording.state.description).toMatch(/Size limit: .*; \d+ later answers were not kept/);
    expect(recording.state.apiKeys[0]!.description).toContain('getProjectEnvironments 200 requests (200 \u00d7200)');
    expect(readFileSync(file, 'utf8').length).toBeLessThan(3 * 16 * 1024);
    expect(recording.state.projects.length).toBeGreaterThan(10);
    expect(recording.state.projects.length).toBeLessThan(200);
    expect(() => loadFixtures(contract, file)).not.toThrow();
  });

  it('redacts the secrets its caller learned from the same traffic too (a key in a header the spec does not name)', () => {
    const elsewhere = 'sent-in-x-api-key-0123456789';
    const recorder = createFixtureRecorder(contract, { secrets: () => [elsewhere] });
    recorder.observe({ method: 'GET', target: '/api/admin/environments/project/default', key: ADMIN_KEY, response: { status: 200, body: JSON.stringify({ version: 1, environments: [{ name: `echo-${elsewhere}`, type: 't', enabled: true, protected: false, sortOrder: 1 }] }) } });
    const text = JSON.stringify(recorder.fixture().state);
    expect(text).not.toContain(elsewhere);
    expect(text).not.toContain(ADMIN_KEY);
    expect(text).toContain('echo-<redacted>');
  });

  it('on its own, keeps keys sent in a query parameter or a cookie out of the file, by the names the proxy redacts (session ids too)', () => {
    const recorder = createFixtureRecorder(contract);
    const inQuery = 'query-placed-key-0123456789';
    const inCookie = 'cookie-session-0123456789';
    const echo = (name: string) => JSON.stringify({ version: 1, environments: [{ name, type: 't', enabled: true, protected: false, sortOrder: 1 }] });
    recorder.observe({ method: 'GET', target: `/api/admin/environments/project/default?access_token=${inQuery}`, key: ADMIN_KEY, response: { status: 200, body: echo(`q-${inQuery}`) } });
    recorder.observe({ method: 'GET', target: '/api/admin/environments/project/other', key: ADMIN_KEY, headers: { cookie: `theme=dark; session_id=${inCookie}` }, response: { status: 200, body: echo(`c-${inCookie}`) } });
    const text = JSON.stringify(recorder.fixture().state);
    expect(text).not.toContain(inQuery);
    expect(text).not.toContain(inCookie);
    expect(text).toContain('q-<redacted>');
    expect(text).toContain('c-<redacted>');
  });

  it('says which answers it cannot replay: one read answered two ways for one key, while a delete then 404 is what the state does', () => {
    const recorder = createFixtureRecorder(contract);
    const list = JSON.stringify({ version: 1, environments: [{ name: 'a', type: 't', enabled: true, protected: false, sortOrder: 1 }] });
    const gone = JSON.stringify({ id: 'e1', name: 'NotFoundError', message: 'gone' });
    const see = (method: string, target: string, status: number, body: string) => recorder.observe({ method, target, key: ADMIN_KEY, response: { status, body } });
    see('GET', '/api/admin/environments/project/flaky', 200, list);
    see('GET', '/api/admin/environments/project/flaky', 404, gone);
    see('DELETE', '/api/admin/service-account/1/token/1', 200, '');
    see('DELETE', '/api/admin/service-account/1/token/1', 404, gone);
    const { state } = recorder.fixture();
    expect(state.description).toContain('Not replayable: getProjectEnvironments with projectId "flaky" got 200 \u00d71, 404 \u00d71 for one key: the mock answers it one way.');
    expect(state.description).not.toContain('Not replayable: deleteServiceAccountToken');
    expect(state.serviceAccounts).toEqual([{ id: '1', tokens: [{ id: '1' }] }]);
  });

  it('counts an exchange it failed on and keeps what it recorded before', () => {
    const recorder = createFixtureRecorder(contract);
    recorder.observe({ method: 'GET', target: '/api/admin/environments/project/default', key: ADMIN_KEY, response: { status: 200, body: JSON.stringify({ version: 1, environments: [{ name: 'a', type: 't', enabled: true, protected: false, sortOrder: 1 }] }) } });
    // Headers that cannot be read: the recorder's failure, which must not become the proxy's.
    const broken = {
      get cookie(): string {
        throw new Error('unreadable headers');
      },
    };
    expect(() => recorder.observe({ method: 'GET', target: '/api/admin/environments/project/x', key: ADMIN_KEY, headers: broken, response: { status: 200, body: '{}' } })).not.toThrow();
    const { state } = recorder.fixture();
    expect(state.projects.map((p) => p.id)).toEqual(['default']);
    expect(state.description).toContain('Not recorded: 1 exchange, the recorder failed on it (unreadable headers)');
  });
});
