/**
 * Claim 3 of issue 19's "Done when": the recording invents nothing. A backend written here from
 * API.md, with its own data and its own 403/404 choices, recorded through the proxy; then every
 * recorded request replayed against `flag-admin mock --fixtures FILE` with the same keys (the
 * placeholders the proxy printed): the same status per request. The description's counts are
 * checked against the traffic. And a recording cut by SIGINT or SIGTERM under load is whole.
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliProcesses } from '../cli-process.ts';
import { tempDir } from '../temp-dir.ts';
import { exitOf, useProxy } from './harness.ts';

/** Keys of this backend (API.md §5 leaves kinds and permissions open: these are its choices). */
const ADMIN = 'own-admin-3c41f9e2';
const READER = 'own-reader-88d0b7a1'; // reads project environments, but not of project "vault" (403); OIDC and deletes 403
const DELETER = 'own-deleter-51aa02ce'; // may delete tokens only; reads 403
const WRONG = 'own-wrong-00000000'; // unknown: 401
const NOBODY = 'own-nobody-6e6e6e6e'; // valid, no permission at all: 403 everywhere
const LOST = 'own-lost-4040aaaa'; // valid reader that only ever asks for projects that are not there: 404

let errorSeq = 0;
function backendHandler(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url!, 'http://x');
  const send = (status: number, body?: unknown) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
    res.end(text);
  };
  const error = (status: number, name: string, message: string) => send(status, { id: `own-${++errorSeq}`, name, message });
  const key = req.headers.authorization;
  if (![ADMIN, READER, DELETER, NOBODY, LOST].includes(key ?? '')) return error(401, 'AuthenticationRequired', 'You must log in to use Unleash-like admin.');
  // Routed as written: a trailing slash or an empty segment is another path (404), as Express with strict routing does.
  const envs = /^\/api\/admin\/environments\/project\/([^/]+)$/.exec(url.pathname);
  const token = /^\/api\/admin\/service-account\/([^/]+)\/token\/([^/]+)$/.exec(url.pathname);
  if (key === NOBODY) return error(403, 'NoAccessError', 'This key has no permissions.');
  if (req.method === 'GET' && envs) {
    if (key === DELETER) return error(403, 'NoAccessError', 'You need permission READ_PROJECT.');
    const id = decodeURIComponent(envs[1]!);
    if (key === READER && id === 'vault') return error(403, 'NoAccessError', 'No access to project vault.');
    const project = PROJECTS[id];
    if (!project) return error(404, 'NotFoundError', `Could not find project ${id}.`);
    return send(200, { version: 1, environments: project });
  }
  if (req.method === 'GET' && url.pathname === '/api/admin/auth/oidc/settings') {
    if (key !== ADMIN) return error(403, 'NoAccessError', 'You need permission ADMIN.');
    return send(200, { enabled: true, clientId: 'own-client', secret: 'own-oidc-secret-e4b1', discoverUrl: 'https://sso.own.example/.well-known/openid-configuration', autoCreate: false, defaultRootRole: 'Viewer' });
  }
  if (req.method === 'DELETE' && token) {
    if (key === READER) return error(403, 'NoAccessError', 'You need permission DELETE_SERVICE_ACCOUNT_TOKEN.');
    const tokens = ACCOUNTS.get(token[1]!);
    if (!tokens || !tokens.delete(token[2]!)) return error(404, 'NotFoundError', 'No such token.');
    return send(200);
  }
  return error(404, 'NotFoundError', 'Not found.');
}

const env = (name: string, sortOrder: number, extra: Record<string, unknown> = {}) => ({
  name, type: name === 'prod' ? 'production' : 'development', enabled: true, protected: name === 'prod', sortOrder,
  projectApiTokenCount: sortOrder % 3, projectEnabledToggleCount: sortOrder % 7, ...extra,
});
const PROJECTS: Record<string, object[]> = {
  alpha: [env('dev', 10, { visible: true, requiredApprovals: 2 }), env('prod', 20, { visible: false, requiredApprovals: 1 })],
  beta: [env('dev', 10)],
  vault: [env('prod', 5)],
  'café au lait': [env('dev', 3)],
};
let ACCOUNTS = new Map<string, Set<string>>();

