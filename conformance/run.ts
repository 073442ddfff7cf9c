import { judge } from './judge/judge.ts';
import { buildReport, type RunProblem } from './report/build-report.ts';
import { RULES } from './judge/registry.ts';
import { buildCoverage } from './report/coverage.ts';
import type { ConformanceOptions } from './options.ts';
import { redactFindings } from './report/redact-findings.ts';
import { resolveOptions, type ResolvedRun } from './resolve-options.ts';
import { curlLine } from './report/curl-line.ts';
import { buildPlan } from './plan/scenarios/plan.ts';
import { secretsSeen } from './judge/secrets-seen.ts';
import { createRedactor, SUBSTRING_MIN } from './report/secret-redactor.ts';
import { judgeWithModel } from './judge/judge-with-model.ts';
import { nearMissValue } from './plan/near-miss/key-near-misses.ts';
import { createSender, type Sender } from './send/send.ts';
import { fullKeyRefusal, notThisApi, restrictedKeyHint, silentTargetMessage, tokensGoneHint } from './report/setup-problems.ts';
import type { Exchange, PlannedRequest, Report, SkippedStep } from './types.ts';

/**
 * After this many requests ran into the deadline, or got a response that broke one of the suite's
 * limits (headers over the suite's 256 KiB, an impossible chunk size), the rest is not sent: it bounds the
 * run's wall time (docs/conformance.md). A target that answers every request that way costs the
 * suite tens of milliseconds of CPU per request, and would otherwise pay it for the whole plan.
 */
export const MAX_TIMED_OUT = 3;

/**
 * Runs the whole suite against one implementation: plans the scenarios, sends them in order
 * (a concurrent batch at once), records every exchange, applies every check, and returns the
 * report. Set-up problems are not defects: a target that never answers and a full-access key
 * refused everywhere end the run with a report whose verdict says so. Throws only for bad
 * options or spec (UsageError, ContractError).
 * @example const report = await runConformance({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'mock-admin-key' });
 */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const started = performance.now();
  const run = await resolveOptions(options);
  const plan = buildPlan(run.plan, run.skipChecks);
  const sender = createSender({ baseUrl: run.baseUrl, contract: run.contract, keys: run.keys, timeoutMs: run.timeoutMs, maxBodyBytes: run.maxBodyBytes });
  const skipped = [...plan.skipped];
  let sent: { exchanges: Exchange[]; problem?: RunProblem };
  try {
    sent = await sendPlan(plan.requests, sender, skipped, run);
    const why = randomPhaseOff(run, sent.problem, sent.exchanges.length < plan.requests.length);
    if (why) skipped.push(...run.contract.operations.map((o) => ({ operationId: o.operationId, step: 'random-step' as const, label: 'random sequences', expects: [], reason: why })));
    else {
      // Loaded only when asked for: fast-check stays off the path of every other run's start.
      const { runRandomPhase } = await import('./plan/random-phase/run-random-phase.ts');
      const random = await runRandomPhase({ plan: run.plan, sender, seed: run.seed, steps: run.randomSteps, history: sent.exchanges, curl: (e) => curlLine(e.request, e.credential, e.keyVariant, e.keyIndex) });
      sent.exchanges.push(...random.exchanges);
    }
  } finally {
    await sender.close();
  }
  const { exchanges, problem } = sent;
  // The near-misses of a short full key are secrets too: each gives away all of it but a character or its case. A key of
  // SUBSTRING_MIN characters or more is redacted wherever a run of it shows, which covers its near-misses already; adding
  // them would make secrets of a near-miss that is only the key's naming prefix (`default:development`, issue 19).
  const shortKey = [...run.keys.full].length < SUBSTRING_MIN;
  const keyForms = [run.keys.full, ...(shortKey ? run.plan.keyNearMisses.map((v) => nearMissValue(run.keys.full, v)).filter((k) => k.length >= Math.min(4, run.keys.full.length)) : [])];
  const redact = createRedactor([...keyForms, ...run.keys.restricted, ...secretsSeen(exchanges, run.contract.secretProperties)]);
  const excerpt = { secretProperties: run.contract.secretProperties, redact };
  const notRun = problem ? `not judged: ${NOT_RUN[problem.kind]} (a set-up problem)` : undefined;
  // The random phase judged its own exchanges as it went, on its own state (random-sequence-conformant).
  const verdicts = judgeWithModel(run.plan, exchanges.filter((e) => e.step !== 'random-step'));
  const results = judge(RULES, exchanges, skipped, { contract: run.contract, strict: run.strict, all: exchanges, excerpt, verdicts, secrets: { keys: [{ value: run.keys.full, name: 'the full-access key' }, ...run.keys.restricted.map((value, i) => ({ value, name: `restricted key ${i + 1}` }))] }, forbidden: run.plan.forbidden }, run.skipChecks, notRun);
  const coverage = buildCoverage(run.contract, exchanges, skipped, results.nonConformant);
  // Likely set-up causes the answers point at, each with the findings it may explain.
  const hints = problem ? [] : [restrictedKeyHint(exchanges, run.contract), tokensGoneHint(exchanges, run.plan.tokens)].filter((h) => h !== undefined);
  const causeOf = (i: number) => hints.find((h) => h.covers(results.findingExchanges[i]!))?.kind;
  const findings = redactFindings(results.findings, redact).map((f, i) => {
    const cause = causeOf(i);
    return cause ? { ...f, likelyCause: cause } : f;
  });
  const shown = hints.map(({ kind, message }) => ({ kind, message: redact(message), explains: findings.filter((f) => f.likelyCause === kind).length }));
  // A set-up problem quotes what the target answered: redacted like everything else it sent.
  const redactedProblem = problem && { ...problem, message: redact(problem.message) };
  return buildReport(run, { ...results, findings }, coverage, skipped, exchanges, redactedProblem, options.timings ? { durationMs: Math.round(performance.now() - started) } : undefined, shown);
}

