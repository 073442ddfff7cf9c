import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serveHandler } from '../../src/mock/index.ts';
import { loadContract } from '../../src/contract/index.ts';
import { freshMock } from './serve-target.ts';

const BIN = fileURLToPath(new URL('../../bin/flag-admin.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Loaded before the bin: reports on stderr every module the process loads (module.registerHooks
// sees imports and requires) as `loaded <url>`, and at exit Node's own modules it loaded (which
// the hooks do not see: process.moduleLoadList) as `builtin <name>`.
const REPORT_LOADS = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
registerHooks({ load(url, context, next) {
  if (!url.startsWith('node:')) process.stderr.write('loaded ' + url + '\\n');
  return next(url, context);
} });
process.on('exit', () => {
  for (const m of process.moduleLoadList) if (m.startsWith('NativeModule ')) process.stderr.write('builtin ' + m.slice(13) + '\\n');
});
`)}`;

async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; loaded: string[]; builtins: string[] }> {
  const child = spawn(process.execPath, ['--import', REPORT_LOADS, BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, loaded: [...stderr.matchAll(/^loaded (.+)$/gm)].map((m) => m[1]!.replace(/^file:\/\//, '').replace(ROOT, '')), builtins: [...stderr.matchAll(/^builtin (.+)$/gm)].map((m) => m[1]!) };
}

describe('flag-admin check start-up', () => {
  it('prints --help from the usage module alone: no package, nothing of the suite but its constants', async () => {
    const help = await run(['check', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: flag-admin check --base-url URL/);
    expect(help.loaded.filter((path) => path.includes('node_modules/'))).toEqual([]);
    expect(help.loaded.filter((path) => path.startsWith('conformance/')).sort()).toEqual(['conformance/check-usage.ts', 'conformance/key-variables.ts', 'conformance/options.ts']);
  });

  it('runs the suite from its bundle in a checkout (src/cli/bundled-entry.ts), with the report its sources give', async () => {
    const contract = await loadContract({ validate: false });
    const runs: { stdout: string; loaded: string[] }[] = [];
    for (const env of [{}, { FLAG_ADMIN_NO_BUNDLE: '1' }] as Record<string, string>[]) {
      const mock = freshMock(contract);
      const server = await serveHandler((request) => mock.handle(request), { port: 0 });
      try {
        const check = await run(['check', '--base-url', server.url, '--token', '1/1', '--allow-delete'], { FLAG_ADMIN_API_KEY: 'mock-admin-key', ...env });
        runs.push({ stdout: check.stdout.replaceAll(server.url, 'BASE'), loaded: check.loaded });
      } finally {
        await server.close();
      }
    }
    const [bundled, sources] = runs as [(typeof runs)[number], (typeof runs)[number]];
    // The bundle is read as a file and compiled by vm.Script, not loaded as a module: none of the suite's modules loads.
    expect(existsSync(join(ROOT, '.flag-admin-cache', 'check', 'latest.json'))).toBe(true);
    expect(bundled.loaded.filter((path) => path.startsWith('conformance/') && !/^conformance\/(check-usage|key-variables|options)\.ts$/.test(path))).toEqual([]);
    expect(sources.loaded).toContain('conformance/run.ts');
    expect(bundled.stdout).toMatch(/^CONFORMANT: /m);
    expect(bundled.stdout).toBe(sources.stdout);
  });

  it("keeps the near-miss grammars' Unicode tables beside the bundle: the next run takes them, or derives its own when they are another runtime's", async () => {
    const contract = await loadContract({ validate: false });
    const check = async () => {
      const mock = freshMock(contract);
      const server = await serveHandler((request) => mock.handle(request), { port: 0 });
      try {
        const ran = await run(['check', '--base-url', server.url, '--token', '1/1', '--allow-delete'], { FLAG_ADMIN_API_KEY: 'mock-admin-key' });
        expect(ran.stdout).toMatch(/^CONFORMANT: /m);
        return ran.stdout.replaceAll(server.url, 'BASE');
      } finally {
        await server.close();
      }
    };
    const first = await check();
    const { build } = JSON.parse(readFileSync(join(ROOT, '.flag-admin-cache', 'check', 'latest.json'), 'utf8')) as { build: string };
    const factsFile = join(ROOT, '.flag-admin-cache', 'check', build, 'entry.cjs.unicode.json');
    const facts = JSON.parse(readFileSync(factsFile, 'utf8')) as { runtime: string; lookalikes: Record<string, string[]> };
    expect(facts.runtime).toBe(`unicode ${process.versions.unicode}, icu ${process.versions.icu}`);
    expect(facts.lookalikes.d).toContain('\uff44');
    // Taken as they are: not written again, and the same report.
    const kept = statSync(factsFile).mtimeMs;
    expect(await check()).toBe(first);
    expect(statSync(factsFile).mtimeMs).toBe(kept);
    // Tables of another Unicode version are not taken: the run derives its own, reports the same, and keeps those.
    writeFileSync(factsFile, JSON.stringify({ ...facts, runtime: 'unicode 1.1, icu 1.0', whitespace: [0x41] }));
    expect(await check()).toBe(first);
    expect(JSON.parse(readFileSync(factsFile, 'utf8'))).toEqual(facts);
  });

  it("judges the kit's own spec without swagger-parser or YAML (spec/openapi.parsed.json)", async () => {
    const mock = freshMock(await loadContract({ validate: false }));
    const server = await serveHandler((request) => mock.handle(request), { port: 0 });
    try {
      const check = await run(['check', '--base-url', server.url], { FLAG_ADMIN_API_KEY: 'mock-admin-key' });
      expect(check.stdout).toMatch(/^CONFORMANT: /m);
      expect(check.loaded.filter((path) => /node_modules\/(@apidevtools|yaml)\//.test(path))).toEqual([]);
      // Nor Ajv: its validators are compiled ahead of time (spec/openapi.validators.cjs, src/contract/precompiled-validators.ts).
      expect(check.loaded.filter((path) => /node_modules\/ajv\//.test(path))).toEqual([]);
      expect(check.loaded).toContain('spec/openapi.validators.cjs');
      // Nor undici, nor TLS or HTTP/2 for a plain http:// target, nor node:http's client and agent: the run's client is Node's llhttp
      // on plain sockets (conformance/send/llhttp-client.ts), node:http only for an https target or a request it would refuse.
      expect(check.loaded.filter((path) => /node_modules\/undici\//.test(path))).toEqual([]);
      expect(check.builtins).toContain('_http_common');
      expect(check.builtins.filter((name) => /^(http|_http_client|_http_agent)$/.test(name))).toEqual([]);
      expect(check.builtins.filter((name) => /^(tls|_tls_wrap|https|http2|internal\/http2\/core)$/.test(name))).toEqual([]);
      // Nor what an ESM import of node:fs or node:util builds into its namespace and the run never calls: fs/promises
      // (with readline), watchers, worker_threads, util.diff. The kit takes those modules as CommonJS (process.getBuiltinModule).
      expect(check.builtins.filter((name) => /^(internal\/fs\/promises|internal\/readline\/interface|internal\/fs\/watchers|worker_threads|internal\/util\/diff)$/.test(name))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
