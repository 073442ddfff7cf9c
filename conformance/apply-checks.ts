import type { Check, CheckContext, FindingDraft, Judgement } from './checks/check.ts';
import { curlLine } from './curl-line.ts';
import { parseBody } from './checks/check.ts';
import { bodyExcerpt } from './redact.ts';
import type { CheckOutcome, CheckResultRow, Exchange, Finding, SkippedStep } from './types.ts';

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
  const rows: CheckResultRow[] = [];
  const found: { check: Check; draft: FindingDraft; index: number }[] = [];
  const nonConformant = new Set<number>();

  checks.forEach((check, index) => {
    let judgements: Judgement[];
    if (notRun !== undefined) {
      // A set-up problem stopped the run: every check is listed where a normal run of this plan would judge it, none judged, each with the reason.
      // As in a normal run: a step the options left out is "not checked" only for the checks that own it.
      const planned = [...exchanges, ...skipped.filter((s) => s.stopped || check.steps)];
      const applies = (operationId: string) =>
        planned.some((p) => p.operationId === operationId && (!check.steps || check.steps.includes(p.step)) && (check.appliesTo?.(p, context.contract) ?? true));
      judgements = operationIds.filter(applies).map((operationId) => ({ operationId, verdict: 'not checked', reason: notRun }));
    } else if (switchedOff.has(check.id)) {
      judgements = operationIds.map((operationId) => ({ operationId, verdict: 'not checked', reason: 'switched off (--skip-check)' }));
    } else {
      const steps = check.steps;
      const mine = steps ? exchanges.filter((e) => steps.includes(e.step)) : exchanges;
      judgements = [
        ...check.judge(mine, context),
        ...skipped.filter((s) => steps?.includes(s.step)).map((s): Judgement => ({ operationId: s.operationId, verdict: 'not checked', reason: s.reason })),
      ];
    }
    for (const judgement of judgements) {
      if (judgement.verdict !== 'failed') continue;
      found.push({ check, draft: judgement.finding, index });
      if (check.level === 'response') nonConformant.add(judgement.finding.exchange.seq);
    }
    rows.push({ checkId: check.id, severity: check.severity, title: check.title, operations: operationIds.flatMap((operationId) => outcomeOf(operationId, judgements)) });
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
          excerpt: bodyExcerpt(exchange.response.body, parseBody(exchange.response.body), context.excerpt),
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
    curl: curlLine(exchange.request, exchange.credential, exchange.keyVariant),
  };
}
