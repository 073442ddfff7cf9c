/**
 * Claim 2 of issue 19's "Done when": no secret in clear in any output the user asked for (console,
 * journal, dashboard, served and written reports, the recording), against a backend that echoes the
 * keys and the OIDC secret in encodings of its own, and clients that put keys where keys should not
 * go. The project `default` and the environment `development` (an Unleash key's naming prefix,
 * `<project>:<environment>.<secret>`) stay readable.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli-process.ts';
import { tempDir } from '../temp-dir.ts';
import { exitOf, getText, parseResponses, rawBackend, rawExchange, useProxy, type SeenRequest } from './harness.ts';

/** The mock's own OIDC secret (fixtures/default.json), so a user's grep for it is the grep a user would write. */
const OIDC_SECRET: string = JSON.parse(readFileSync(join(ROOT, 'fixtures/default.json'), 'utf8')).oidcSettings.secret;
/** Unleash-shaped keys: `<project>:<environment>.<secret>`; only the part after the dot is secret. */
const key = (secret: string) => `default:development.${secret}`;
const KEYS = {
  header: key('a1b2c3d4e5f60718293a4b5c'),
  secondHeader: key('f00dfeed1234abcd5678ef90'),
  query: key('0badc0de9999aaaa8888bbbb'),
  queryOther: key('c0ffee00c0ffee11c0ffee22'),
  cookie: key('deadbeef4242deadbeef4343'),
  basicPassword: key('5eed5eed5eed1111222233334'),
  basicUser: key('77aa77aa77aa66bb66bb66bb'),
};
/** What must never show: the secret part of each key, and the OIDC secret. */
const SECRETS: Record<string, string> = {
  ...Object.fromEntries(Object.entries(KEYS).map(([n, k]) => [`key.${n}`, k.slice(k.indexOf('.') + 1)])),
  oidc: OIDC_SECRET,
};

const b64url = (s: string) => Buffer.from(s).toString('base64url');
const jsonU = (s: string) => [...s].map((c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')).join('');
const pct2 = (s: string) => encodeURIComponent(encodeURIComponent(s).replace(/[-.:]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()));
const jwt = (payload: unknown) => `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify(payload))}.${b64url('not-a-signature')}`;

/** Every reading of a text a user could make: as written, \u and HTML escapes undone, percent-decoded twice, base64(url) runs decoded. */
function views(text: string): Record<string, string> {
  const unU = text.replace(/\\u([0-9a-fA-F]{4})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
  const unHtml = unU.replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16))).replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d))).replace(/&amp;/g, '&');
  const pct = (s: string) => s.replace(/(%[0-9a-fA-F]{2})+/g, (m) => { try { return decodeURIComponent(m); } catch { return m; } });
  const once = pct(unHtml);
  const twice = pct(once);
  const b64 = [...twice.matchAll(/[A-Za-z0-9+/_-]{12,}/g)].map((m) => Buffer.from(m[0].replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1')).join('\n');
  return { asWritten: text, unescaped: unHtml, percentOnce: once, percentTwice: twice, base64Decoded: b64 };
}

/** Where a run of 10 characters of a secret shows, per view. */
function leaks(output: string): string[] {
  const found: string[] = [];
  for (const [view, text] of Object.entries(views(output))) {
    for (const [name, secret] of Object.entries(SECRETS)) {
      for (let i = 0; i + 10 <= secret.length; i++) {
        const at = text.indexOf(secret.slice(i, i + 10));
        if (at >= 0) {
          found.push(`${name} in ${view}: …${JSON.stringify(text.slice(Math.max(0, at - 60), at + 40))}…`);
          break;
        }
      }
    }
  }
  return found;
}

const DATE = 'Date: Sat, 28 Nov 2026 12:00:00 GMT\r\n';
function send(socket: Socket, status: string, headers: string[], body: Buffer) {
  socket.write(Buffer.concat([Buffer.from(`HTTP/1.1 ${status}\r\n${DATE}${headers.map((h) => h + '\r\n').join('')}Content-Length: ${body.length}\r\n\r\n`, 'latin1'), body]));
}
const header = (r: SeenRequest, name: string) => r.headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);

