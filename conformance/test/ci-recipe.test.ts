import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { serveHandler } from '../../src/mock/index.ts';
import { BIN } from './run-cli-process.ts';
import { freshMock } from './serve-target.ts';
import { useTargetServer } from './use-target-server.ts';

/**
 * Issue 13, item 12: the CI recipe in docs/conformance-reports.md runs as written. Its steps are
 * run in order as GitHub runs them (bash -eo pipefail, `$GITHUB_ENV` carried to later steps,
 * `${{ secrets.X || 'fallback' }}` with no secret set), with two stand-ins: the mock is served by
 * this test on port 0 (BACKEND_URL points at it; `npx flag-admin mock` does nothing), and `npx
 * flag-admin` runs this checkout's bin instead of asking the registry.
 */
const harness = useTargetServer();
const DOC = readFileSync(new URL('../../docs/conformance-reports.md', import.meta.url), 'utf8');
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

function recipe(): { env: Record<string, string>; steps: Step[] } {
  const block = /## In CI[\s\S]*?```yaml\n([\s\S]*?)```/.exec(DOC);
  if (!block) throw new Error('docs/conformance-reports.md: no ```yaml block under "## In CI"');
  const workflow = parse(block[1]!) as { jobs: Record<string, { env?: Record<string, string>; steps: Step[] }> };
  const [job] = Object.values(workflow.jobs);
  return { env: job!.env ?? {}, steps: job!.steps };
}

/** GitHub's expressions as this recipe uses them: a secret that is not set, so its fallback. */
function expression(text: string): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, inner: string) => {
    const fallback = /^\s*secrets\.\w+\s*\|\|\s*'([^']*)'\s*$/.exec(inner);
    if (!fallback) throw new Error(`the recipe uses an expression the test cannot evaluate: \${{${inner}}}`);
    return fallback[1]!;
  });
}

it('sets up a Node the kit runs on before anything runs it', () => {
  const { steps } = recipe();
  const setup = steps.findIndex((s) => s.uses?.startsWith('actions/setup-node@'));
  expect(setup, 'a setup-node step').toBeGreaterThanOrEqual(0);
  const version = String(steps[setup]!.with?.['node-version']);
  const [needMajor] = PACKAGE.engines.node.replace('>=', '').split('.').map(Number);
  expect(Number(version.split('.')[0])).toBeGreaterThan(needMajor!);
  expect(steps.findIndex((s) => s.run?.includes('flag-admin'))).toBeGreaterThan(setup);
});

it('runs as written: the tokens come from an earlier step, the check ends conformant and writes both reports', async () => {
  const { env: jobEnv, steps } = recipe();
  const mock = freshMock(harness.contract);
  harness.server = await serveHandler((request) => mock.handle(request), { port: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'flag-admin-ci-recipe-'));
  try {
    const shims = join(dir, 'bin');
    mkdirSync(shims);
    const npx = join(shims, 'npx');
    writeFileSync(
      npx,
      `#!/bin/sh\n[ "$1" = flag-admin ] || { echo "npx stand-in: only flag-admin" >&2; exit 127; }\nshift\n[ "$1" = mock ] && exit 0\nexec "${process.execPath}" "${BIN}" "$@"\n`,
    );
    chmodSync(npx, 0o755);
    const githubEnv = join(dir, 'github-env');
    writeFileSync(githubEnv, '');
    const carried: Record<string, string> = {};
    let checked = false;
    for (const step of steps.slice(steps.findIndex((s) => s.run === 'npm ci') + 1)) {
      if (step.run === undefined) continue;
      const env: Record<string, string> = {
        PATH: `${shims}:${process.env.PATH ?? ''}`,
        HOME: dir,
        ...jobEnv,
        BACKEND_URL: harness.server.url,
        ...carried,
        ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expression(String(v))])),
        GITHUB_ENV: githubEnv,
      };
      const run = await promisify(execFile)('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expression(step.run)], { cwd: dir, env }).catch((error: { code: number; stdout: string; stderr: string }) => error);
      expect(run, `step "${step.name ?? step.run}" failed: ${JSON.stringify(run)}`).not.toHaveProperty('code');
      for (const line of readFileSync(githubEnv, 'utf8').split('\n').filter(Boolean)) {
        const at = line.indexOf('=');
        carried[line.slice(0, at)] = line.slice(at + 1);
      }
      if (step.run.includes('flag-admin check')) {
        checked = true;
        expect(run.stdout).toMatch(/^CONFORMANT: /m);
      }
    }
    expect(checked, 'the recipe runs flag-admin check').toBe(true);
    expect(Object.keys(carried).filter((k) => k.startsWith('DISPOSABLE_TOKEN_'))).toHaveLength(3);
    const report = JSON.parse(readFileSync(join(dir, 'reports/conformance.json'), 'utf8')) as { verdict: string; options: { tokens: string[] } };
    expect(report.verdict).toBe('conformant');
    expect(report.options.tokens).toEqual(['1/1', '1/2', '2/4']);
    expect(readFileSync(join(dir, 'reports/conformance.xml'), 'utf8')).toContain('<testsuites');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
