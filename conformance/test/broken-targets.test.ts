import { describe, expect, it } from 'vitest';
import { RULES } from '../judge/registry.ts';
import { BROKEN_TARGETS, CONFORMANT_VARIANTS } from './broken-targets.ts';
import { failingChecks, runCheck, targetArgs } from './run-check.ts';
import { useTargetServer } from './use-target-server.ts';

const harness = useTargetServer();

describe('a broken target, one defect each', () => {
  it.each(BROKEN_TARGETS)('$name: fails exactly $errors (warnings $warnings)', async (target) => {
    harness.server = await target.serve(harness.contract);
    const run = await runCheck(targetArgs(harness.server.url, target.args));
    expect(run.stderr).toBe('');
    expect(failingChecks(run.report!, 'error')).toEqual([...target.errors].sort());
    expect(failingChecks(run.report!, 'warning')).toEqual([...(target.warnings ?? [])].sort());
    if (target.rule) expect(run.report!.findings.filter((f) => target.rule!.test(f.message))).not.toEqual([]);
    expect(run.code).toBe(target.errors.length > 0 ? 1 : 0);
  });

  it('has, for every check, a target that only it catches', () => {
    const caughtAlone = (id: string, severity: string) =>
      BROKEN_TARGETS.some((t) => (severity === 'error' ? t.errors.length === 1 && t.errors[0] === id : t.errors.length === 0 && t.warnings?.length === 1 && t.warnings[0] === id));
    expect(RULES.filter((check) => !caughtAlone(check.id, check.severity)).map((c) => c.id)).toEqual([]);
  });
});

describe('a plausible real implementation the spec allows', () => {
  it.each(CONFORMANT_VARIANTS)('$name: exit 0, no finding', async (variant) => {
    harness.server = await variant.serve(harness.contract);
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.report!.findings).toEqual([]);
    expect(run.code).toBe(0);
  });
});
