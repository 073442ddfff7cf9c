import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { breakResponses, editJson, freshMock, operationOf, serveRaw, toMockRequest } from '../../conformance/test/serve-target.ts';
import { loadContract, type Contract } from '../contract/index.ts';
import { serveHandler, type JournalEntry, type MockResponse, type RunningServer } from '../mock/index.ts';
import { rawRequest } from '../../test/raw-http.ts';
import { startProxy, type RunningProxy } from './start-proxy.ts';
import { closedAfterEach } from '../../test/closed-after-each.ts';

const ADMIN_KEY = 'mock-admin-key';
const VIEWER_KEY = 'mock-viewer-key';
const KEYS = [ADMIN_KEY, VIEWER_KEY, 'not-a-key'];

/** What a frontend does in a session: reads with and without a key, a missing project, a token deleted, then deleted again. */
const TRAFFIC: { method: string; path: string; key?: string }[] = [
  { method: 'GET', path: '/api/admin/environments/project/default', key: ADMIN_KEY },
  { method: 'GET', path: '/api/admin/environments/project/no-such-project', key: ADMIN_KEY },
  { method: 'GET', path: '/api/admin/auth/oidc/settings', key: ADMIN_KEY },
  { method: 'GET', path: '/api/admin/auth/oidc/settings', key: VIEWER_KEY },
  { method: 'GET', path: '/api/admin/auth/oidc/settings', key: 'not-a-key' },
  { method: 'GET', path: '/api/admin/environments/project/default' },
  { method: 'DELETE', path: '/api/admin/service-account/1/token/1', key: ADMIN_KEY },
  { method: 'DELETE', path: '/api/admin/service-account/1/token/1', key: ADMIN_KEY },
  { method: 'DELETE', path: '/api/admin/service-account/9/token/9', key: ADMIN_KEY },
  { method: 'DELETE', path: '/api/admin/service-account/1/token/2' },
  { method: 'GET', path: '/api/admin/nothing/here', key: ADMIN_KEY },
  { method: 'PUT', path: '/api/admin/auth/oidc/settings', key: ADMIN_KEY },
  { method: 'GET', path: '/api/admin/auth/oidc/settings', key: ADMIN_KEY },
];

const contract: Contract = await loadContract({ validate: false });
const running = closedAfterEach();

async function through(serve: (contract: Contract) => Promise<RunningServer>, prefix = ''): Promise<{ proxy: RunningProxy; answers: { status: number; body: string }[] }> {
  const target = await serve(contract);
  running.push(target);
  const proxy = await startProxy({ contract, port: 0, target: target.url + prefix });
  running.push(proxy);
  const answers = [];
  for (const request of TRAFFIC) {
    const response = await fetch(proxy.url + request.path, { method: request.method, headers: request.key ? { authorization: request.key } : {} });
    answers.push({ status: response.status, body: await response.text() });
  }
  return { proxy, answers };
}

async function control(proxy: RunningProxy, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(proxy.url + path);
  return { status: response.status, text: await response.text() };
}

/** The checks that failed (`id (severity)`), as the journal and as the report say; they must agree. */
async function verdicts(proxy: RunningProxy): Promise<{ journal: string[]; report: string[]; texts: string }> {
  const journal = await control(proxy, '/__mock/journal');
  const report = await control(proxy, '/__mock/report');
  const junit = await control(proxy, '/__mock/report?format=junit');
  const entries = JSON.parse(journal.text).entries as JournalEntry[];
  const named = (findings: { checkId: string; severity: string }[]) => [...new Set(findings.map((f) => `${f.checkId} (${f.severity})`))].sort();
  return {
    journal: named(entries.flatMap((e) => e.findings ?? [])),
    report: named(JSON.parse(report.text).findings),
    texts: journal.text + report.text + junit.text + JSON.stringify(proxy.recording() ?? ''),
  };
}