/** A backend that answers as API.md describes, and echoes every credential it was given, encoded. */
function hostile(r: SeenRequest, socket: Socket) {
  const url = new URL(r.target, 'http://backend');
  const auths = header(r, 'authorization');
  const basic = auths.find((a) => /^basic /i.test(a));
  const errorBody = (name: string, message: string) => Buffer.from(JSON.stringify({ id: `e-${Math.random().toString(36).slice(2)}`, name, message }));
  const json = ['Content-Type: application/json'];
  if (basic) {
    // A 401 that says which credentials it refused, decoded.
    const [user, password] = Buffer.from(basic.slice(6), 'base64').toString().split(':');
    return send(socket, '401 Unauthorized', json, errorBody('AuthenticationRequired', `user ${user} with password ${password} refused`));
  }
  if (auths.length === 0) {
    // Query and cookie credentials echoed in a gzip-compressed 401 body.
    const given = [...url.searchParams.values(), ...header(r, 'cookie')].join(' ');
    return send(socket, '401 Unauthorized', [...json, 'Content-Encoding: gzip', 'Vary: Accept-Encoding'], gzipSync(errorBody('AuthenticationRequired', `not a key here: ${given}`)));
  }
  const given = auths[0]!;
  const second = auths[1] ?? '';
  const givenSecret = given.slice(given.indexOf('.') + 1);
  if (url.pathname === '/api/admin/auth/oidc/settings' && !url.searchParams.has('echo')) {
    return send(socket, '200 OK', json, Buffer.from(JSON.stringify({ enabled: true, clientId: 'red-client', secret: OIDC_SECRET, discoverUrl: 'https://id.example.com/.well-known/openid-configuration' })));
  }
  if (url.pathname === '/api/admin/auth/oidc/settings') {
    // Hand-written JSON: the client id as \u escapes, a URL with the secret percent-encoded twice,
    // the key as base64url without padding, a JWT-looking token holding both, the second
    // Authorization line's key as it came.
    const body = `{"enabled":true,"clientId":"${jsonU(given)}","discoverUrl":"https://id.example.com/cb?s=${pct2(OIDC_SECRET)}",` +
      `"emailDomains":"${b64url(given)}","acrValues":"${jwt({ sub: given, s: OIDC_SECRET })}","groupJsonPath":"${second}"}`;
    const half = Math.floor(OIDC_SECRET.length / 2);
    return send(
      socket,
      '200 OK',
      [...json, `Set-Cookie: sid=${given}; Path=/; HttpOnly`, `Location: https://id.example.com/cb?token=${encodeURIComponent(OIDC_SECRET)}`,
        `X-Part-1: ${OIDC_SECRET.slice(0, half)}`, `X-Part-2: ${OIDC_SECRET.slice(half)}`, `X-Echo-${givenSecret}: 1`],
      Buffer.from(body),
    );
  }
  const project = /^\/api\/admin\/environments\/project\/(.+)$/.exec(url.pathname);
  if (project) {
    const id = decodeURIComponent(project[1]!);
    const env = (name: string, sortOrder: number) => ({ name, type: 'development', enabled: true, protected: false, sortOrder, projectApiTokenCount: 0, projectEnabledToggleCount: 1 });
    const environments = [env('development', 1)];
    if (id !== 'default') environments.push(env(`seen-${id}`, 2)); // the id from the path, kept as data
    return send(socket, '200 OK', json, Buffer.from(JSON.stringify({ version: 1, environments })));
  }
  if (r.method === 'DELETE') return send(socket, '200 OK', [], Buffer.alloc(0));
  return send(socket, '404 Not Found', json, errorBody('NotFoundError', `nothing at ${r.target} for ${given}`));
}

const proxy = useProxy();

