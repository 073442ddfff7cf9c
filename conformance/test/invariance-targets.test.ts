import { describe, expect, it } from 'vitest';
import { INVARIANCE_BROKEN_TARGETS, INVARIANCE_CONFORMANT_VARIANTS } from './invariance-targets.ts';
import { failingChecks, runCheck, targetArgs } from './run-check.ts';
import { useTargetServer } from './use-target-server.ts';

const harness = useTargetServer();

describe('a server that breaks the contract only along what the spec does not name', () => {
  it.each(INVARIANCE_BROKEN_TARGETS)('$dimension: $name is caught by one of $caughtBy', async (target) => {
    harness.server = await target.serve(harness.contract);
    const run = await runCheck(targetArgs(harness.server.url, target.args));
    expect(run.stderr).toBe('');
    const failing = failingChecks(run.report!, 'error');
    expect(failing.filter((id) => target.caughtBy.includes(id)), `failing: ${failing.join(', ')}`).not.toEqual([]);
    expect(run.code).toBe(1);
  });
});

describe('a plausible server that differs only where the spec allows it', () => {
  it.each(INVARIANCE_CONFORMANT_VARIANTS)('$name: exit 0, no finding (warnings $warnings by design)', async (variant) => {
    harness.server = await variant.serve(harness.contract);
    const run = await runCheck(targetArgs(harness.server.url, variant.args));
    expect(run.report!.findings.filter((f) => !variant.warnings?.includes(f.checkId)).map((f) => `${f.checkId}: ${f.message}`)).toEqual([]);
    expect(failingChecks(run.report!, 'warning')).toEqual(variant.warnings ?? []);
    expect(run.code).toBe(0);
  });
});