/** The traffic: [key, method, path]; `undefined` for no key. */
const TRAFFIC: [string | undefined, string, string][] = [
  [ADMIN, 'GET', '/api/admin/environments/project/alpha'],
  [READER, 'GET', '/api/admin/environments/project/alpha'],
  [READER, 'GET', '/api/admin/environments/project/vault'],
  [ADMIN, 'GET', '/api/admin/environments/project/vault'],
  [READER, 'GET', '/api/admin/environments/project/ALPHA'],
  [ADMIN, 'GET', '/api/admin/environments/project/gamma'],
  [READER, 'GET', '/api/admin/environments/project/beta'],
  [DELETER, 'GET', '/api/admin/environments/project/beta'],
  [READER, 'GET', '/api/admin/auth/oidc/settings'],
  [DELETER, 'GET', '/api/admin/auth/oidc/settings'],
  [ADMIN, 'GET', '/api/admin/auth/oidc/settings'],
  [READER, 'DELETE', '/api/admin/service-account/10/token/100'],
  [ADMIN, 'DELETE', '/api/admin/service-account/10/token/100'],
  [ADMIN, 'DELETE', '/api/admin/service-account/10/token/100'],
  [DELETER, 'DELETE', '/api/admin/service-account/11/token/200'],
  [DELETER, 'DELETE', '/api/admin/service-account/11/token/999'],
  [ADMIN, 'DELETE', '/api/admin/service-account/77/token/1'],
  [WRONG, 'GET', '/api/admin/environments/project/alpha'],
  [undefined, 'GET', '/api/admin/auth/oidc/settings'],
  [ADMIN, 'GET', '/api/admin/environments/project/caf%C3%A9%20au%20lait'],
  [READER, 'GET', '/api/admin/environments/project/beta?withCounts=1'],
  [NOBODY, 'GET', '/api/admin/environments/project/alpha'],
  [NOBODY, 'GET', '/api/admin/auth/oidc/settings'],
  [NOBODY, 'DELETE', '/api/admin/service-account/10/token/101'],
  [LOST, 'GET', '/api/admin/environments/project/gamma'],
  [LOST, 'GET', '/api/admin/environments/project/delta'],
  [ADMIN, 'DELETE', '/api/admin/service-account/11/token/200'],
  [ADMIN, 'GET', '/api/admin/environments/project/alpha'],
  // Spellings of a path this backend does not route (its choice: 404), next to the one it does.
  [READER, 'GET', '/api/admin/environments/project/beta/'],
  [READER, 'GET', '/api/admin//environments/project/beta'],
  [READER, 'GET', '/api/admin/environments/project/be%74a'],
  [READER, 'GET', '/api/admin/environments/project/beta'],
];

const agent = new Agent({ keepAlive: false });
function call(base: string, key: string | undefined, method: string, path: string, timeoutMs = 5000): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, agent, headers: key ? { authorization: key } : {}, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

async function ownBackend() {
  ACCOUNTS = new Map([['10', new Set(['100', '101'])], ['11', new Set(['200'])]]);
  const server = createServer(backendHandler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

const proxy = useProxy();
const run = useCliProcesses();

/** One recorded run of TRAFFIC through the proxy, shared by the checks below. */
async function recordOnce() {
  const backend = await ownBackend();
  try {
    const dir = tempDir('red-record-');
    const file = join(dir, 'own.json');
    const p = await proxy(backend.url, ['--record', file, '--json', join(dir, 'report.json'), '-q']);
    const seen: number[] = [];
    for (const [key, method, path] of TRAFFIC) seen.push(await call(p.url, key, method, path));
    p.child.kill('SIGINT');
    expect(await exitOf(p)).not.toBeNull();
    const fixture = JSON.parse(readFileSync(file, 'utf8'));
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    return { file, fixture, report, seen, stderr: p.err() };
  } finally {
    await backend.close();
  }
}

/** The operation a request is (API.md §4), by its path as written; undefined for a path of none (a trailing slash, an empty segment). */
const op = (method: string, path: string) => {
  const p = path.split('?')[0]!;
  if (method === 'DELETE' && /^\/api\/admin\/service-account\/[^/]+\/token\/[^/]+$/.test(p)) return 'deleteServiceAccountToken';
  if (method === 'GET' && p === '/api/admin/auth/oidc/settings') return 'getOidcSettings';
  if (method === 'GET' && /^\/api\/admin\/environments\/project\/[^/]+$/.test(p)) return 'getProjectEnvironments';
  return undefined;
};
const distinct = [...new Set(TRAFFIC.map(([k]) => k).filter((k): k is string => k !== undefined))];
function countsOf(k: string, seen: number[]) {
  const mine: Record<string, Record<string, number>> = {};
  TRAFFIC.forEach(([key, method, path], i) => {
    const operation = op(method, path);
    if (key !== k || !operation) return;
    const counts = (mine[operation] ??= {});
    counts[seen[i]!] = (counts[seen[i]!] ?? 0) + 1;
  });
  return mine;
}
/** The per-operation counts a placeholder's description states (`getOidcSettings 1 request (403 ×1)`). */
function stated(description: string) {
  const out: Record<string, Record<string, number>> = {};
  for (const m of description.matchAll(/(\w+) \d+ requests? \(([^)]*)\)/g)) {
    out[m[1]!] = Object.fromEntries(m[2]!.split(', ').map((s) => { const [status, n] = s.split(' ×'); return [status!, Number(n)]; }));
  }
  return out;
}
/** Which key of the traffic each placeholder stands for, by the counts its description states (exactly one must match). */
function placeholders(fixture: { apiKeys: { key: string; description: string }[] }, seen: number[]) {
  const map = new Map<string, { placeholder: string; description: string }>();
  for (const entry of fixture.apiKeys) {
    const matching = distinct.filter((k) => JSON.stringify(countsOf(k, seen)) === JSON.stringify(stated(entry.description)));
    expect(matching, `one key of the traffic has the counts of: ${entry.description}`).toHaveLength(1);
    map.set(matching[0]!, { placeholder: entry.key, description: entry.description });
  }
  return map;
}

let recorded: ReturnType<typeof recordOnce> | undefined;

describe('the recording invents nothing', () => {
  it('every recorded request, replayed on the mock with the placeholder of its key, gets the backend\'s status; the description\'s counts are the traffic\'s', async () => {
    const { file, fixture, seen } = await (recorded ??= recordOnce());
    const map = placeholders(fixture, seen);
    // Every key the backend answered other than 401 has its placeholder.
    expect([...map.keys()].sort()).toEqual(distinct.filter((k) => k !== WRONG).sort());
    expect(fixture.description).toMatch(/Without a key: 1 request \(401 ×1\)/);
    expect(fixture.description).toMatch(/Projects: 4 ids answered/);

    const mock = run(['mock', '--fixtures', file, '--port', '0', '-q']);
    const [, mockUrl] = (await mock.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))!;
    const replayed: string[] = [];
    const expected: string[] = [];
    for (const [i, [key, method, path]] of TRAFFIC.entries()) {
      const asKey = key === undefined ? undefined : (map.get(key)?.placeholder ?? key);
      expected.push(`${i} ${key ?? 'no key'} ${method} ${path} ${seen[i]}`);
      replayed.push(`${i} ${key ?? 'no key'} ${method} ${path} ${await call(mockUrl!, asKey, method, path)}`);
    }
    expect(replayed).toEqual(expected);
  }, 30000);

  // FINDING: the recording's "stands for key N of the traffic" counts only the keys it kept, where
  // the report's KEY_N (and the traffic) count every key. Here the traffic's 4th key (request #18,
  // answered 401) is left out of the recording, so the key with no permission (5th, first sent on
  // request #22) is described as "key 4 of the traffic" and the 404-only key (6th) as "key 5",
  // while the report's KEY_4 is the 401 key and KEY_5 the no-permission one. A user checking the
  // description against the traffic or the report (issue 19: "in words a user checks against the
  // traffic") is sent to the wrong key.
  it('"key N of the traffic" in the recording is the traffic\'s N-th key, the report\'s KEY_N', async () => {
    const { fixture, report, seen } = await (recorded ??= recordOnce());
    const map = placeholders(fixture, seen);
    for (const [key, { description }] of map) {
      const n = Number(/stands for key (\d+) of the traffic/.exec(description)?.[1]);
      expect(`${key}: key ${n}`).toBe(`${key}: key ${distinct.indexOf(key) + 1}`);
      expect(report.keys[n - 1].variable).toBe(`KEY_${n}`);
      const firstSeq = TRAFFIC.findIndex(([k]) => k === key) + 1;
      expect(report.keys[n - 1].standsFor).toContain(`request #${firstSeq};`);
    }
  }, 30000);
});

