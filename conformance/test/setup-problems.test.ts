import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { serveHandler, type RunningServer } from '../../src/mock/index.ts';
import { UsageError } from '../errors.ts';
import { runConformance } from '../run.ts';
import { ADMIN_KEY, ALL_TOKENS, VIEWER_KEY, runCheck, targetArgs } from './run-check.ts';
import { breakResponses, freshMock } from './serve-target.ts';
import { useTargetServer } from './use-target-server.ts';

/** Issue 7, "set-up problems are not defects": each ends with its own exit code, a message that says what to fix, and both reports. */
const harness = useTargetServer();

/** The testcases of a JUnit report, as `classname | name`. */
const testcases = (junit: string) => [...junit.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"/g)].map((m) => `${m[1]} | ${m[2]}`);
const skippedCases = (junit: string) => junit.split('<skipped ').length - 1;

/** A loopback server that accepts connections and never answers a byte (or answers `greeting`, which is not HTTP). */
async function silentServer(greeting?: string): Promise<RunningServer> {
  const sockets = new Set<Socket>();
  const tcp = createServer((socket) => {
    if (greeting !== undefined) socket.end(greeting);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const { port } = tcp.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        tcp.close(() => resolve());
      }),
  };
}

describe('a wrong full-access key', () => {
  it('refused with 401 everywhere: exit 2, a message naming the key to fix and both readings, and both reports', async () => {
    harness.server = await breakResponses(harness.contract, (_, res) => res);
    const run = await runCheck(targetArgs(harness.server.url), { FLAG_ADMIN_API_KEY: 'not-the-admin-key', FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY });
    expect(run.code).toBe(2);
    const message = 'the full-access key was refused on all 4 requests that carried it, with 401 (not a key this target knows): check --api-key / FLAG_ADMIN_API_KEY is a key of this target. Either the key is wrong for this target, or the server refuses every key; nothing else was judged.';
    expect(run.report!.problem!.message).toBe(message);
    // Each message once (issue 18): in the console report's first lines, not again on stderr.
    expect(run.stderr).toBe('');
    expect(run.stdout.split(message).length - 1).toBe(1);
    expect(run.stdout.split('\n')[1]).toBe(`SET-UP PROBLEM: ${message}`);
    expect(run.report!.verdict).toBe('set-up problem');
    expect(run.report!.findings).toEqual([]);
    expect(run.report!.summary.requests).toBe(4);
    expect(new Set(run.report!.checks.flatMap((c) => c.operations.map((o) => `${o.outcome}: ${o.reason}`)))).toEqual(new Set(['not checked: not judged: the full-access key was refused (a set-up problem)']));
    expect(run.junit).toContain('<skipped message="not judged: the full-access key was refused (a set-up problem)"/>');
    expect(run.junit).toContain('<error message="the full-access key was refused');
    expect(run.json + run.junit + run.stdout).not.toContain('not-the-admin-key');
  });

  it('prints the problem and what to fix, not a table of checks that did not run; JUnit keeps the testcases of a normal run, skipped (issue 13, item 11)', async () => {
    harness.server = await breakResponses(harness.contract, (_, res) => res);
    const normal = await runCheck(targetArgs(harness.server.url));
    expect(normal.code).toBe(0);
    await harness.server.close();
    harness.server = await breakResponses(harness.contract, (_, res) => res);
    const run = await runCheck(targetArgs(harness.server.url), { FLAG_ADMIN_API_KEY: 'not-the-admin-key', FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY });
    expect(run.code).toBe(2);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(8);
    expect(lines).toContain(`SET-UP PROBLEM: ${run.report!.problem!.message}`);
    // The reads of every given project come first; the key is known refused after them.
    expect(run.report!.summary.requests).toBeLessThanOrEqual(5);
    expect(lines.at(-1)).toBe(`SET-UP PROBLEM: ${run.report!.summary.requests} request(s) sent, nothing judged; fix the set-up and run again`);
    expect(run.stdout).not.toMatch(/not judged|Coverage|Checks/);
    expect(testcases(run.junit)).toEqual(['set-up | set-up: full-key-refused', ...testcases(normal.junit)]);
    expect(skippedCases(run.junit)).toBe(testcases(normal.junit).length);
  });

  it('a valid key without the permissions (403 everywhere): exit 2, asking for a key that may do everything', async () => {
    harness.server = await breakResponses(harness.contract, (req, res) => (req.headers.authorization === ADMIN_KEY ? { status: 403, headers: { 'content-type': 'application/json' }, body: '{"id":"e","name":"NoAccessError","message":"no"}' } : res));
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('with 403 (a valid key without the permissions): give a key that may do everything');
  });
});

