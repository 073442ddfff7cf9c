import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { serveHandler } from '../../src/mock/index.ts';
import { ADMIN_KEY, failingChecks, runCheck, targetArgs, VIEWER_KEY } from './run-check.ts';
import { permissionCachedPerAccount } from './sequence-targets.ts';
import { freshMock } from './serve-target.ts';
import { useTargetServer } from './use-target-server.ts';

const harness = useTargetServer();

describe('the seeded random phase (--random-steps)', () => {
  it('is off by default and says how to switch it on', async () => {
    harness.server = await permissionCachedPerAccount(harness.contract);
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.code).toBe(0);
    const row = run.report!.checks.find((c) => c.checkId === 'random-sequence-conformant')!;
    expect(new Set(row.operations.map((o) => o.reason))).toEqual(new Set(['needs --random-steps N (the seeded random phase is off by default)']));
    expect(run.report!.options.randomSteps).toBe(0);
  });

  it('catches a defect that needs a sequence, shrinks it, and prints it as curl lines with the seed', async () => {
    harness.server = await permissionCachedPerAccount(harness.contract);
    const run = await runCheck([...targetArgs(harness.server.url), '--random-steps', '80', '--seed', 'sequence-demo']);
    expect(run.code).toBe(1);
    expect(failingChecks(run.report!, 'error')).toEqual(['random-sequence-conformant']);
    const [finding] = run.report!.findings;
    expect(finding!.message).toMatch(/restricted key.*lacks the permission|403/);
    const sequence = finding!.sequence!;
    expect(sequence.seed).toBe('sequence-demo');
    expect(sequence.steps.length).toBeGreaterThan(0);
    expect(sequence.steps.length).toBeLessThanOrEqual(sequence.shrunkFrom);
    expect(sequence.steps.at(-1)).toBe(finding!.curl);
    expect(sequence.steps.at(-1)).toContain('$KEY_2');
    expect(sequence.setup.some((line) => line.includes('-X DELETE') && line.includes('$KEY_1'))).toBe(true);
    expect(run.stdout).toContain('seed "sequence-demo"');
    expect(run.stdout).toContain('80 random steps from the seed');
    expect(run.stdout).toContain('sequence (--seed "sequence-demo"');
    expect(run.stdout).toContain('(state) curl');
    expect(run.json).not.toContain(ADMIN_KEY);
    expect(run.json).not.toContain(VIEWER_KEY);
  });

  it('prints a sequence that reproduces the failure on a fresh target when sent in order', async () => {
    harness.server = await permissionCachedPerAccount(harness.contract);
    const run = await runCheck([...targetArgs(harness.server.url), '--random-steps', '80', '--seed', 'sequence-demo']);
    const sequence = run.report!.findings[0]!.sequence!;
    await harness.server.close();
    harness.server = await permissionCachedPerAccount(harness.contract);
    const base = run.report!.target;
    const lines = [...sequence.setup, ...sequence.steps].map((line) => `${line.replace(base, harness.server!.url)} -s -o /dev/null -w '%{http_code}\\n'`);
    // Asynchronously: the target answers from this very process.
    const { stdout } = await promisify(execFile)('bash', ['-c', lines.join('\n')], { env: { PATH: process.env.PATH, FLAG_ADMIN_API_KEY: ADMIN_KEY, FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY }, encoding: 'utf8', timeout: 20_000 });
    const statuses = stdout.trim().split('\n');
    expect(statuses.at(-1)).not.toBe('403');
  });

  it('finds nothing on the mock, whatever the seed, and deletes only the given tokens', async () => {
    for (const seed of ['a', 'b', 'c']) {
      const mock = freshMock(harness.contract);
      const before = mock.store.snapshot();
      harness.server = await serveHandler((request) => mock.handle(request), { port: 0 });
      const run = await runCheck([...targetArgs(harness.server.url, ['--token', '1/1', '--token', '2/4']), '--random-steps', '120', '--seed', seed]);
      expect(run.report!.findings).toEqual([]);
      expect(run.code).toBe(0);
      const tokensOf = (state: typeof before) => state.serviceAccounts.flatMap((a) => a.tokens.map((t) => `${a.id}/${t.id}`));
      expect(tokensOf(mock.store.snapshot())).toEqual(tokensOf(before).filter((t) => t !== '1/1' && t !== '2/4'));
      await harness.server.close();
      harness.server = undefined;
    }
  });

  it('sends the same sequences for the same seed: the same report twice', async () => {
    const reports: string[] = [];
    for (let i = 0; i < 2; i++) {
      harness.server = await permissionCachedPerAccount(harness.contract);
      const run = await runCheck([...targetArgs(harness.server.url), '--random-steps', '40', '--seed', 'same']);
      reports.push(run.json.replaceAll(harness.server.url, 'TARGET'));
      await harness.server.close();
      harness.server = undefined;
    }
    expect(reports[1]).toBe(reports[0]);
  });

  it('refuses a --random-steps that is not a number of requests', async () => {
    const run = await runCheck(['--base-url', 'http://127.0.0.1:9', '--random-steps', 'many']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--random-steps: expected a number of requests');
  });
});
