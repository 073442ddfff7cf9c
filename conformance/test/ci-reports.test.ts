import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { ADMIN_KEY, VIEWER_KEY, runCheck, targetArgs } from './run-check.ts';
import { BIN } from './run-cli-process.ts';
import { breakResponses, freshMock, serveRaw, toMockRequest } from './serve-target.ts';
import { useTargetServer } from './use-target-server.ts';

/** Issue 7, "reports that serve CI". */
const harness = useTargetServer();
const KEYS = { FLAG_ADMIN_API_KEY: ADMIN_KEY, FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY };
const mockTarget = () => breakResponses(harness.contract, (_, res) => res);
/** Answers 200 to the 2048-character odd id: one odd-id-rejected warning with a long id in it. */
const longIdWarning = () => breakResponses(harness.contract, (req, res) => (/a{2048}/.test(req.url) && res.status === 404 ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"version":1,"environments":[]}' } : res));

describe('JUnit for CI', () => {
  it('carries time on the document and each testsuite with --timings, and none without', async () => {
    harness.server = await mockTarget();
    const timed = await runCheck([...targetArgs(harness.server.url), '--timings']);
    expect(timed.junit).toMatch(/^<testsuites name="[^"]+" tests="\d+" failures="0" errors="0" skipped="\d+" time="\d+\.\d{3}">$/m);
    expect(timed.junit.match(/<testsuite name="\w+" [^>]* time="\d+\.\d{3}">/g)).toHaveLength(3);
    harness.server = (await harness.server.close(), await mockTarget());
    expect((await runCheck(targetArgs(harness.server.url))).junit).not.toContain('time=');
  });

  it('shows a warning as a property and in system-out of a testcase that passes', async () => {
    harness.server = await longIdWarning();
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.code).toBe(0);
    const testcase = /<testcase classname="getProjectEnvironments" name="odd-id-rejected[^"]*">([\s\S]*?)<\/testcase>/.exec(run.junit)![1]!;
    expect(testcase).toMatch(/<property name="warning" value="projectId = a 2048-character id: an id that cannot exist was answered 200\."\/>/);
    expect(testcase).toContain('<system-out>warning\n');
    expect(testcase).not.toContain('<failure');
    expect(run.junit).toMatch(/<testsuites [^>]*failures="0"/);
  });
});

