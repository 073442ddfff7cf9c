import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../src/contract/index.ts';
import { DEFAULT_FIXTURES, createMock, serveHandler, type RunningServer } from '../../src/mock/index.ts';
import { checkCommand } from '../cli.ts';
import { breakResponses, editJson, operationOf } from './serve-target.ts';
import { ADMIN_KEY, VIEWER_KEY, runCheck, targetArgs } from './run-check.ts';
import { tempDir } from '../../test/temp-dir.ts';

let contract: Contract;
const dir = tempDir('flag-admin-check-cli-');
beforeAll(async () => (contract = await loadContract({ validate: false })));

async function cli(args: string[], env: Record<string, string | undefined> = { FLAG_ADMIN_API_KEY: ADMIN_KEY }) {
  let stdout = '';
  let stderr = '';
  const code = await checkCommand(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env });
  return { code, stdout, stderr };
}

function configFile(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

describe('usage', () => {
  it.each([
    [['--api-key', 'k'], 'missing --base-url'],
    [['--base-url', 'http://127.0.0.1:1', '--frobnicate'], "unknown option --frobnicate"],
    [['--base-url', 'ftp://x'], '--base-url: expected an http(s) URL'],
    [['--base-url', 'http://127.0.0.1:1', '--token', '12'], '--token: expected ACCOUNT/TOKEN'],
    [['--base-url', 'http://127.0.0.1:1', '--timeout', 'soon'], '--timeout: expected a positive integer'],
    [['--base-url', 'http://127.0.0.1:1', '--max-body', 'lots'], '--max-body: expected a number of bytes, e.g. 1048576 or 4M, got "lots"'],
    [['--base-url', 'http://127.0.0.1:1', '--forbidden', 'getEverything'], '--forbidden: the spec has no operation "getEverything"'],
    [['--base-url', 'http://127.0.0.1:1', '--skip-check', 'no-such-check'], '--skip-check: no check "no-such-check"'],
  ])('exits 2 for %j: %s', async (args, message) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('exits 2 without a full-access key in flags, env or config', async () => {
    const run = await cli(['--base-url', 'http://127.0.0.1:1'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('FLAG_ADMIN_API_KEY');
  });

  it('exits 2 naming the file for a spec that cannot be used', async () => {
    const spec = configFile('not-openapi.yaml', 'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths: {}\n');
    const run = await cli(['--base-url', 'http://127.0.0.1:1', '--spec', spec]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`bad spec: ${spec}#/openapi: expected an OpenAPI 3.1.x document`);
  });
});

describe('--config FILE', () => {
  it.each([
    ['timeout.json', { timeout: 'soon' }, '#/timeout: expected a positive integer of milliseconds, got "soon"'],
    ['unknown.json', { baseURL: 'http://x' }, '#/baseURL: expected one of the options baseUrl, apiKey'],
    ['token.json', { tokens: ['1/1', 'oops'] }, '#/tokens/1: expected a string "ACCOUNT/TOKEN", e.g. "1/2", got "oops"'],
    ['array.json', [], ': expected an object of options'],
    ['max-body.json', { maxBody: 0 }, '#/maxBody: expected a positive integer of bytes, got 0'],
    ['broken.json', '{"baseUrl": ', ':1:13: expected a value (JSON allows no trailing comma, and the text must not be empty), got a JSON syntax error (the text is not shown: it may hold a key)'],
  ])('exits 2 naming the file, the pointer and the expectation (%s)', async (name, value, message) => {
    const file = configFile(name, value);
    const run = await cli(['--config', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`bad config: ${file}${message}`);
  });

  it('never quotes the text around a JSON syntax error, which may be a key', async () => {
    const file = configFile('syntax.json', '{\n  "baseUrl": "http://127.0.0.1:9",\n  "apiKey": sk-live-0123456789\n}');
    const run = await cli(['--config', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`bad config: ${file}:3:13: expected a JSON value`);
    expect(run.stderr).not.toContain('sk-live');
  });

  it('never echoes a mistyped key', async () => {
    const file = configFile('key.json', { apiKey: 12345678 });
    const run = await cli(['--config', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('#/apiKey: expected a non-empty string');
    expect(run.stderr).not.toContain('12345678');
  });

  it('takes every option from the file, flags winning over it', async () => {
    const server = await breakResponses(contract, (_, res) => res);
    try {
      const file = configFile('good.json', { baseUrl: server.url, apiKey: ADMIN_KEY, restrictedKey: [VIEWER_KEY], allowDelete: true, tokens: ['1/1', '1/2', '1/3', '12/1'], project: ['no-such-project-at-all'], settleMs: 10, randomSteps: 20 });
      const run = await cli(['--config', file, '--project', 'default', '--project', 'mobile-app'], {});
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      // Only --strict is left unchecked: the key, restricted key, tokens and random steps came from the file; the project from the flag.
      expect(run.stdout).toContain('project "default"');
      expect(run.stdout).toContain('projects "default", "mobile-app"');
      expect(run.stdout).toContain('--settle-ms 10 before the end');
      expect(run.stdout).toContain('token 12/1: bystander');
      expect(run.stdout).toMatch(/^CONFORMANT: \d+ requests, 0 error\(s\), 0 warning\(s\), 3 check\(s\) not checked$/m);
    } finally {
      await server.close();
    }
  });
});

describe('secrets', () => {
  let echo: RunningServer;
  beforeAll(async () => {
    // Echoes the key it was sent into every error and a header, and breaks the OIDC body, so findings quote both.
    echo = await breakResponses(contract, (req, res) => {
      const key = String(req.headers.authorization ?? '');
      const echoed = res.status >= 400 ? editJson(res, (body) => ({ ...body, name: 'Oops', message: `key ${key} refused` })) : res;
      const broken = operationOf(contract, req) === 'getOidcSettings' && res.status === 200 ? editJson(echoed, (body) => ({ ...body, defaultRootRole: 'Owner' })) : echoed;
      return { ...broken, headers: { ...broken.headers, 'x-echo': key } };
    });
  });
  afterAll(() => echo.close());

  it('never shows a key or a password-format property in any report, and writes keys as variables in curl lines', async () => {
    const run = await runCheck(targetArgs(echo.url));
    expect(run.code).toBe(1);
    const everything = run.stdout + run.stderr + run.json + run.junit;
    expect(everything).not.toContain(ADMIN_KEY);
    expect(everything).not.toContain(VIEWER_KEY);
    expect(everything).not.toContain('mock-oidc-secret');
    expect(run.report!.findings.some((f) => f.response?.excerpt.includes('"secret":"<redacted>"'))).toBe(true);
    expect(run.report!.findings.some((f) => f.curl.includes('"Authorization: $KEY_2"'))).toBe(true);
    // Each variable is printed with the key it stands for, in every report.
    expect(run.report!.keys).toEqual([
      { variable: 'KEY_1', standsFor: expect.stringContaining('the full-access key, given as --api-key') },
      { variable: 'KEY_2', standsFor: 'the restricted key given as --restricted-key #1 (or FLAG_ADMIN_RESTRICTED_KEY)' },
    ]);
    expect(run.stdout).toContain('  KEY_2  the restricted key given as --restricted-key #1');
    expect(run.junit).toContain('KEY_2: the restricted key given as --restricted-key #1');
    expect(run.junit).toContain('<failure message=');
  });
});

describe('--restricted-key, repeatable', () => {
  it('tries every restricted key on every operation and a token of every account; a finding names the key by its variable and no report shows it', async () => {
    const second = 'viewer-key-of-another-team';
    const mock = createMock({ contract, fixtures: { ...DEFAULT_FIXTURES, apiKeys: [...DEFAULT_FIXTURES.apiKeys, { key: second, permissions: ['getProjectEnvironments'] }] } });
    // The second key's permission check is missing on the deletes: it acts as the admin key there.
    const server = await serveHandler((request) => mock.handle(request.headers.authorization === second && request.method === 'DELETE' ? { ...request, headers: { ...request.headers, authorization: ADMIN_KEY } } : request), { port: 0 });
    try {
      const run = await runCheck([...targetArgs(server.url), '--restricted-key', VIEWER_KEY, '--restricted-key', second]);
      expect(run.code).toBe(1);
      expect(run.report!.options.restrictedKeys).toBe(2);
      expect([...new Set(run.report!.findings.map((f) => f.checkId))]).toEqual(['restricted-key-forbidden']);
      const curls = run.report!.findings.map((f) => f.curl);
      expect(curls.every((c) => c.includes('$KEY_3'))).toBe(true);
      expect(run.report!.keys.at(-1)).toEqual({ variable: 'KEY_3', standsFor: 'the restricted key given as --restricted-key #2' });
      expect(run.report!.findings.map((f) => f.request.url.replace(server.url, ''))).toContain('/api/admin/service-account/2/token/4');
      expect(run.stdout + run.json + run.junit).not.toContain(second);
    } finally {
      await server.close();
    }
  });
});
