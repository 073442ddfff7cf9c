import type { CheckResults } from './apply-checks.ts';
import type { ResolvedRun } from './resolve-options.ts';
import type { CoverageRow, Report, SkippedStep } from './types.ts';

/** The report: everything in it is derived from the options and the target's answers, nothing from the clock unless `timings`. */
export function buildReport(run: ResolvedRun, results: CheckResults, coverage: CoverageRow[], skipped: readonly SkippedStep[], requests: number, durationMs?: number): Report {
  const info = (run.contract.rawDocument.info ?? {}) as { title?: unknown; version?: unknown };
  const errors = results.findings.filter((f) => f.severity === 'error').length;
  const cells = results.rows.flatMap((r) => r.operations);
  return {
    tool: 'flag-admin check',
    target: run.baseUrl,
    spec: { file: run.contract.specFile, title: String(info.title ?? ''), version: String(info.version ?? '') },
    seed: run.seed,
    options: {
      project: run.plan.project,
      missingProject: run.plan.missingProject,
      missingProjectGenerated: run.missingProjectGenerated,
      restrictedKey: run.keys.restricted ? 'given' : 'not given',
      forbidden: [...run.plan.forbidden],
      tokens: run.plan.tokens.map((t) => `${t.account}/${t.token}`),
      allowDelete: run.plan.allowDelete,
      strict: run.strict,
      timeoutMs: run.timeoutMs,
      skipChecks: [...run.skipChecks].sort(),
    },
    verdict: errors > 0 ? 'not conformant' : 'conformant',
    summary: {
      requests,
      errors,
      warnings: results.findings.length - errors,
      checksFailed: cells.filter((c) => c.outcome === 'failed').length,
      checksNotChecked: cells.filter((c) => c.outcome === 'not checked').length,
    },
    checks: results.rows,
    findings: results.findings,
    coverage,
    stepsNotRun: skipped.map(({ operationId, step, label, reason }) => ({ operationId, step, label, reason })),
    ...(durationMs === undefined ? {} : { durationMs }),
  };
}
