import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/flag-admin.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = { authorization: 'mock-admin-key' };

// Loaded before the bin: reports on stderr every package module the process loads, by import or
// require (module.registerHooks sees both), as `loaded <package>`.
const REPORT_LOADS = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
registerHooks({ load(url, context, next) {
  const found = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url);
  if (found) process.stderr.write('loaded ' + found[1] + '\\n');
  return next(url, context);
} });
`)}`;

const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

/** The real bin with the load report on; `selfCheck` as FLAG_ADMIN_MOCK_SELF_CHECK sets it. */
async function startMock(selfCheck: boolean) {
  const env = { ...process.env };
  delete env.FLAG_ADMIN_MOCK_SELF_CHECK;
  if (selfCheck) env.FLAG_ADMIN_MOCK_SELF_CHECK = '1';
  const child = spawn(process.execPath, ['--import', REPORT_LOADS, BIN, 'mock', '--port', '0', '--quiet'], { cwd: ROOT, env });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  for (let i = 0; i < 400 && child.exitCode === null; i++) {
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
    if (url) return { url, packagesLoaded: () => new Set([...stderr.matchAll(/^loaded (.+)$/gm)].map((m) => m[1]!)) };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the mock did not start: ${stdout}\n${stderr}`);
}

// Start-up is what CI fleets pay thousands of times: Ajv's and yaml's ~160 modules were half of
// it (bench/RESULTS.md, start-up). They load when first needed, and still load then.
describe('flag-admin mock start-up', () => {
  it('answers its first environments read without loading Ajv or yaml, and loads yaml for /openapi.yaml', async () => {
    const mock = await startMock(false);
    expect((await fetch(`${mock.url}/api/admin/environments/project/default`, { headers: ADMIN })).status).toBe(200);
    expect([...mock.packagesLoaded()].filter((name) => ['ajv', 'ajv-formats', 'yaml', '@apidevtools/swagger-parser'].includes(name))).toEqual([]);

    const yaml = await fetch(`${mock.url}/openapi.yaml`);
    expect(yaml.status).toBe(200);
    expect(await yaml.text()).toMatch(/^openapi: 3\.1\./m);
    expect(mock.packagesLoaded()).toContain('yaml');
  });

  it('starts without Ajv under self-check too, and checks the first response with the validators compiled ahead of time', async () => {
    const mock = await startMock(true);
    expect(mock.packagesLoaded()).not.toContain('ajv');
    expect(mock.packagesLoaded()).not.toContain('ajv-formats');
    const response = await fetch(`${mock.url}/api/admin/environments/project/default`, { headers: ADMIN });
    expect(response.status).toBe(200);
    // spec/openapi.validators.cjs (src/contract/precompiled-validators.ts) needs only ajv-formats' format checks, not Ajv.
    expect(mock.packagesLoaded()).toContain('ajv-formats');
    expect(mock.packagesLoaded()).not.toContain('ajv');
  });
});