const isRead = (method: string) => method === 'GET';
/** A server that writes its bodies in pieces without Content-Length (chunked), JSON with a charset and keys reordered: unusual, conformant. */
async function chunkedReorderingMock(c: Contract): Promise<RunningServer> {
  const mock = freshMock(c);
  return serveRaw((req, res) => {
    const answer = mock.handle(toMockRequest(req));
    const body = answer.body === undefined ? undefined : JSON.stringify(reorder(JSON.parse(answer.body)));
    res.writeHead(answer.status, answer.body === undefined ? answer.headers : { ...answer.headers, 'content-type': 'application/json; charset=utf-8' });
    if (body === undefined) return res.end();
    const middle = Math.floor(body.length / 2);
    res.write(body.slice(0, middle));
    setTimeout(() => res.end(body.slice(middle)), 5);
  });
}
function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reorder(v)]));
  return value;
}
/** The mock mounted under /flags, as a backend behind a path prefix is. */
async function mockUnderPrefix(c: Contract): Promise<RunningServer> {
  const mock = freshMock(c);
  return serveRaw((req, _, answer) => answer(req.url?.startsWith('/flags/') ? mock.handle({ ...toMockRequest(req), url: req.url.slice('/flags'.length) }) : { status: 404, headers: {}, body: undefined }));
}

const error = (status: number, name: string): MockResponse => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'e-1', name, message: 'broken on purpose' }) });