/** Sends the traffic through a proxy in front of the hostile backend, then reads every output; returns the leaks found. */
async function trafficAndOutputs(secondAuthorization: boolean) {
  const backend = await rawBackend(hostile);
  const dir = tempDir('red-secrets-');
  const files = { record: join(dir, 'rec.json'), json: join(dir, 'report.json'), junit: join(dir, 'report.xml') };
  const p = await proxy(backend.url, ['--record', files.record, '--json', files.json, '--junit', files.junit]);
  const host = `Host: 127.0.0.1:${p.port}\r\n`;
  const request = async (line: string, headers: string[] = []) => {
    const raw = await rawExchange(p.port, `${line} HTTP/1.1\r\n${host}${headers.map((h) => h + '\r\n').join('')}Accept-Encoding: gzip\r\nConnection: close\r\n\r\n`);
    return parseResponses(raw, [line.split(' ')[0]!])[0]!;
  };
  const auth = `Authorization: ${KEYS.header}`;
  // The backend's own answers are what the client gets: the echoes are the backend's, not the proxy's to hide.
  expect((await request('GET /api/admin/auth/oidc/settings', [auth])).status).toBe(200);
  const echo = await request('GET /api/admin/auth/oidc/settings?echo=1', secondAuthorization ? [auth, `Authorization: ${KEYS.secondHeader}`] : [auth]);
  expect(echo.headers.some(([n]) => n === `X-Echo-${SECRETS['key.header']}`)).toBe(true);
  if (secondAuthorization) expect(echo.body.toString()).toContain(KEYS.secondHeader); // it reached the backend
  if (!secondAuthorization) {
    expect((await request('GET /api/admin/environments/project/default', [auth])).status).toBe(200);
    expect((await request(`GET /api/admin/environments/project/${encodeURIComponent(KEYS.header)}`, [auth])).status).toBe(200);
    expect((await request(`GET /api/admin/environments/project/default?APIKEY=${encodeURIComponent(KEYS.query)}`)).status).toBe(401);
    expect((await request(`GET /api/admin/environments/project/default?Access_Token=${encodeURIComponent(KEYS.queryOther)}`)).status).toBe(401);
    expect((await request('GET /api/admin/environments/project/default', [`Cookie: theme=dark; apiKey=${KEYS.cookie}`])).status).toBe(401);
    expect((await request('GET /api/admin/auth/oidc/settings', [`Authorization: Basic ${Buffer.from(`admin:${KEYS.basicPassword}`).toString('base64')}`])).status).toBe(401);
    expect((await request('GET /api/admin/auth/oidc/settings', [`Authorization: Basic ${Buffer.from(`${KEYS.basicUser}:x`).toString('base64')}`])).status).toBe(401);
    expect((await request('DELETE /api/admin/service-account/1/token/7', [auth])).status).toBe(200);
  }

  const base = `http://127.0.0.1:${p.port}/__mock`;
  const outputs: Record<string, string> = {
    journal: await getText(`${base}/journal`),
    dashboard: await getText(`${base}/ui`),
    report: await getText(`${base}/report`),
    junitServed: await getText(`${base}/report?format=junit`),
  };
  p.child.kill('SIGINT');
  await exitOf(p);
  Object.assign(outputs, {
    stdout: p.out(),
    stderr: p.err(),
    jsonFile: readFileSync(files.json, 'utf8'),
    junitFile: readFileSync(files.junit, 'utf8'),
    recording: readFileSync(files.record, 'utf8'),
  });
  const found = Object.entries(outputs).flatMap(([name, text]) => leaks(text).map((l) => `${name}: ${l}`));
  return { outputs, found };
}

describe('no secret in clear in any output, whatever the backend echoes and wherever the client puts keys', () => {
  it('a backend echoing keys and the OIDC secret (\\u escapes, base64url, percent twice, JWT, Set-Cookie, Location, split headers, a header name, gzip 401s); keys in the query (any case), a cookie, Basic user and password, the path', async () => {
    const { outputs, found } = await trafficAndOutputs(false);
    // Not secret: the project and environment of the keys' naming prefix.
    expect(outputs.journal!).toContain('/api/admin/environments/project/default');
    expect(outputs.recording!).toContain('"development"');
    expect(JSON.parse(outputs.recording!).projects.map((pr: { id: string }) => pr.id)).toContain('default');
    expect(found).toEqual([]);
  }, 30000);

  // FINDING: a request with two `Authorization` lines goes to the backend with both (the proxy
  // forwards header lines as sent), but only the first is learned as a key: when the backend
  // echoes the second (here in the OIDC `groupJsonPath`), `default:development.f00dfeed1234abcd5678ef90`
  // shows in clear in the journal, the served report and JUnit, the --json and --junit files and the
  // --record file (24 hits in 6 outputs). Issue 19: "every key the traffic carried (header, ...) is redacted".
  it('a client that sends a second Authorization line: its key is redacted too when the backend echoes it', async () => {
    const { found } = await trafficAndOutputs(true);
    expect(found).toEqual([]);
  }, 30000);
});

