import { describe, expect, it } from 'vitest';
import { NEAR_MISS_BROKEN_TARGETS, NEAR_MISS_CONFORMANT_VARIANTS } from './near-miss-targets.ts';
import { failingChecks, runCheck, targetArgs } from './run-check.ts';
import { useTargetServer } from './use-target-server.ts';

const harness = useTargetServer();

describe('a defect only the near-miss grammars catch', () => {
  it.each(NEAR_MISS_BROKEN_TARGETS)('$name: fails exactly $errors, on a variant of its rule', async (target) => {
    harness.server = await target.serve(harness.contract);
    const run = await runCheck(targetArgs(harness.server.url, target.args));
    expect(run.stderr).toBe('');
    expect(failingChecks(run.report!, 'error')).toEqual([...target.errors].sort());
    expect(failingChecks(run.report!, 'warning')).toEqual([]);
    expect(run.report!.findings.some((f) => target.rule.test(f.message))).toBe(true);
    expect(run.code).toBe(1);
  });
});

describe('a conformant reading of what a near-miss means', () => {
  it.each(NEAR_MISS_CONFORMANT_VARIANTS)('$name: exit 0, no finding', async (variant) => {
    harness.server = await variant.serve(harness.contract);
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.report!.findings).toEqual([]);
    expect(run.code).toBe(0);
  });
});