/** Broken targets, one defect each, and the one check (with its severity) the traffic above must make fail. */
const BROKEN: { name: string; error: string; serve: (c: Contract) => Promise<RunningServer> }[] = [
  {
    name: 'missing field: the environments response lacks version',
    error: 'response-schema-conformance (error)',
    serve: (c) => breakResponses(c, (req, res) => (operationOf(c, req) === 'getProjectEnvironments' && res.status === 200 ? editJson(res, ({ version: _, ...rest }) => rest) : res)),
  },
  { name: 'no Content-Type on JSON bodies', error: 'content-type-conformance (error)', serve: (c) => breakResponses(c, (_, res) => ({ ...res, headers: {} })) },
  { name: 'wrong error kind: 404 named NoAccessError', error: 'error-kind-conformance (error)', serve: (c) => breakResponses(c, (_, res) => (res.status === 404 ? editJson(res, (body) => ({ ...body, name: 'NoAccessError' })) : res)) },
  { name: 'a read without a key answered 200 (auth skipped on reads)', error: 'auth-missing-rejected (error)', serve: (c) => breakResponses(c, (req, res, mock) => (isRead(req.method) && !req.headers.authorization ? mock.handle({ ...req, headers: { ...req.headers, authorization: ADMIN_KEY } }) : res)) },
  {
    name: 'a delete that never removes: 200 again for a deleted token',
    error: 'delete-again-not-found (error)',
    serve: (c) => {
      const mock = freshMock(c);
      const seen = new Set<string>();
      return serveHandler((req) => {
        const res = mock.handle(req);
        if (operationOf(c, req) !== 'deleteServiceAccountToken') return res;
        if (res.status === 200) seen.add(req.url);
        return res.status === 404 && seen.has(req.url) ? { status: 200, headers: {}, body: undefined } : res;
      }, { port: 0 });
    },
  },
  {
    name: 'disabled environment returned: staging with enabled: false',
    error: 'project-environments-enabled (error)',
    serve: (c) => breakResponses(c, (req, res) => (operationOf(c, req) === 'getProjectEnvironments' && res.status === 200 ? editJson(res, (body) => ({ ...body, environments: [...(body.environments as unknown[]), { name: 'staging', type: 'test', enabled: false, protected: false, sortOrder: 1 }] })) : res)),
  },
  { name: '500 for an unknown token', error: 'not-a-server-error (error)', serve: (c) => breakResponses(c, (req, res) => (req.url.includes('/9/token/9') ? error(500, 'InternalServerError') : res)) },
  { name: '204 for a delete', error: 'status-code-documented (error)', serve: (c) => breakResponses(c, (req, res) => (operationOf(c, req) === 'deleteServiceAccountToken' && res.status === 200 ? { status: 204, headers: {}, body: undefined } : res)) },
  {
    name: 'one error id for every error',
    error: 'error-ids-unique (error)',
    serve: (c) => breakResponses(c, (_, res) => (res.status >= 400 ? editJson(res, (body) => ({ ...body, id: 'err-1' })) : res)),
  },
  {
    name: 'an unknown token refused as if the valid key were not one (401 after the lookup; a warning, the key may have been revoked meanwhile)',
    error: 'delete-token-succeeds (warning)',
    serve: (c) => breakResponses(c, (req, res) => (operationOf(c, req) === 'deleteServiceAccountToken' && res.status === 404 && req.url.includes('/9/') ? error(401, 'AuthenticationRequired') : res)),
  },
  {
    name: 'the OIDC settings read changes with nothing written: the client id counts the reads',
    error: 'answers-agree (warning)',
    serve: (c) => {
      let reads = 0;
      return breakResponses(c, (req, res) => (operationOf(c, req) === 'getOidcSettings' && res.status === 200 ? editJson(res, (body) => ({ ...body, clientId: `client-${++reads}` })) : res));
    },
  },
  { name: 'a 403 quotes the key it refused', error: 'no-secret-echo (error)', serve: (c) => breakResponses(c, (req, res) => (res.status === 403 ? editJson(res, (body) => ({ ...body, message: `key ${String(req.headers.authorization)} lacks permission` })) : res)) },
  {
    name: 'the 401 of the OIDC read quotes the OIDC secret the traffic showed before',
    error: 'no-secret-echo (error)',
    serve: (c) =>
      breakResponses(c, (req, res, mock) => {
        if (res.status !== 401 || operationOf(c, req) !== 'getOidcSettings') return res;
        const { secret } = JSON.parse(mock.handle({ ...req, headers: { ...req.headers, authorization: ADMIN_KEY } }).body!) as { secret: string };
        return editJson(res, (body) => ({ ...body, message: `login failed for client secret ${secret}` }));
      }),
  },
  { name: 'PUT on the OIDC settings answers 200', error: 'unlisted-method-rejected (warning)', serve: (c) => breakResponses(c, (req, res) => (req.method === 'PUT' ? { status: 200, headers: {}, body: undefined } : res)) },
  { name: 'drops the connection on the OIDC read with the viewer key', error: 'response-received (error)', serve: async (c) => { const mock = freshMock(c); return serveRaw((req, _, answer) => (req.headers.authorization === VIEWER_KEY ? req.socket.destroy() : answer(mock.handle(toMockRequest(req))))); } },
];

