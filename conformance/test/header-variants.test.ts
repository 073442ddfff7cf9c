import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { HEADER_BROKEN_TARGETS } from './header-targets.ts';
import { ADMIN_KEY, runCheck, targetArgs } from './run-check.ts';
import { useTargetServer } from './use-target-server.ts';

const harness = useTargetServer();
const target = (start: string) => HEADER_BROKEN_TARGETS.find((t) => t.name.startsWith(start))!;

/** What a user reads of round eight's header variants (variant-kinds.ts): the request to send again, the cause in words. */
describe("the header variants' findings", () => {
  it('send the key in another header from its variable, never as itself, and say so', async () => {
    harness.server = await target('an Api-Key header').serve(harness.contract);
    const run = await runCheck(targetArgs(harness.server.url));
    // A read: the delete's token is gone by the time the line is run again (the run deletes it later), so its replay answers 404.
    const finding = run.report!.findings.find((f) => f.checkId === 'headers-ignored' && f.curl.includes('api-key') && !f.curl.includes('DELETE'))!;
    expect(finding.curl).toContain('-H "api-key: $KEY_1"');
    expect(finding.curl).not.toMatch(/-H "authorization/i);
    expect(finding.message).toContain('the full key in X-API-Key, Api-Key, X-Auth-Token, X-Access-Token, Proxy-Authorization, X-Authorization and Authentication, no Authorization');
    expect(run.json + run.junit + run.stdout).not.toContain(ADMIN_KEY);
    // The line as a user runs it, with the variable set: the same answer as the run got (the target runs in this process, so not a sync child).
    const { stdout: answer } = await promisify(execFile)('bash', ['-c', `${finding.curl} --silent`], { env: { PATH: process.env.PATH, KEY_1: ADMIN_KEY }, timeout: 10_000 });
    expect(answer.split('\r\n')[0]).toBe(`HTTP/1.1 ${finding.response!.status} OK`);
  });

  it("judge a POST's override header by the permission of the operation it names", async () => {
    harness.server = await target('POST with X-HTTP-Method:').serve(harness.contract);
    const run = await runCheck(targetArgs(harness.server.url));
    const finding = run.report!.findings.find((f) => f.checkId === 'headers-ignored' && f.request.method === 'POST')!;
    expect(finding.curl).toContain('-X POST');
    expect(finding.curl).toContain('-H "x-http-method: ');
    expect(finding.message).toMatch(/lacks the permission for (getOidcSettings|deleteServiceAccountToken)|without a valid key/);
    expect(finding.message).toContain('method-override header');
  });

  it("name the other operation's path that the path headers carried", async () => {
    harness.server = await target('X-Rewrite-URL').serve(harness.contract);
    const run = await runCheck(targetArgs(harness.server.url));
    // Another operation's body where this one's belongs: whichever rule reports it (the status, or the schema of the body).
    const finding = run.report!.findings.find((f) => f.curl.includes('x-rewrite-url'))!;
    expect(finding.curl).toMatch(/-H "x-original-url: \/api\/admin\//);
    expect(finding.message).toMatch(/naming another operation's path: \/api\/admin\//);
  });
});
