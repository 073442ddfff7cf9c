import { failed, type Check, type CheckContext, type FindingDraft, type Judgement } from './checks/check.ts';
import { goneOrDefect } from './checks/token-history.ts';
import { carriedBefore } from './checks/variant-exchanges.ts';
import { modelCredentialOf } from './judge-with-model.ts';
import { RUN_WIDE_RULES, categoryOf } from './model-categories.ts';
import type { Verdict } from './model/index.ts';
import { curlLine } from '../report/curl-line.ts';
import { parsedBodyOf } from './checks/check.ts';
import { bodyExcerpt } from '../report/redact.ts';
import type { CheckOutcome, CheckResultRow, Exchange, Finding, Severity, SkippedStep } from '../types.ts';

export interface CheckResults {
  rows: CheckResultRow[];
  findings: Finding[];
  /** Sequence numbers of exchanges a response-level check failed: their coverage cell is "not conformant". */
  nonConformant: ReadonlySet<number>;
}

/**
 * Runs every check over the recorded exchanges and folds the judgements into one outcome per
 * check and operation: failed if any finding, passed if judged at all, else not checked with
 * the reasons (a step the options did not allow, the check switched off, ...).
 */
export function applyChecks(checks: readonly Check[], exchanges: readonly Exchange[], skipped: readonly SkippedStep[], context: CheckContext, switchedOff: ReadonlySet<string>, notRun?: string): CheckResults {
  const operationIds = context.contract.operations.map((o) => o.operationId);
  const found: { check: Check; draft: FindingDraft; index: number }[] = [];
  const nonConformant = new Set<number>();

  const judged = checks.map((check): Judgement[] => {
    if (notRun !== undefined) {
      // A set-up problem stopped the run: every check is listed where a normal run of this plan would judge it, none judged, each with the reason.
      // As in a normal run: a step the options left out is "not checked" only for the checks that own it.
      const planned = [...exchanges, ...skipped.filter((s) => s.stopped || check.steps)];
      const applies = (operationId: string) =>
        planned.some((p) => p.operationId === operationId && (!check.steps || check.steps.includes(p.step)) && (check.appliesTo?.(p, context.contract) ?? true));
      return operationIds.filter(applies).map((operationId) => ({ operationId, verdict: 'not checked', reason: notRun }));
    }
    if (switchedOff.has(check.id)) return operationIds.map((operationId) => ({ operationId, verdict: 'not checked', reason: 'switched off (--skip-check)' }));
    const steps = check.steps;
    const mine = steps ? exchanges.filter((e) => steps.includes(e.step)) : exchanges;
    return [
      ...check.judge(mine, context),
      ...skipped.filter((s) => steps?.includes(s.step)).map((s): Judgement => ({ operationId: s.operationId, verdict: 'not checked', reason: s.reason })),
    ];
  });
  if (notRun === undefined && context.verdicts) addModelVerdicts(checks, judged, exchanges, context.verdicts, switchedOff);

  const rows: CheckResultRow[] = checks.map((check, index) => {
    const judgements = judged[index]!;
    for (const judgement of judgements) {
      if (judgement.verdict !== 'failed') continue;
      found.push({ check, draft: judgement.finding, index });
      if (check.level === 'response') nonConformant.add(judgement.finding.exchange.seq);
    }
    return { checkId: check.id, severity: check.severity, title: check.title, operations: operationIds.flatMap((operationId) => outcomeOf(operationId, judgements)) };
  });

  const severityRank = (c: Check) => (c.severity === 'error' ? 0 : 1);
  found.sort(
    (a, b) =>
      severityRank(a.check) - severityRank(b.check) ||
      a.index - b.index ||
      a.draft.exchange.seq - b.draft.exchange.seq ||
      (a.draft.instancePointer ?? '').localeCompare(b.draft.instancePointer ?? ''),
  );
  return { rows, findings: found.map(({ check, draft }) => toFinding(check, draft, context)), nonConformant };
}

/**
 * Files the model's verdicts under the named checks. One defect, one finding: a verdict on an
 * exchange a named check already failed adds nothing (unless it compares the answer with
 * others, which no named check does), and the same rule broken again by the same request is the
 * same defect. Requests sent at once count as one exchange.
 */
