import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../src/contract/index.ts';
import { serveHandler, startMock, type RunningServer } from '../../src/mock/index.ts';
import type { Report } from '../types.ts';
import { ADMIN_KEY, VIEWER_KEY, targetArgs } from './run-check.ts';
import { runCliProcess, type CliProcessRun } from './run-cli-process.ts';
import { freshMock } from './serve-target.ts';

/**
 * Issue 18, "reports that point at the cause": a set-up mistake is told in the first lines, once,
 * in a report short enough to read (at most 60 lines), through the real CLI process.
 */
const MAX_LINES = 60;

let contract: Contract;
beforeAll(async () => (contract = await loadContract({ validate: false })));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** What a user sees in the terminal: stderr (printed first) and stdout. */
const screen = (run: CliProcessRun) => `${run.stderr}${run.stdout}`.trimEnd().split('\n');
const occurrences = (text: string, part: string) => text.split(part).length - 1;

/** `python3 -m http.server` on a loopback port of its own, serving an empty folder: a web server that is not this API. */
async function pythonHttpServer(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'flag-admin-static-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>hello</title>');
  const child: ChildProcess = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  const port = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /port (\d+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`python3 -m http.server exited ${code}: ${seen}`)));
  });
  return `http://127.0.0.1:${port}`;
}

/** Another service's JSON API: every request answered 404 with its own error shape (fastify's). */
async function otherJsonApi(): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ message: `Route ${req.method}:${req.url} not found`, error: 'Not Found', statusCode: 404 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback node:http server answering every request with `answer` (its method, path and Authorization): a service that is not this API. */
async function otherServer(answer: (method: string, url: string, authorization: string | undefined) => { status: number; headers: Record<string, string>; body: string }): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    const { status, headers, body } = answer(req.method ?? 'GET', req.url ?? '/', req.headers.authorization);
    res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A single-page app's static host: index.html with 200 to every path (the history-API fallback). */