/** What "not judged" says of a run a set-up problem stopped. */
const NOT_RUN: Record<RunProblem['kind'], string> = {
  unreachable: 'the target is unreachable',
  'full-key-refused': 'the full-access key was refused',
  'not-this-api': 'the base URL does not look like this API',
};

/** Why the random phase does not run, if it does not. */
function randomPhaseOff(run: ResolvedRun, problem: RunProblem | undefined, planCut: boolean): string | undefined {
  if (problem) return 'not sent: a set-up problem stopped the run';
  if (run.randomSteps > 0 && planCut) return 'not sent: the target stopped answering during the plan';
  if (run.randomSteps === 0) return 'needs --random-steps N (the seeded random phase is off by default)';
  if (run.skipChecks.has('random-sequence-conformant')) return 'not sent: its check random-sequence-conformant is switched off (--skip-check)';
  return undefined;
}

/** Which kept-alive connection a request must share with its neighbours in the plan: a variant's chain or a planned connection (numbered apart, so the two never merge). */
function connectionOf(request: PlannedRequest): string | undefined {
  if (request.variant) return `variant ${request.variant.chain}`;
  return request.connection === undefined ? undefined : `planned ${request.connection}`;
}

/**
 * A batch sent at once: each request on its own, except the requests of one planned connection, which go one after another on it
 * (a delete and its delete again: token-deletion.ts), that chain itself at once with the others. The exchanges in the plan's order.
 */
async function sendAtOnce(requests: readonly PlannedRequest[], first: number, sender: Sender): Promise<Exchange[]> {
  const parts: { from: number; requests: PlannedRequest[] }[] = [];
  requests.forEach((planned, i) => {
    const last = parts.at(-1);
    const connection = connectionOf(planned);
    if (last && connection !== undefined && connectionOf(last.requests[0]!) === connection) last.requests.push(planned);
    else parts.push({ from: first + i, requests: [planned] });
  });
  const answers = await Promise.all(parts.map((part) => (part.requests.length > 1 ? sender.sendChain(part.requests, part.from) : sender.send(part.requests[0]!, part.from).then((e) => [e]))));
  return answers.flat();
}