function addModelVerdicts(checks: readonly Check[], judged: Judgement[][], exchanges: readonly Exchange[], verdicts: ReadonlyMap<number, readonly Verdict[]>, switchedOff: ReadonlySet<string>): void {
  const group = (e: Exchange) => (e.batch === undefined ? `#${e.seq}` : `batch ${e.batch}`);
  // A warning of a named check does not stand in for an error the model finds on the same exchange.
  const failedGroups = new Map<string, Severity>();
  judged.forEach((judgements, index) => {
    for (const j of judgements) if (j.verdict === 'failed' && failedGroups.get(group(j.finding.exchange)) !== 'error') failedGroups.set(group(j.finding.exchange), checks[index]!.severity);
  });
  const covered = (exchange: Exchange, severity: Severity) => {
    const found = failedGroups.get(group(exchange));
    return found === 'error' || found === severity;
  };
  const byId = new Map(checks.map((check, index) => [check.id, index]));
  const reported = new Set<string>();
  // What the named checks found is reported already, wherever in the run it happened.
  for (const exchange of exchanges) if (failedGroups.has(group(exchange))) for (const verdict of verdicts.get(exchange.seq) ?? []) if (covered(exchange, checks[byId.get(categoryOf(verdict.rule, exchange)) ?? 0]!.severity)) reported.add(sameDefect(verdict, exchange));
  for (const exchange of exchanges) {
    for (const verdict of verdicts.get(exchange.seq) ?? []) {
      const index = byId.get(categoryOf(verdict.rule, exchange));
      if (index === undefined || switchedOff.has(checks[index]!.id)) continue;
      const defect = sameDefect(verdict, exchange);
      const seen = reported.has(defect) || reported.has(`${index} ${group(exchange)}`);
      reported.add(defect);
      if (seen || (covered(exchange, checks[index]!.severity) && !RUN_WIDE_RULES.has(verdict.rule))) continue;
      reported.add(`${index} ${group(exchange)}`);
      judged[index]!.push(
        failed({
          exchange,
          // A given token answered 404 is ambiguous evidence (token-history.ts): name both readings.
          message: `${exchange.label}: ${verdict.message}${verdict.rule === 'resource-exists' && exchange.token ? ` ${goneOrDefect(exchange.token, 'the server lost or failed to find a token that existed')}` : ''}${onConnection(exchange, exchanges)}`,
          expected: verdict.expected,
          got: verdict.got,
          ...(verdict.schemaPointer !== undefined ? { schemaPointer: verdict.schemaPointer } : {}),
          ...(verdict.instancePointer !== undefined ? { instancePointer: verdict.instancePointer } : {}),
        }),
      );
    }
  }
}

/**
 * Verdicts that are one defect of the server, however many requests show it: a server that
 * finds ids that do not exist finds them all (one that cannot find existing ones, none; one
 * that does not delete, deletes nothing), one that lets an invalid key through lets it through
 * everywhere; any other rule is one defect per request.
 */
function sameDefect(verdict: Verdict, exchange: Exchange): string {
  if (verdict.rule === 'resource-missing' || verdict.rule === 'resource-exists' || verdict.rule === 'resource-gone') return `${verdict.rule} ${exchange.operationId} ${exchange.credential}`;
  // A near-miss of the full key is an invalid key (no key, where it left the header).
  if (verdict.rule === 'auth-required') return `${verdict.rule} ${modelCredentialOf(exchange)}`;
  if (verdict.rule === 'permission-required') return `${verdict.rule} ${exchange.operationId} ${exchange.keyIndex ?? 0}`;
  // One id given to many answers is one defect, however many answers reuse it.
  if (verdict.rule === 'error-id-unique') return `${verdict.rule} ${verdict.got}`;
  return `${verdict.rule} ${exchange.method} ${exchange.path} ${exchange.credential} ${exchange.keyVariant?.id ?? ''}`;
}

/** For a variant sent on a kept-alive connection: what the connection carried just before, a likely cause (issue 18). */
function onConnection(exchange: Exchange, exchanges: readonly Exchange[]): string {
  const before = carriedBefore(exchange, exchanges);
  return before ? ` (Sent on a kept-alive connection that had just carried ${before}.)` : '';
}

function outcomeOf(operationId: string, judgements: readonly Judgement[]): CheckResultRow['operations'] {
  const own = judgements.filter((j) => j.operationId === operationId);
  if (own.length === 0) return [];
  let outcome: CheckOutcome = 'not checked';
  if (own.some((j) => j.verdict === 'failed')) outcome = 'failed';
  else if (own.some((j) => j.verdict === 'passed')) outcome = 'passed';
  if (outcome !== 'not checked') return [{ operationId, outcome }];
  const reasons = [...new Set(own.flatMap((j) => (j.verdict === 'not checked' ? [j.reason] : [])))];
  return [{ operationId, outcome, reason: reasons.join('; ') }];
}

function toFinding(check: Check, draft: FindingDraft, context: CheckContext): Finding {
  const { exchange } = draft;
  const response =
    draft.response === null
      ? undefined
      : (draft.response ??
        (exchange.response && {
          status: exchange.response.status,
          contentType: exchange.response.headers['content-type'],
          excerpt: bodyExcerpt(exchange.response.body, parsedBodyOf(exchange.response), context.excerpt),
        }));
  return {
    checkId: check.id,
    severity: check.severity,
    operationId: exchange.operationId,
    title: check.title,
    message: draft.message,
    expected: draft.expected,
    got: draft.got,
    step: exchange.step,
    request: exchange.request,
    ...(response ? { response } : {}),
    ...(draft.schemaPointer !== undefined ? { schemaPointer: draft.schemaPointer } : {}),
    ...(draft.instancePointer !== undefined ? { instancePointer: draft.instancePointer } : {}),
    curl: curlLine(exchange.request, exchange.credential, exchange.keyVariant, exchange.keyIndex),
    ...(draft.sequence ? { sequence: draft.sequence } : {}),
  };
}