/** A backend that answers 200 to project reads with each request header value and the path as environment names (it keeps what it is given). */
function echoAll(r: SeenRequest, socket: Socket) {
  const values = [r.target, ...r.headers.filter(([n]) => !/^(host|connection|content-length)$/i.test(n)).map(([, v]) => v)];
  const environments = values.map((name, i) => ({ name, type: 'development', enabled: true, protected: false, sortOrder: i, projectApiTokenCount: 0, projectEnabledToggleCount: 0 }));
  send(socket, '200 OK', ['Content-Type: application/json'], Buffer.from(JSON.stringify({ version: 1, environments })));
}

/** The access log of the last echoRun, for tests that read it line by line. */
let lastRunStdout = '';

async function echoRun(requests: { path: string; headers: string[] }[], secrets: string[]) {
  const backend = await rawBackend(echoAll);
  const dir = tempDir('red-echo-');
  const files = { record: join(dir, 'rec.json'), json: join(dir, 'report.json') };
  const p = await proxy(backend.url, ['--record', files.record, '--json', files.json]);
  for (const { path, headers } of requests) {
    const raw = await rawExchange(p.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${p.port}\r\n${headers.map((h) => h + '\r\n').join('')}Connection: close\r\n\r\n`);
    expect(parseResponses(raw, ['GET'])[0]!.status).toBe(200);
  }
  const base = `http://127.0.0.1:${p.port}/__mock`;
  const outputs: Record<string, string> = { journal: await getText(`${base}/journal`), report: await getText(`${base}/report`) };
  p.child.kill('SIGINT');
  await exitOf(p);
  Object.assign(outputs, { stdout: p.out(), stderr: p.err(), jsonFile: readFileSync(files.json, 'utf8'), recording: readFileSync(files.record, 'utf8') });
  lastRunStdout = p.out();
  return Object.entries(outputs).flatMap(([name, text]) =>
    secrets.flatMap((s) => { const part = s.slice(s.indexOf('.') + 1); return Object.entries(views(text)).filter(([, t]) => t.includes(part.slice(0, 12))).map(([v]) => `${name} (${v})`); }),
  );
}

describe('keys the client sends in ways of its own', () => {
  const k = (s: string) => `default:development.${s}`;
  it('an `X-Api-Key` header, a lowercase `bearer` scheme, a `Token` scheme, echoed back by the backend: redacted everywhere', async () => {
    const keys = { x: k('7e57a9e1b2c3d4e5f6a7b8c9'), bearer: k('be11be22be33be44be55be66'), token: k('70c3170c3270c3370c3470c3') };
    const found = await echoRun(
      [
        { path: '/api/admin/environments/project/default', headers: [`X-Api-Key: ${keys.x}`, `Authorization: bearer ${keys.bearer}`] },
        { path: '/api/admin/environments/project/default', headers: [`Authorization: Token ${keys.token}`] },
      ],
      Object.values(keys),
    );
    expect(found).toEqual([]);
  }, 30000);

  // The principle of the second-Authorization finding: every line of a key-carrying field, all
  // repeats, any case of its name, the key after a scheme included.
  it('three Authorization lines in three spellings of the name, one with a scheme, echoed back: all redacted everywhere', async () => {
    const keys = { a: k('a11a11a11a22a22a22a33a33'), b: k('b11b11b11b22b22b22b33b33'), c: k('c11c11c11c22c22c22c33c33') };
    const found = await echoRun(
      [{ path: '/api/admin/environments/project/default', headers: [`Authorization: ${keys.a}`, `authorization: ${keys.b}`, `AUTHORIZATION: Bearer ${keys.c}`] }],
      Object.values(keys),
    );
    expect(found).toEqual([]);
  }, 30000);

  // FINDING (the access log only): a key first sent in the path, then in the Authorization header,
  // is redacted in the journal, the reports and the recording, but the access log line of the first
  // request went out before the key was known and stays in clear on stdout:
  // `GET /api/admin/environments/project/default%3Adevelopment.9a7h0n1y5ecre7aaaabbbbcc 200 ... key=absent`.
  // Issue 19 asks every key the traffic carried (path included) to be redacted in the log; docs/proxy.md
  // promises the late redaction for the journal only and does not say the log cannot have it.
  // Decided (docs/proxy.md "Keys and secrets", a limit): a line printed cannot be taken back, and a path segment that is
  // no key yet is an ordinary id (telling a key from an id by its look would redact ids). Every output kept or written
  // later (journal, reports, recording) is redacted of the key; in the access log, only the lines after the request
  // that taught it: the same key in the path again is redacted.
  it('a key first sent in the path (no header), then as the Authorization header: redacted everywhere but in the log line printed before it was known', async () => {
    const key = k('9a7h0n1y5ecre7aaaabbbbcc');
    const inPath = `/api/admin/environments/project/${encodeURIComponent(key)}`;
    const found = await echoRun(
      [
        { path: inPath, headers: [] },
        { path: '/api/admin/environments/project/default', headers: [`Authorization: ${key}`] },
        { path: inPath, headers: [] },
      ],
      [key],
    );
    // Only the access log (stdout) shows it, and only on its first line (below).
    expect(found.filter((where) => !where.startsWith('stdout ('))).toEqual([]);
    const logLines = lastRunStdout.split('\n').filter((line) => line.includes('/api/admin/environments/project/'));
    expect(logLines).toHaveLength(3);
    expect(logLines[0]).toContain(encodeURIComponent(key));
    expect(logLines[2]).not.toContain(key.slice(key.indexOf('.') + 1, key.indexOf('.') + 13));
    expect(logLines[2]).toContain('<redacted>');
  }, 30000);
});

describe('a short secret', () => {
  // API.md §2.2 gives the OIDC secret no length; a 7-character one is a secret all the same.
  const SHORT = 'hunter2';
  // FINDING: the OIDC secret `hunter2` (7 characters), learned from a 200, then echoed whole by the
  // backend as the OIDC clientId (redacted in the recording) and in a 404's message: the --record
  // file keeps that one in clear in the key's replayed answer (apiKeys[].answers[].body):
  // `"message": "no project; the OIDC secret is hunter2"`. (The journal and reports do not carry that
  // message at all.) The same test with an 8-character secret (`secret88`) or a 23-character one
  // passes: the recording's redaction of a secret inside a longer text starts at 8 characters. Issue 19: "one redaction for every output ...
  // by the same code"; "the recording holds placeholders, never a value that was a secret anywhere".
  it('a 7-character OIDC secret, echoed whole by the backend in another field and an error message, shows nowhere', async () => {
    const backend = await rawBackend((r, socket) => {
      if (r.target === '/api/admin/auth/oidc/settings')
        return send(socket, '200 OK', ['Content-Type: application/json'], Buffer.from(JSON.stringify({ enabled: true, clientId: 'short-client', secret: SHORT })));
      if (r.target === '/api/admin/auth/oidc/settings?again')
        return send(socket, '200 OK', ['Content-Type: application/json'], Buffer.from(JSON.stringify({ enabled: true, clientId: SHORT, secret: SHORT })));
      send(socket, '404 Not Found', ['Content-Type: application/json'], Buffer.from(JSON.stringify({ id: 'e1', name: 'NotFoundError', message: `no project; the OIDC secret is ${SHORT}` })));
    });
    const dir = tempDir('red-short-');
    const files = { record: join(dir, 'rec.json'), json: join(dir, 'report.json') };
    const p = await proxy(backend.url, ['--record', files.record, '--json', files.json]);
    for (const path of ['/api/admin/auth/oidc/settings', '/api/admin/environments/project/nope', '/api/admin/auth/oidc/settings?again']) {
      await rawExchange(p.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${p.port}\r\nAuthorization: ${KEYS.header}\r\nConnection: close\r\n\r\n`);
    }
    const base = `http://127.0.0.1:${p.port}/__mock`;
    const outputs: Record<string, string> = { journal: await getText(`${base}/journal`), report: await getText(`${base}/report`) };
    p.child.kill('SIGINT');
    await exitOf(p);
    Object.assign(outputs, { stdout: p.out(), stderr: p.err(), jsonFile: readFileSync(files.json, 'utf8'), recording: readFileSync(files.record, 'utf8') });
    const found = Object.entries(outputs).filter(([, text]) => text.includes(SHORT)).map(([name, text]) => `${name}: …${text.slice(Math.max(0, text.indexOf(SHORT) - 80), text.indexOf(SHORT) + 20)}…`);
    expect(found).toEqual([]);
  }, 30000);
});
