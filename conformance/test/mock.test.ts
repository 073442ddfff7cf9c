import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../src/contract/index.ts';
import { serveHandler, type Mock, type RunningServer } from '../../src/mock/index.ts';
import { freshMock } from './serve-target.ts';
import { ADMIN_KEY, runCheck, targetArgs } from './run-check.ts';

let contract: Contract;
let mock: Mock;
let server: RunningServer;
beforeAll(async () => {
  contract = await loadContract({ validate: false });
  mock = freshMock(contract);
  // One address for the whole file; each test swaps in a fresh state behind it.
  server = await serveHandler((request) => mock.handle(request), { port: 0 });
});
afterAll(() => server.close());
const reset = () => (mock = freshMock(contract));

describe('against the mock on its default state', () => {
  it('exits 0 with no finding, every check run, with every option given', async () => {
    reset();
    const run = await runCheck([...targetArgs(server.url), '--strict', '--random-steps', '50']);
    expect(run.report!.findings).toEqual([]);
    expect(run.report!.summary.checksNotChecked).toBe(0);
    expect(run.report!.stepsNotRun).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^CONFORMANT: \d+ requests, 0 error\(s\), 0 warning\(s\), 0 check\(s\) not checked$/m);
  });

  it('provokes every documented status but the OIDC 400 (no condition given) and the environments 403 (the viewer may read them)', async () => {
    reset();
    const { report } = await runCheck(targetArgs(server.url));
    const notProvoked = report!.coverage.filter((c) => c.outcome !== 'conformant').map((c) => `${c.operationId} ${c.status} ${c.outcome}`);
    expect(notProvoked).toEqual(['getProjectEnvironments 403 not provoked', 'getOidcSettings 400 not provoked']);
    expect(report!.coverage.find((c) => c.status === '400')!.reason).toBe('no request of the suite provokes it: the API description gives no condition for it');
  });

  it('deletes nothing and sends no restricted request without --allow-delete, --token and --restricted-key, and says what was not checked', async () => {
    reset();
    const before = mock.store.snapshot();
    const run = await runCheck(['--base-url', server.url], { FLAG_ADMIN_API_KEY: ADMIN_KEY });
    expect(run.code).toBe(0);
    expect(mock.store.snapshot()).toEqual(before);
    const notChecked = run.report!.checks.flatMap((c) => c.operations.filter((o) => o.outcome === 'not checked').map((o) => `${c.checkId} ${o.operationId}: ${o.reason}`));
    expect(notChecked).toEqual([
      'undocumented-properties getProjectEnvironments: needs --strict',
      'undocumented-properties getOidcSettings: needs --strict',
      'undocumented-properties deleteServiceAccountToken: needs --strict',
      'restricted-key-forbidden getOidcSettings: needs --restricted-key (or FLAG_ADMIN_RESTRICTED_KEY)',
      'restricted-key-forbidden deleteServiceAccountToken: needs --restricted-key (or FLAG_ADMIN_RESTRICTED_KEY)',
      'restricted-key-accepted getProjectEnvironments: needs --restricted-key (or FLAG_ADMIN_RESTRICTED_KEY)',
      'auth-before-lookup deleteServiceAccountToken: needs --allow-delete: nothing is deleted without it; needs --restricted-key (or FLAG_ADMIN_RESTRICTED_KEY)',
      'delete-token-succeeds deleteServiceAccountToken: needs --allow-delete: nothing is deleted without it',
      'delete-again-not-found deleteServiceAccountToken: needs --allow-delete: nothing is deleted without it',
      'unknown-token-not-found deleteServiceAccountToken: needs --allow-delete: nothing is deleted without it',
      'near-miss-token-not-found deleteServiceAccountToken: needs --allow-delete: nothing is deleted without it',
      'cross-account-delete-rejected deleteServiceAccountToken: needs --allow-delete: nothing is deleted without it',
      'concurrent-delete-single-success deleteServiceAccountToken: needs --allow-delete: nothing is deleted without it',
      'deletes-at-once-independent deleteServiceAccountToken: needs --allow-delete and two disposable --token of one service account, deleted at once',
      'deletions-last deleteServiceAccountToken: needs --allow-delete: nothing is deleted without it',
      'bystanders-untouched deleteServiceAccountToken: needs --allow-delete: nothing is deleted without it',
      'random-sequence-conformant getProjectEnvironments: needs --random-steps N (the seeded random phase is off by default)',
      'random-sequence-conformant getOidcSettings: needs --random-steps N (the seeded random phase is off by default)',
      'random-sequence-conformant deleteServiceAccountToken: needs --random-steps N (the seeded random phase is off by default)',
    ]);
    expect(run.stdout).toContain('Not checked');
  });

  it("says, with one --project, that the spec's x-constant version was not compared across projects, and with two compares it", async () => {
    reset();
    const one = await runCheck(['--base-url', server.url, '--project', 'default'], { FLAG_ADMIN_API_KEY: ADMIN_KEY });
    const across = (run: typeof one) => run.report!.stepsNotRun.filter((s) => s.label.includes('across projects'));
    expect(across(one)).toEqual([{ operationId: 'getProjectEnvironments', step: 'repeat-read', label: '/version compared across projects (x-constant)', reason: expect.stringMatching(/^needs a second --project: version must be one value for every project/) }]);
    expect(one.stdout).toContain('/version compared across projects (x-constant)');
    expect(one.code).toBe(0);
    reset();
    expect(across(await runCheck(['--base-url', server.url, '--project', 'default', '--project', 'mobile-app'], { FLAG_ADMIN_API_KEY: ADMIN_KEY }))).toEqual([]);
  });

  it('gives a byte-identical report for the same target and options', async () => {
    reset();
    const first = await runCheck(targetArgs(server.url));
    reset();
    const second = await runCheck(targetArgs(server.url));
    expect(second.json).toBe(first.json);
    expect(second.junit).toBe(first.junit);
    expect(second.stdout).toBe(first.stdout);
    expect(first.json).not.toMatch(/duration|timestamp|time=/i);
  });

  it('prints the seed and derives the missing project from it', async () => {
    reset();
    const a = await runCheck([...targetArgs(server.url), '--seed', 'one']);
    reset();
    const b = await runCheck([...targetArgs(server.url), '--seed', 'two']);
    expect(a.report!.seed).toBe('one');
    expect(a.report!.options.missingProject).not.toBe(b.report!.options.missingProject);
    expect(a.stdout).toContain(`missing project "${a.report!.options.missingProject}" (generated from the seed)`);
  });

  it('gives every default token a role and keeps 12/1 as the bystander, with every project at the default --settle-ms (its pause waited once: plan-pauses.test.ts)', async () => {
    reset();
    const args = targetArgs(server.url).filter((a, i, all) => a !== '--settle-ms' && all[i - 1] !== '--settle-ms');
    const started = performance.now();
    const run = await runCheck(args);
    const wallMs = performance.now() - started;
    expect(run.report!.findings).toEqual([]);
    expect(run.report!.options.settleMs).toBe(500);
    expect(run.report!.options.projects).toEqual(['default', 'mobile-app']);
    expect(run.report!.roles).toEqual({
      tokens: [
        { token: '1/1', roles: ['own-delete', 'restricted-target'] },
        { token: '1/2', roles: ['cross-account'] },
        { token: '1/3', roles: ['concurrent-delete'] },
        { token: '2/4', roles: ['own-delete', 'restricted-target'] },
        { token: '2/5', roles: ['bystander'] },
        { token: '12/1', roles: ['bystander', 'restricted-target'] },
      ],
      empty: [],
    });
    expect(run.stdout).toContain('  token 12/1: bystander, restricted-target');
    expect(run.junit).toContain('<property name="role 12/1" value="bystander, restricted-target"/>');
    // Every token the run deleted was probed again at the end, after the pause, and the bystander deleted last.
    expect(mock.store.snapshot().serviceAccounts.flatMap((a) => a.tokens.map((t) => `${a.id}/${t.id}`))).toEqual([]);
    console.info(`mock, every default project and token: ${run.report!.summary.requests} requests, ${Math.round(wallMs)} ms wall`);
  });

  it('adds the wall time only with --timings', async () => {
    reset();
    const { report } = await runCheck([...targetArgs(server.url), '--timings']);
    expect(report!.durationMs).toBeGreaterThan(0);
  });
});
