import { applyChecks } from './apply-checks.ts';
import { buildReport } from './build-report.ts';
import { CHECKS } from './checks/registry.ts';
import { buildCoverage } from './coverage.ts';
import { TargetUnreachableError } from './errors.ts';
import type { ConformanceOptions } from './options.ts';
import { resolveOptions } from './resolve-options.ts';
import { buildPlan } from './scenarios/plan.ts';
import { createSender, errorCode, isConnectFailure } from './send.ts';
import type { Exchange, Report } from './types.ts';

/**
 * Runs the whole suite against one implementation: plans the scenarios, sends them in order
 * (a concurrent batch at once), records every exchange, applies every check, and returns the
 * report. Throws only for broken set-up: UsageError and ContractError (bad options or spec)
 * and TargetUnreachableError (the first request could not connect).
 * @example const report = await runConformance({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'mock-admin-key' });
 */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const started = performance.now();
  const run = await resolveOptions(options);
  const plan = buildPlan(run.plan);
  const sender = createSender({ baseUrl: run.baseUrl, contract: run.contract, keys: run.keys, timeoutMs: run.timeoutMs });
  const exchanges: Exchange[] = [];
  const skipped = [...plan.skipped];
  try {
    for (let seq = 0; seq < plan.requests.length; ) {
      const batch = plan.requests[seq]!.batch;
      let end = seq + 1;
      while (batch !== undefined && end < plan.requests.length && plan.requests[end]!.batch === batch) end++;
      const first = seq;
      const sent = await Promise.all(plan.requests.slice(seq, end).map((planned, i) => sender.send(planned, first + i)));
      exchanges.push(...sent);
      seq = end;
      const dropped = sent.find((e) => e.transportError !== undefined);
      // A server that crashed would fail every later request the same way; one finding says it, the rest is not checked.
      if (dropped && seq < plan.requests.length && !(await sender.alive())) {
        dropped.transportError += '; the target then stopped accepting connections';
        const reason = `not sent: the target stopped accepting connections after "${dropped.label}"`;
        skipped.push(...plan.requests.slice(seq).map(({ operationId, step, label, expects }) => ({ operationId, step, label, expects, reason })));
        break;
      }
    }
  } catch (error) {
    if (!isConnectFailure(error)) throw error;
    throw new TargetUnreachableError(`cannot reach ${run.baseUrl}: ${errorCode(error) ?? String(error)} (is the server running?)`, { cause: error });
  } finally {
    await sender.close();
  }
  const results = applyChecks(CHECKS, exchanges, skipped, { contract: run.contract, strict: run.strict, all: exchanges }, run.skipChecks);
  const coverage = buildCoverage(run.contract, exchanges, skipped, results.nonConformant);
  return buildReport(run, results, coverage, skipped, exchanges.length, options.timings ? Math.round(performance.now() - started) : undefined);
}