describe('a recording cut by a signal under load is whole', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} while 16 clients send as fast as they can: the recording and both reports are complete and valid`, async () => {
      const backend = await ownBackend();
      try {
        const dir = tempDir('red-signal-');
        const files = { record: join(dir, 'rec.json'), json: join(dir, 'r.json'), junit: join(dir, 'r.xml') };
        const p = await proxy(backend.url, ['--record', files.record, '--json', files.json, '--junit', files.junit, '-q']);
        let answered = 0;
        let stop = false;
        const client = async (c: number) => {
          for (let i = 0; !stop && i < 2000; i++) {
            const [key, method, path] = TRAFFIC[(c * 7 + i) % TRAFFIC.length]!;
            // Reads only, so that the backend's state does not run out of tokens to delete.
            if (method === 'DELETE') continue;
            try {
              await call(p.url, key, method, `${path}${path.includes('?') ? '&' : '?'}c=${c}&i=${i}`, 3000);
              answered++;
            } catch {
              return; // the proxy went away: this client is done
            }
          }
        };
        const clients = Array.from({ length: 16 }, (_, c) => client(c));
        await new Promise((r) => setTimeout(r, 1500));
        const answeredBeforeSignal = answered;
        p.child.kill(signal);
        const code = await exitOf(p);
        stop = true;
        await Promise.all(clients);
        expect(answeredBeforeSignal).toBeGreaterThan(50);
        expect(code).not.toBeNull();
        expect(p.err()).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
        const fixture = JSON.parse(readFileSync(files.record, 'utf8'));
        const report = JSON.parse(readFileSync(files.json, 'utf8'));
        const junit = readFileSync(files.junit, 'utf8');
        expect(junit.trim()).toMatch(/^<\?xml[\s\S]*<\/testsuites>$/);
        expect(Array.isArray(fixture.apiKeys)).toBe(true);
        expect(typeof report).toBe('object');
        // Complete: every answer a client got before the signal is among the exchanges recorded.
        const forwarded = Number(/from (\d+) exchanges it forwarded/.exec(fixture.description)?.[1]);
        expect(forwarded).toBeGreaterThanOrEqual(answeredBeforeSignal);
      } finally {
        await backend.close();
      }
    }, 30000);
  }
});