/** Sends the plan in order; stops early (the rest listed as not sent) when the target stops answering or the key is refused. */
async function sendPlan(requests: readonly PlannedRequest[], sender: Sender, skipped: SkippedStep[], run: ResolvedRun): Promise<{ exchanges: Exchange[]; problem?: RunProblem }> {
  const { baseUrl, timeoutMs } = run;
  const exchanges: Exchange[] = [];
  const notSent = (from: number, reason: string) => skipped.push(...requests.slice(from).map(({ operationId, step, label, expects }) => ({ operationId, step, label, expects, reason, stopped: true })));
  let timedOut = 0;
  let overLimit = 0;
  for (let seq = 0; seq < requests.length; ) {
    const batch = requests[seq]!.batch;
    const chain = connectionOf(requests[seq]!);
    let end = seq + 1;
    while (batch !== undefined && end < requests.length && requests[end]!.batch === batch) end++;
    // A batch's last request may open a planned connection that later requests continue: they go on it, after its answer, while the rest of the batch is in flight.
    const continued = batch !== undefined ? connectionOf(requests[end - 1]!) : chain;
    while (continued !== undefined && end < requests.length && connectionOf(requests[end]!) === continued) end++;
    const first = seq;
    const pause = requests[seq]!.pauseMs;
    if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
    // Invariance variants and planned connections go one after another on one kept-alive connection; a batch, at once (a connection of it as one of its members).
    const answers = chain !== undefined && batch === undefined ? await sender.sendChain(requests.slice(seq, end), first) : await sendAtOnce(requests.slice(seq, end), first, sender);
    exchanges.push(...answers);
    // A chain stops at a request that ran into the deadline: the rest of it was not sent.
    if (answers.length < end - seq) {
      skipped.push(...requests.slice(seq + answers.length, end).map(({ operationId, step, label, expects }) => ({ operationId, step, label, expects, reason: 'not sent: an earlier request on its kept-alive connection got no answer within --timeout', stopped: true })));
    }
    seq = end;
    timedOut += answers.filter((e) => e.timedOut).length;
    overLimit += answers.filter((e) => !e.timedOut && e.responseBegan && e.transportError !== undefined).length;
    const dropped = answers.find((e) => e.transportError !== undefined);
    if (dropped && first === 0 && !dropped.responseBegan && !(await sender.alive())) {
      // Not one answer, not even to GET /: nothing can be judged (exit 3).
      notSent(0, 'no answer: the target is unreachable (a set-up problem, see above)');
      return { exchanges: [], problem: { kind: 'unreachable', message: silentTargetMessage(baseUrl, dropped, timeoutMs) } };
    }
    const elsewhere = notThisApi(exchanges, requests[seq], run.contract, baseUrl);
    if (elsewhere) {
      notSent(seq, 'not sent: the base URL does not look like this API (a set-up problem, see above)');
      return { exchanges, problem: { kind: 'not-this-api', message: elsewhere } };
    }
    const refusal = fullKeyRefusal(exchanges, requests[seq]);
    if (refusal) {
      notSent(seq, 'not sent: the full-access key was refused (a set-up problem, see above)');
      return { exchanges, problem: { kind: 'full-key-refused', message: refusal } };
    }
    if (seq >= requests.length) break;
    if (timedOut + overLimit >= MAX_TIMED_OUT) {
      const why = [timedOut > 0 ? `${timedOut} got no complete response within --timeout ${timeoutMs} ms` : '', overLimit > 0 ? `${overLimit} got a response that broke a limit of the suite` : ''].filter(Boolean).join(' and ');
      notSent(seq, `not sent: of the requests sent, ${why}; the run stops so that its wall time stays bounded`);
      break;
    }
    // A server that crashed would fail every later request the same way; one finding says it, the rest is not checked.
    if (dropped && !(await sender.alive())) {
      dropped.transportError += '; the target then stopped accepting connections';
      notSent(seq, `not sent: the target stopped accepting connections after "${dropped.label}"`);
      break;
    }
  }
  return { exchanges };
}