describe('a target that cannot be judged', () => {
  it('refuses connections: exit 3, one clear line, and reports that say so', async () => {
    const closed = await serveHandler(() => ({ status: 200, headers: {}, body: undefined }), { port: 0 });
    await closed.close();
    const run = await runCheck(['--base-url', closed.url]);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`flag-admin check: cannot reach ${closed.url}: ECONNREFUSED (is the server running?)\n`);
    expect(run.report!.verdict).toBe('unreachable');
    expect(run.junit).toContain(`<error message="cannot reach ${closed.url}: ECONNREFUSED`);
    // The same testcases as a normal run with these options, each skipped (issue 13, item 11).
    const mock = freshMock(harness.contract);
    harness.server = await serveHandler((request) => mock.handle(request), { port: 0 });
    const normal = await runCheck(['--base-url', harness.server.url]);
    expect(testcases(run.junit)).toEqual(['set-up | set-up: unreachable', ...testcases(normal.junit)]);
    expect(skippedCases(run.junit)).toBe(testcases(normal.junit).length);
  });

  it('accepts connections and never answers: exit 3 within a few deadlines, not a list of defects', async () => {
    harness.server = await silentServer();
    const started = performance.now();
    const run = await runCheck([...targetArgs(harness.server.url), '--timeout', '300']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`flag-admin check: ${harness.server.url} sent no HTTP response within 300 ms, not even to GET / (is it the right address? is the server stuck or still starting?)\n`);
    expect(run.report!.findings).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('answers with bytes that are not HTTP: exit 3, saying so rather than "cannot reach"', async () => {
    harness.server = await silentServer('220 smtp.example ESMTP ready\r\n');
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`flag-admin check: ${harness.server.url}: the target answered with bytes that are not an HTTP response (Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)), and so did GET / (is it the right address and port? an https:// server?)\n`);
  });
});

describe('bad options before anything is sent', () => {
  it('still writes both reports with the reason (exit 2)', async () => {
    const run = await runCheck(['--base-url', 'http://127.0.0.1:9', '--forbidden', 'getEverything']);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.json)).toEqual({ tool: 'flag-admin check', target: 'http://127.0.0.1:9', verdict: 'set-up problem', problem: { kind: 'bad-options', message: expect.stringContaining('--forbidden: the spec has no operation "getEverything"') } });
    expect(run.junit).toContain('<error message="--forbidden: the spec has no operation &quot;getEverything&quot;');
  });
});