const spaHost = () => otherServer(() => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><div id="root"></div><script src="/app.js"></script>' }));
/** A login page in front of everything: 302 to /login whatever the key. */
const loginRedirect = () => otherServer((_, url) => ({ status: 302, headers: { location: `/login?next=${encodeURIComponent(url)}`, 'content-type': 'text/html' }, body: '<a href="/login">Found</a>' }));
/** A health endpoint's catch-all: 200 and JSON to every path, whatever the key. */
const catchAllJson = () => otherServer(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"status":"ok","uptime":12345}' }));
/** An auth gateway of another service: 401 without Authorization, its own 404 JSON with any key (no such route behind it). */
const authGateway = () => otherServer((method, url, authorization) => {
  const headers: Record<string, string> = authorization === undefined ? { 'content-type': 'application/json', 'www-authenticate': 'Bearer' } : { 'content-type': 'application/json' };
  return authorization === undefined ? { status: 401, headers, body: '{"error":"unauthorized"}' } : { status: 404, headers, body: JSON.stringify({ error: 'no_route', path: url, method }) };
});

async function mock(): Promise<RunningServer> {
  const m = freshMock(contract);
  const server = await serveHandler((request) => m.handle(request), { port: 0 });
  cleanups.push(() => server.close());
  return server;
}

/** The mock with every layer `flag-admin mock` serves (CORS included), on a port of its own. */
async function cliMock(): Promise<RunningServer> {
  const server = await startMock({ contract, port: 0 });
  cleanups.push(() => server.close());
  return server;
}

describe('a base URL that is not this API', () => {
  it.each([
    ['python3 -m http.server', pythonHttpServer, /404 text\/html/],
    ["another service's JSON API", otherJsonApi, /404 application\/json/],
    ["a single-page app's static host (index.html with 200 to every path)", spaHost, /200 text\/html/],
    ['a login page in front of everything (302 whatever the key)', loginRedirect, /302 text\/html/],
    ['a catch-all health endpoint (200 JSON to every path, whatever the key)', catchAllJson, /200 application\/json/],
    ["another service's auth gateway (401 without a key, 404 JSON with any)", authGateway, /404 application\/json/],
  ] as const)('%s: exit 2, the first lines say the base URL looks wrong and what it answered, at most 60 lines, nothing deleted', async (_, serve, got) => {
    const url = await serve();
    const run = await runCliProcess(targetArgs(url), { FLAG_ADMIN_API_KEY: ADMIN_KEY, FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY });
    const lines = screen(run);
    expect(run.code).toBe(2);
    expect(lines.length).toBeLessThanOrEqual(MAX_LINES);
    const head = lines.slice(0, 4).join('\n');
    expect(head).toContain('does not look like this API');
    expect(head).toContain('--base-url');
    expect(head).toMatch(got);
    const report = JSON.parse(run.json) as Report;
    expect(report.verdict).toBe('set-up problem');
    expect(report.problem?.kind).toBe('not-this-api');
    expect(report.findings).toEqual([]);
    // Only the first reads were sent: no delete reached a server that is not this API.
    expect(report.summary.requests).toBeLessThanOrEqual(5);
    expect(occurrences(run.stdout + run.stderr, report.problem!.message)).toBe(1);
    expect(run.junit).toContain('<error message="');
  });
});

describe('the restricted key given as the full-access key', () => {
  it.each([
    ['alone', { FLAG_ADMIN_API_KEY: VIEWER_KEY }, targetArgs],
    ['and as the restricted key too', { FLAG_ADMIN_API_KEY: VIEWER_KEY, FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY }, targetArgs],
    // No token to delete: the delete is seen only on missing tokens, its variants and its preflights, which the mock as
    // `flag-admin mock` serves it (CORS on) answers with 204.
    ['alone, with nothing but the base URL, against the mock as its CLI serves it', { FLAG_ADMIN_API_KEY: VIEWER_KEY }, (url: string) => ['--base-url', url]],
  ] as const)('%s: the first lines say it may be a restricted key, once, in at most 60 lines; the findings stay (exit 1)', async (name, env, args) => {
    const server = name.includes('as its CLI serves it') ? await cliMock() : await mock();
    const run = await runCliProcess(args(server.url), env);
    const lines = screen(run);
    expect(run.code).toBe(1);
    expect(lines.length).toBeLessThanOrEqual(MAX_LINES);
    const head = lines.slice(0, 6).join('\n');
    expect(head).toContain('may be a restricted key');
    // Refused: the two operations the viewer key lacks; accepted: only the one it has. A 204 to an OPTIONS (a preflight
    // variant of the delete) is no evidence that the key may delete.
    expect(head).toMatch(/403 on \d+ request\(s\) of getOidcSettings and deleteServiceAccountToken and no success there, but a success on getProjectEnvironments:/);
    expect(occurrences(run.stdout + run.stderr, 'may be a restricted key')).toBe(1);
    const report = JSON.parse(run.json) as Report;
    expect(report.hints?.map((h) => h.kind)).toEqual(['full-key-restricted']);
    expect(report.findings.length).toBeGreaterThan(10);
    // Every 403 to the "full" key is one the hint accounts for.
    const forbidden = report.findings.filter((f) => f.checkId === 'full-key-never-forbidden');
    expect(forbidden.length).toBeGreaterThan(0);
    expect(forbidden.filter((f) => f.likelyCause !== 'full-key-restricted')).toEqual([]);
    expect(run.stdout + run.stderr + run.json + run.junit).not.toContain(VIEWER_KEY);
  });
});

describe('a token already gone before the run', () => {
  it('gets the explanation in its own finding, in full, and a hint at the top', async () => {
    const server = await mock();
    const gone = await fetch(`${server.url}/api/admin/service-account/1/token/2`, { method: 'DELETE', headers: { authorization: ADMIN_KEY } });
    expect(gone.status).toBe(200);
    const run = await runCliProcess(targetArgs(server.url), { FLAG_ADMIN_API_KEY: ADMIN_KEY, FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.json) as Report;
    const onToken = report.findings.filter((f) => f.request.url.endsWith('/service-account/1/token/2'));
    expect(onToken).not.toEqual([]);
    for (const finding of onToken) expect(finding.alsoPossible).toContain('token 1/2 no longer existed when the run started');
    expect(run.stdout).toMatch(/^ {3}or:\s+token 1\/2 no longer existed when the run started/m);
    expect(screen(run).slice(0, 6).join('\n')).toContain('token 1/2');
    expect(report.hints?.map((h) => h.kind)).toEqual(['tokens-gone']);
  });
});