describe('the console', () => {
  it('abbreviates long ids, which the JSON report keeps whole', async () => {
    harness.server = await longIdWarning();
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.stdout).toContain('/project/aaaaaaaaaaaa…(2048 chars)');
    expect(run.stdout).not.toContain('a'.repeat(41));
    expect(run.json).toContain('a'.repeat(2048));
  });

  // util-linux `script` gives the real CLI a terminal; where it is missing there is no terminal to test with.
  it.runIf(existsSync('/usr/bin/script'))('colours on a terminal, and not with NO_COLOR set', async () => {
    harness.server = await mockTarget();
    const onTerminal = (env: Record<string, string>) =>
      promisify(execFile)('/usr/bin/script', ['-qec', `${process.execPath} ${BIN} check --base-url ${harness.server!.url}`, '/dev/null'], { env: { PATH: process.env.PATH ?? '', FLAG_ADMIN_API_KEY: ADMIN_KEY, ...env } }).then((r) => r.stdout);
    expect(await onTerminal({})).toContain('\u001b[32mpass');
    expect(await onTerminal({ NO_COLOR: '1' })).not.toContain('\u001b[');
  }, 60_000);

  it('colours with FORCE_COLOR and never with NO_COLOR', async () => {
    harness.server = await mockTarget();
    const coloured = await runCheck(targetArgs(harness.server.url), { ...KEYS, FORCE_COLOR: '1' });
    expect(coloured.stdout).toContain('\u001b[32mpass');
    expect(coloured.stdout).toMatch(/\u001b\[1m\u001b\[32mCONFORMANT: /);
    harness.server = (await harness.server.close(), await mockTarget());
    const plain = await runCheck(targetArgs(harness.server.url), { ...KEYS, FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(plain.stdout).not.toContain('\u001b');
  });
});

describe('--max-body BYTES', () => {
  it('reads no more of a body than that: a longer one is not judged, a warning that names the flag, never a defect', async () => {
    harness.server = await mockTarget();
    const run = await runCheck([...targetArgs(harness.server.url), '--max-body', '1k']);
    expect(run.code).toBe(0);
    expect(run.report!.options.maxBodyBytes).toBe(1024);
    expect(run.report!.findings).toEqual([]);
    expect(run.report!.notJudged).toContainEqual({
      operationId: 'getProjectEnvironments',
      label: 'environments of project "default"',
      reason: 'answered 200 with a body over --max-body 1024 bytes; reading stopped and nothing of it was judged (raise --max-body to judge such a body)',
    });
    expect(run.stdout).toMatch(/^Not judged \(warning, not a defect\): \d+ answer\(s\)$/m);
    expect(run.junit).toContain('<property name="warning" value="not judged: getProjectEnvironments environments of project &quot;default&quot;: answered 200 with a body over --max-body 1024 bytes');
  });
});

describe('--fail-on-not-checked', () => {
  it('exits 1 when a check could not run, and says why on the last line', async () => {
    harness.server = await mockTarget();
    const run = await runCheck(['--base-url', harness.server.url, '--fail-on-not-checked'], { FLAG_ADMIN_API_KEY: ADMIN_KEY });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^NOT CONFORMANT \(checks not run, --fail-on-not-checked\): \d+ requests, 0 error\(s\), 0 warning\(s\), 19 check\(s\) not checked$/m);
    harness.server = (await harness.server.close(), await mockTarget());
    expect((await runCheck([...targetArgs(harness.server.url), '--strict', '--random-steps', '20', '--fail-on-not-checked'])).code).toBe(0);
  });
});

describe('--skip-check ID', () => {
  it('also drops the requests only that check judges, so a team can step around a request that crashes its server', async () => {
    const mock = freshMock(harness.contract);
    let oddRequests = 0;
    // Drops the connection (as a crash would) on any id holding %00.
    harness.server = await serveRaw((req, _, answer) => (req.url?.includes('%00') ? (oddRequests++, req.socket.destroy()) : answer(mock.handle(toMockRequest(req)))));
    // The odd ids hold %00, and so do the near-misses built on a real id (default%00x): their checks go too.
    const run = await runCheck([...targetArgs(harness.server.url), '--skip-check', 'odd-id-rejected', '--skip-check', 'near-miss-project-not-found', '--skip-check', 'near-miss-token-not-found']);
    expect(oddRequests).toBe(0);
    expect(run.code).toBe(0);
    expect(new Set(run.report!.stepsNotRun.filter((s) => s.step === 'odd-id').map((s) => s.reason))).toEqual(new Set(['not sent: its check odd-id-rejected is switched off (--skip-check)']));
    expect(new Set(run.report!.stepsNotRun.filter((s) => s.step === 'near-miss-project').map((s) => s.reason))).toEqual(new Set(['not sent: its check near-miss-project-not-found is switched off (--skip-check)']));
  });

  it('drops a step that needs a dropped one: no second delete without the first', async () => {
    harness.server = await mockTarget();
    const run = await runCheck([...targetArgs(harness.server.url), '--skip-check', 'delete-token-succeeds']);
    expect(run.code).toBe(0);
    // One delete and one delete-again per token with the own-delete role (1/1 and 2/4, deleted at once; 2/5 is their neighbour, kept to the end).
    expect(run.report!.stepsNotRun.filter((s) => s.step === 'delete' || s.step === 'delete-again').map((s) => `${s.step}: ${s.reason}`).sort()).toEqual(
      Array.from({ length: 2 }).flatMap(() => [
        'delete: not sent: its check delete-token-succeeds is switched off (--skip-check)',
        'delete-again: not sent: it needs the step "delete", which was dropped: its check delete-token-succeeds is switched off (--skip-check)',
      ]).sort(),
    );
  });
});

describe('the shared CLI helpers', () => {
  const cli = async (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: {} });
    return { code, stdout, stderr };
  };

  it('`flag-admin help check` lists the new flags and the exit codes', async () => {
    const run = await cli(['help', 'check']);
    expect(run.code).toBe(0);
    for (const text of ['--max-body BYTES', '--fail-on-not-checked', '2 a set-up problem', '3 target unreachable or silent', 'NO_COLOR']) expect(run.stdout).toContain(text);
  });

  it('suggests the flag meant for a mistyped one', async () => {
    const run = await cli(['check', '--base-url', 'http://127.0.0.1:9', '--max-bdy', '4M']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown option --max-bdy (did you mean --max-body?)');
  });
});