describe('a key in the base URL', () => {
  const percent = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
  const userinfos = [`user:${ADMIN_KEY}`, `:${ADMIN_KEY}`, ADMIN_KEY, `user:${percent(ADMIN_KEY)}`];
  it.each(userinfos)('%s@…: exit 2 before any request, pointing to --api-key, and no form of the key in any output', async (userinfo) => {
    let requests = 0;
    const mock = freshMock(harness.contract);
    harness.server = await serveHandler((request) => (requests++, mock.handle(request)), { port: 0 });
    const url = harness.server.url.replace('//', `//${userinfo}@`);
    const run = await runCheck(targetArgs(url), { FLAG_ADMIN_API_KEY: ADMIN_KEY });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--base-url (option baseUrl): expected no user name or password in the URL, got "${harness.server.url.replace('//', '//<redacted>@')}"; the suite never sends them: give the full-access key with --api-key KEY or FLAG_ADMIN_API_KEY`);
    expect(JSON.parse(run.json)).toMatchObject({ target: harness.server.url.replace('//', '//<redacted>@'), verdict: 'set-up problem', problem: { kind: 'bad-options' } });
    expect(run.junit).toContain('<error message="--base-url (option baseUrl): expected no user name or password');
    const everything = run.stdout + run.stderr + run.json + run.junit;
    for (const form of [ADMIN_KEY, percent(ADMIN_KEY), percent(ADMIN_KEY).toLowerCase()]) expect(everything).not.toContain(form);
    expect(requests).toBe(0);
  });

  it.each([`http://user:${ADMIN_KEY}@127.0.0.1:9`, `http:user:${ADMIN_KEY}@127.0.0.1:9`, ` http://${percent(ADMIN_KEY)}@127.0.0.1:9/prefix`, `http://user:${ADMIN_KEY}@[::1`])('runConformance refuses %j with a UsageError that does not quote the key', async (baseUrl) => {
    const attempt = runConformance({ baseUrl, apiKey: ADMIN_KEY });
    await expect(attempt).rejects.toThrow(UsageError);
    await expect(attempt).rejects.toThrow('expected no user name or password in the URL');
    await attempt.catch((error: Error) => {
      expect(error.message).not.toContain(ADMIN_KEY);
      expect(error.message).not.toContain(percent(ADMIN_KEY));
    });
  });

  it('keeps an @ in the path, which is no credential', async () => {
    const mock = freshMock(harness.contract);
    harness.server = await serveHandler((request) => mock.handle(request), { port: 0 });
    const report = await runConformance({ baseUrl: `${harness.server.url}/@team`, apiKey: ADMIN_KEY });
    expect(report.target).toBe(`${harness.server.url}/@team`);
  });
});

describe('runConformance validates its options as the CLI does', () => {
  it('accepts tokens written "ACCOUNT/TOKEN", as in the config file, and deletes exactly those', async () => {
    const mock = freshMock(harness.contract);
    harness.server = await serveHandler((request) => mock.handle(request), { port: 0 });
    const report = await runConformance({ baseUrl: harness.server.url, apiKey: ADMIN_KEY, restrictedKey: VIEWER_KEY, allowDelete: true, tokens: ALL_TOKENS.filter((t) => t !== '--token') });
    expect(report.findings).toEqual([]);
    expect(report.options.tokens).toEqual(['1/1', '1/2', '1/3', '2/4', '2/5', '12/1']);
    // Every given token has a role; each is deleted by it, the bystander 12/1 last.
    expect(mock.store.snapshot().serviceAccounts.flatMap((a) => a.tokens.map((t) => `${a.id}/${t.id}`))).toEqual([]);
    const partial = freshMock(harness.contract);
    harness.server = (await harness.server.close(), await serveHandler((request) => partial.handle(request), { port: 0 }));
    await runConformance({ baseUrl: harness.server.url, apiKey: ADMIN_KEY, allowDelete: true, tokens: ['1/1', { account: '2', token: '4' }] });
    expect(partial.store.snapshot().serviceAccounts.flatMap((a) => a.tokens.map((t) => `${a.id}/${t.id}`))).toEqual(['1/2', '1/3', '2/5', '12/1']);
  });

  it.each([
    [{ tokens: [42] }, 'option tokens[0]: expected "ACCOUNT/TOKEN", e.g. "1/2", or { account: "1", token: "2" }, got 42'],
    [{ tokens: [{ account: 1, token: 2 }] }, 'option tokens[0]: expected "ACCOUNT/TOKEN"'],
    [{ tokens: '1/1' }, '--token (option tokens): expected an array'],
    [{ timeoutMs: '5000' }, '--timeout (option timeoutMs): expected a positive integer, got "5000"'],
    [{ maxBodyBytes: 0 }, '--max-body (option maxBodyBytes): expected a positive integer, got 0'],
    [{ allowDelete: 'yes' }, '--allow-delete (option allowDelete): expected true or false, got "yes"'],
    [{ skipChecks: 'odd-id-rejected' }, '--skip-check (option skipChecks): expected an array of strings'],
    [{ restrictedKey: 12345 }, '--restricted-key (option restrictedKey): expected a string or an array of strings'],
    [{ timeout: 5000 }, 'option timeout: expected one of the options baseUrl, apiKey'],
  ])('refuses %j with a UsageError naming the option', async (bad, message) => {
    const attempt = runConformance({ baseUrl: 'http://127.0.0.1:9', apiKey: ADMIN_KEY, ...(bad as object) });
    await expect(attempt).rejects.toThrow(UsageError);
    await expect(attempt).rejects.toThrow(message);
    await attempt.catch((error: Error) => expect(error.message).not.toContain('12345'));
  });
});

