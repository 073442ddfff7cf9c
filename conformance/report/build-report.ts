import { keyLegend } from './curl-line.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN } from '../operation-ids.ts';
import { REPEAT_ROUNDS } from '../plan/scenarios/repeat-reads.ts';
import { allocateTokens, describeRoles } from '../plan/scenarios/token-allocation.ts';
import type { JudgeResults } from '../judge/judge.ts';
import type { ResolvedRun } from '../resolve-options.ts';
import type { CoverageRow, Exchange, Report, SetupHint, SkippedStep } from '../types.ts';

export type RunProblem = NonNullable<Report['problem']>;

/** What the reports say when options, config or spec stop the run before anything is sent (exit 2). */
export interface ProblemReport {
  tool: 'flag-admin check';
  target: string;
  verdict: 'set-up problem';
  problem: { kind: 'bad-options'; message: string };
}

export function problemReport(target: string, message: string): ProblemReport {
  return { tool: 'flag-admin check', target, verdict: 'set-up problem', problem: { kind: 'bad-options', message } };
}

/** The report: everything in it is derived from the options and the target's answers, nothing from the clock unless `timings`. */
export function buildReport(run: ResolvedRun, results: JudgeResults, coverage: CoverageRow[], skipped: readonly SkippedStep[], exchanges: readonly Exchange[], problem: RunProblem | undefined, timings?: { durationMs: number }, hints: readonly SetupHint[] = []): Report {
  const requests = exchanges.length;
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
      restrictedKey: run.keys.restricted.length > 0 ? 'given' : 'not given',
      restrictedKeys: run.keys.restricted.length,
      projects: [...run.plan.projects],
      settleMs: run.settleMs,
      forbidden: [...run.plan.forbidden],
      tokens: run.plan.tokens.map((t) => `${t.account}/${t.token}`),
      allowDelete: run.plan.allowDelete,
      strict: run.strict,
      timeoutMs: run.timeoutMs,
      maxBodyBytes: run.maxBodyBytes,
      skipChecks: [...run.skipChecks].sort(),
      randomSteps: run.randomSteps,
    },
    verdict: problem ? (problem.kind === 'unreachable' ? 'unreachable' : 'set-up problem') : errors > 0 ? 'not conformant' : 'conformant',
    ...(problem ? { problem } : {}),
    ...(hints.length > 0 ? { hints: [...hints] } : {}),
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
    roles: describeRoles(run.plan.tokens, allocateTokens(run.plan.tokens), { allowDelete: run.plan.allowDelete, restrictedKeys: run.keys.restricted.length, restrictedMayDelete: !run.plan.forbidden.has(DELETE_SERVICE_ACCOUNT_TOKEN) }),
    repetitions: { reads: exchanges.filter((e) => e.step === 'repeat-read').length, rounds: [...REPEAT_ROUNDS], settleMs: run.settleMs },
    keys: keyLegend(run.keys.restricted.length),
    variants: variantsOf(exchanges),
    notJudged: exchanges.flatMap((e) => (e.notJudged ? [{ operationId: e.operationId, label: e.label, reason: e.notJudged }] : [])),
    ...(timings ? { durationMs: timings.durationMs, operationDurationsMs: operationDurations(run, exchanges) } : {}),
  };
}

/** The invariance variants and the overlap batch the run sent: the sample, as the report shows it. */
function variantsOf(exchanges: readonly Exchange[]): Report['variants'] {
  const variants = exchanges.filter((e) => e.variant !== undefined);
  return {
    requests: variants.length,
    chains: new Set(variants.map((e) => e.variant!.chain)).size,
    overlap: exchanges.filter((e) => e.step === 'overlap').length,
    sample: variants.map((e) => ({ kind: e.variant!.kind, operationId: e.operationId, credential: e.credential, method: e.method, path: e.path })),
  };
}

/** Per operation, the summed wall time of its requests (what JUnit's testsuite `time` shows). */
function operationDurations(run: ResolvedRun, exchanges: readonly Exchange[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const operation of run.contract.operations) sums[operation.operationId] = 0;
  for (const e of exchanges) sums[e.operationId] = (sums[e.operationId] ?? 0) + (e.elapsedMs ?? 0);
  return Object.fromEntries(Object.entries(sums).map(([id, ms]) => [id, Math.round(ms)]));
}