describe('flag-admin proxy in front of a backend', () => {
  it.each([
    { name: 'the mock', serve: (c: Contract) => serveHandler(freshMock(c).handle, { port: 0 }), prefix: '' },
    { name: 'a server that streams chunked bodies, with a charset and keys in another order', serve: chunkedReorderingMock, prefix: '' },
    { name: 'a backend under a path prefix', serve: mockUnderPrefix, prefix: '/flags' },
  ])('finds nothing in conformant traffic: $name', async ({ serve, prefix }) => {
    const { proxy, answers } = await through(serve, prefix);
    expect(answers.map((a) => a.status)).toEqual([200, 404, 200, 403, 401, 401, 200, 404, 404, 401, 404, 405, 200]);
    const found = await verdicts(proxy);
    expect(found.report).toEqual([]);
    expect(found.journal).toEqual([]);
    const report = JSON.parse((await control(proxy, '/__mock/report')).text);
    expect(report).toMatchObject({ tool: 'flag-admin proxy', verdict: 'conformant', summary: { requests: TRAFFIC.length - 1, errors: 0, warnings: 0 } });
    const entries = JSON.parse((await control(proxy, '/__mock/journal')).text).entries as JournalEntry[];
    expect(entries).toHaveLength(TRAFFIC.length);
    // The request outside the API (GET /api/admin/nothing/here) is not judged, and says so.
    expect(entries.map((e) => e.verdict)).toEqual(TRAFFIC.map((t) => (t.path === '/api/admin/nothing/here' ? 'not judged' : 'conformant')));
    // What the journal says of the spec agrees with the checks (a charset on the media type is no mismatch, RFC 9110 §8.3.1).
    expect(entries.filter((e) => e.verdict === 'conformant' && !e.responseMatchesSpec).map((e) => e.path)).toEqual([]);
    for (const key of KEYS) expect(found.texts).not.toContain(key);
  });

  it('judges a repeated identical read as the first and counts it, and still catches the answer that changes between repeats', async () => {
    let reads = 0;
    const target = await breakResponses(contract, (req, res) => {
      if (operationOf(contract, req) !== 'getOidcSettings' || res.status !== 200) return res;
      // The 6th read changes with nothing written; the 7th and 8th (after a PUT) are the first again.
      return ++reads === 6 ? editJson(res, (body) => ({ ...body, clientId: 'changed' })) : res;
    });
    running.push(target);
    const proxy = await startProxy({ contract, port: 0, target: target.url });
    running.push(proxy);
    const read = () => fetch(`${proxy.url}/api/admin/auth/oidc/settings`, { headers: { authorization: ADMIN_KEY } }).then((r) => r.text());
    for (let i = 0; i < 6; i++) await read();
    await fetch(`${proxy.url}/api/admin/auth/oidc/settings`, { method: 'PUT', headers: { authorization: ADMIN_KEY } });
    await read();
    await read();
    const report = proxy.report();
    expect(report.summary.requests).toBe(9);
    expect(report.coverage.find((c) => c.operationId === 'getOidcSettings' && c.status === '200')).toMatchObject({ provoked: 8 });
    expect(report.findings.map((f) => f.checkId)).toEqual(['answers-agree']);
    const entries = JSON.parse((await control(proxy, '/__mock/journal')).text).entries as JournalEntry[];
    expect(entries.map((e) => `${e.method} ${e.verdict} ${e.findings?.length ?? 0}`)).toEqual([...Array(5).fill('GET conformant 0'), 'GET conformant 1', 'PUT conformant 0', 'GET conformant 0', 'GET conformant 0']);
  });

  it('judges 401s that differ only in their error id and message with the rules that read those, and catches an id given twice or another field changed', async () => {
    let refusals = 0;
    let firstId: unknown;
    const target = await breakResponses(contract, (_, res) => {
      if (res.status !== 401) return res;
      refusals++;
      // The 3rd answer renames its error kind; the 6th gives the 1st answer's id again; the others are the mock's own.
      return editJson(res, (body) => {
        firstId ??= body.id;
        return refusals === 3 ? { ...body, name: 'NoAccessError' } : refusals === 6 ? { ...body, id: firstId, message: `${String(body.message)} (again)` } : body;
      });
    });
    running.push(target);
    const proxy = await startProxy({ contract, port: 0, target: target.url });
    running.push(proxy);
    for (let i = 0; i < 7; i++) expect((await fetch(`${proxy.url}/api/admin/auth/oidc/settings`)).status).toBe(401);
    const entries = JSON.parse((await control(proxy, '/__mock/journal')).text).entries as JournalEntry[];
    expect(entries.map((e) => (e.findings ?? []).map((f) => f.checkId).join() || e.verdict)).toEqual(['conformant', 'conformant', 'error-kind-conformance', 'conformant', 'conformant', 'error-ids-unique', 'conformant']);
    expect(proxy.report().summary.requests).toBe(7);
  });

  it.each(BROKEN)('finds the defect of a broken backend: $name', async ({ serve, error: expected }) => {
    const { proxy } = await through(serve);
    const found = await verdicts(proxy);
    expect(found.report).toEqual([expected]);
    expect(found.journal).toEqual([expected]);
    const report = JSON.parse((await control(proxy, '/__mock/report')).text);
    expect(report.verdict).toBe(expected.endsWith('(error)') ? 'not conformant' : 'conformant');
    const refused = await control(proxy, '/__mock/report?format=xml');
    expect([refused.status, JSON.parse(refused.text).message]).toEqual([400, 'GET /__mock/report#/format: expected "json" or "junit", got "xml"']);
    if (expected.endsWith('(error)')) expect((await control(proxy, '/__mock/report?format=junit')).text).toContain(`type="${expected.split(' ')[0]}"`);
    for (const key of KEYS) expect(found.texts).not.toContain(key);
  });

  it('passes answers on unchanged: status, media type and the bytes of the body', async () => {
    const target = await chunkedReorderingMock(contract);
    running.push(target);
    const proxy = await startProxy({ contract, port: 0, target: target.url });
    running.push(proxy);
    for (const path of ['/api/admin/environments/project/default', '/api/admin/auth/oidc/settings', '/api/admin/environments/project/none']) {
      const direct = await fetch(target.url + path, { headers: { authorization: ADMIN_KEY } });
      const proxied = await fetch(proxy.url + path, { headers: { authorization: ADMIN_KEY } });
      expect(proxied.status).toBe(direct.status);
      expect(proxied.headers.get('content-type')).toBe(direct.headers.get('content-type'));
      const [a, b] = [await direct.text(), await proxied.text()];
      // Error ids are fresh per answer; everything else is the same bytes.
      expect(b.replace(/"id":"[^"]+"/, '')).toBe(a.replace(/"id":"[^"]+"/, ''));
    }
  });

  it('passes a body larger than it keeps for judging on whole, and reports it as not judged, not as a defect', async () => {
    const target = await serveHandler(freshMock(contract).handle, { port: 0 });
    running.push(target);
    const proxy = await startProxy({ contract, port: 0, target: target.url, maxJudgedBytes: 100 });
    running.push(proxy);
    const path = '/api/admin/environments/project/default';
    const direct = await (await fetch(target.url + path, { headers: { authorization: ADMIN_KEY } })).text();
    expect(direct.length).toBeGreaterThan(100);
    expect(await (await fetch(proxy.url + path, { headers: { authorization: ADMIN_KEY } })).text()).toBe(direct);
    const report = proxy.report();
    expect(report.findings).toEqual([]);
    expect(report.notJudged).toEqual([{ operationId: 'getProjectEnvironments', label: `GET ${path}`, reason: expect.stringContaining('over 100 bytes') }]);
  });

  it('answers 502 with an error body when the target cannot be reached, and judges that as no response', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const proxy = await startProxy({ contract, port: 0, target: `http://127.0.0.1:${port}` });
    running.push(proxy);
    const answer = await fetch(`${proxy.url}/api/admin/auth/oidc/settings`, { headers: { authorization: ADMIN_KEY } });
    expect(answer.status).toBe(502);
    expect(await answer.json()).toMatchObject({ name: 'ProxyTargetError', message: expect.stringContaining('ECONNREFUSED') });
    expect(proxy.report().findings.map((f) => f.checkId)).toEqual(['response-received']);
  });

  it('keeps a key a client also put in the query out of the journal and the access log', async () => {
    const target = await serveHandler(freshMock(contract).handle, { port: 0 });
    running.push(target);
    const logged: string[] = [];
    const proxy = await startProxy({ contract, port: 0, target: target.url, onExchange: (line) => logged.push(line.url) });
    running.push(proxy);
    await fetch(`${proxy.url}/api/admin/auth/oidc/settings?api_key=${ADMIN_KEY}`, { headers: { authorization: ADMIN_KEY } });
    const journal = (await control(proxy, '/__mock/journal')).text;
    expect(journal).toContain('/api/admin/auth/oidc/settings?api_key=<redacted>');
    expect(logged).toEqual(['/api/admin/auth/oidc/settings?api_key=<redacted>']);
    expect(journal + (await control(proxy, '/__mock/report')).text).not.toContain(ADMIN_KEY);
  });

  it('with addCors (--add-cors), answers preflights and adds CORS headers to forwarded answers, as the mock does', async () => {
    const target = await serveHandler(freshMock(contract).handle, { port: 0 });
    running.push(target);
    const proxy = await startProxy({ contract, port: 0, target: target.url, cors: { origins: ['http://localhost:8000'] }, addCors: true });
    running.push(proxy);
    const preflight = await fetch(`${proxy.url}/api/admin/auth/oidc/settings`, { method: 'OPTIONS', headers: { origin: 'http://localhost:8000', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const read = await fetch(`${proxy.url}/api/admin/auth/oidc/settings`, { headers: { origin: 'http://localhost:8000', authorization: ADMIN_KEY } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBe('http://localhost:8000');
    // The preflight is the proxy's own answer: the backend never sees it, the journal does not judge it.
    expect(proxy.report().summary.requests).toBe(1);
  });

  it('without addCors, forwards preflights and adds no CORS header to forwarded answers, and keeps its own CORS on its own routes', async () => {
    const target = await serveHandler(freshMock(contract).handle, { port: 0 });
    running.push(target);
    const proxy = await startProxy({ contract, port: 0, target: target.url });
    running.push(proxy);
    const origin = { origin: 'http://localhost:8000' };
    const preflight = await fetch(`${proxy.url}/api/admin/auth/oidc/settings`, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'GET' } });
    // The mock as a backend has CORS of its own: its preflight answer is what the client gets.
    const direct = await fetch(`${target.url}/api/admin/auth/oidc/settings`, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'GET' } });
    expect([preflight.status, preflight.headers.get('access-control-allow-headers')]).toEqual([direct.status, direct.headers.get('access-control-allow-headers')]);
    const read = await fetch(`${proxy.url}/api/admin/auth/oidc/settings`, { headers: { ...origin, authorization: ADMIN_KEY } });
    expect(read.headers.get('access-control-expose-headers')).toBe((await fetch(`${target.url}/api/admin/auth/oidc/settings`, { headers: { ...origin, authorization: ADMIN_KEY } })).headers.get('access-control-expose-headers'));
    const journal = await fetch(`${proxy.url}/__mock/journal`, { headers: origin });
    expect(journal.headers.get('access-control-allow-origin')).toBe('http://localhost:8000');
  });

  it('keeps the control API (dashboard and report included) to loopback callers addressed by a loopback name, or to the token, and refuses the mock-only operations', async () => {
    const target = await serveHandler(freshMock(contract).handle, { port: 0 });
    running.push(target);
    const proxy = await startProxy({ contract, port: 0, target: target.url, controlToken: 'control-secret' });
    running.push(proxy);
    expect((await fetch(`${proxy.url}/__mock/journal`)).status).toBe(403);
    expect((await fetch(`${proxy.url}/__mock/journal`, { headers: { 'x-mock-control-token': 'control-secret' } })).status).toBe(200);
    // A page of another site rebound to 127.0.0.1 addresses the proxy by its own name: refused, the dashboard too.
    const open = await startProxy({ contract, port: 0, target: target.url });
    running.push(open);
    for (const path of ['/__mock/ui', '/__mock/journal', '/__mock/report']) {
      expect((await rawRequest(open.port, `GET ${path} HTTP/1.1\r\nHost: rebound.example:${open.port}\r\nConnection: close\r\n\r\n`))?.status, path).toBe(403);
      expect((await rawRequest(open.port, `GET ${path} HTTP/1.1\r\nHost: localhost:${open.port}\r\nConnection: close\r\n\r\n`))?.status, path).toBe(200);
    }
    const state = await fetch(`${proxy.url}/__mock/state`, { headers: { 'x-mock-control-token': 'control-secret' } });
    expect(state.status).toBe(404);
    expect(((await state.json()) as { message: string }).message).toContain('flag-admin proxy keeps none');
  });
});