describe('tokens that may be gone already', () => {
  it("after the README's own curl deleted token 1/2, the cross-account finding says what it saw and names both readings", async () => {
    const mock = freshMock(harness.contract);
    harness.server = await serveHandler((request) => mock.handle(request), { port: 0 });
    const curl = await fetch(`${harness.server.url}/api/admin/service-account/1/token/2`, { method: 'DELETE', headers: { authorization: ADMIN_KEY } });
    expect(curl.status).toBe(200);
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.code).toBe(1);
    expect(run.report!.findings.map((f) => `${f.checkId}: ${f.message}`)).toEqual([
      'cross-account-delete-rejected: delete token 1/2 through its own account after that: answered 404 after the request through the other account answered 404. Either that request removed the token although it answered as if nothing was deleted (API §4.3: a token is identified by both ids), or token 1/2 no longer existed when the run started (deleted by an earlier run or by hand: pass fresh disposable --token values); the answers cannot tell which. It was sent at once with deletes of other tokens of the same account that succeeded (1/3, 1/1): a server that lets one delete depend on another token\'s (a lock conflict read as not found) answers so too.',
    ]);
    expect(run.stdout).not.toContain('removed the token anyway');
  });

  it('a second run with the same tokens names both readings for the delete and the concurrent deletes', async () => {
    const mock = freshMock(harness.contract);
    harness.server = await serveHandler((request) => mock.handle(request), { port: 0 });
    await runCheck(targetArgs(harness.server.url));
    const second = await runCheck(targetArgs(harness.server.url));
    expect(second.code).toBe(1);
    expect(second.report!.findings.map((f) => `${f.checkId}: ${f.message}`)).toEqual([
      // The overlap batch, token 1/1's delete its last request, its delete again on the same connection (issue 18, the connection; red team round fifteen).
      expect.stringMatching(/^delete-token-succeeds: delete token 2\/4, at once with the deletes of other tokens: answered 404\. Either .*, or token 2\/4 no longer existed/),
      expect.stringMatching(/^delete-token-succeeds: delete token 1\/1, at once with the deletes of other tokens where there are any, then again on the same kept-alive connection: answered 404\. Either the server did not find or delete an existing token .*, or token 1\/1 no longer existed when the run started .*; the answers cannot tell which\.$/),
      expect.stringMatching(/^concurrent-delete-single-success: 8 concurrent deletes of one token: none succeeded\. Either the server did not delete an existing token, or token 1\/3 no longer existed/),
    ]);
  });
});

describe('JSON of this API in another encoding is a defect, not a wrong base URL', () => {
  // RFC 8259 §8.1: JSON exchanged between systems MUST be UTF-8, with no byte order mark. Round nine's json-in-utf-16 (an
  // ASP.NET writer on Encoding.Unicode) and round seven's json-body-with-bom: documented statuses and application/json, so
  // the answers are this API's; the run judges them (exit 1) instead of stopping at "does not look like this API" (exit 2).
  it.each([
    ['UTF-16LE behind its byte order mark', (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'utf-16'],
    ['UTF-16BE behind its byte order mark', (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]), 'utf-16'],
    ['UTF-8 behind a byte order mark', (text: string) => Buffer.from(`\uFEFF${text}`), 'utf-8'],
  ] as const)('%s: exit 1 with the bodies reported as not JSON', async (_, encode, charset) => {
    const mock = freshMock(harness.contract);
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const answer = mock.handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
        const bytes = answer.body === undefined ? Buffer.alloc(0) : answer.body.startsWith('{') ? encode(answer.body) : Buffer.from(answer.body);
        const type = answer.body?.startsWith('{') ? { 'content-type': `application/json; charset=${charset}` } : {};
        res.writeHead(answer.status, { ...answer.headers, ...type, 'content-length': String(bytes.length) });
        res.end(bytes);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    harness.server = { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, port: 0, close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }) };
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.report!.verdict).toBe('not conformant');
    expect(run.report!.findings.some((f) => f.checkId === 'response-schema-conformance' && f.severity === 'error')).toBe(true);
    expect(run.code).toBe(1);
  });
});
