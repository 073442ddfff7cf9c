import { failed, parsedBodyOf, type FindingDraft, type Judgement, type Rule, type RuleContext } from './rule.ts';
import { goneBeforeRun, goneOrDefect } from './token-history.ts';
import { carriedBefore } from './rules/variant-exchanges.ts';
import { isDerived, withoutBaseDefects } from './without-base-defects.ts';
import { modelCredentialOf } from './judge-with-model.ts';
import { COMPARING_KINDS, type Verdict } from './model/index.ts';
import { curlLine } from '../report/curl-line.ts';
import { bodyExcerpt } from '../report/redact.ts';
import type { CheckOutcome, CheckResultRow, Exchange, Finding, Severity, SkippedStep } from '../types.ts';

export interface JudgeResults {
  rows: CheckResultRow[];
  findings: Finding[];
  /** The exchange each finding is about, by the finding's index (for set-up hints). */
  findingExchanges: Exchange[];
  /** Sequence numbers of exchanges a response-level rule failed: their coverage cell is "not conformant". */
  nonConformant: ReadonlySet<number>;
}

/**
 * The one judge: every rule of `rules` over the recorded exchanges, and each of the model's
 * verdicts (context.verdicts) reported by the rule that claims it, folded into one outcome per
 * rule and operation: failed if any finding, passed if judged at all, else not checked with the
 * reasons (a step the options did not allow, the rule switched off, ...).
 */
export function judge(rules: readonly Rule[], exchanges: readonly Exchange[], skipped: readonly SkippedStep[], context: RuleContext, switchedOff: ReadonlySet<string>, notRun?: string): JudgeResults {
  const operationIds = context.contract.operations.map((o) => o.operationId);
  const found: { rule: Rule; draft: FindingDraft; index: number }[] = [];
  const nonConformant = new Set<number>();

  // The exchanges of each step, in the run's order, and each rule's share of them made once per set of steps: most rules
  // read one step or a few, and filtering every exchange for each of ~50 rules was most of this function's own time.
  const byStep = new Map<string, Exchange[]>();
  for (const exchange of exchanges) {
    const list = byStep.get(exchange.step);
    if (list) list.push(exchange);
    else byStep.set(exchange.step, [exchange]);
  }
  const shares = new Map<string, readonly Exchange[]>();
  const exchangesOf = (steps: readonly string[]): readonly Exchange[] => {
    const key = steps.join(' ');
    let share = shares.get(key);
    if (!share) {
      const wanted = new Set(steps);
      share = wanted.size === 1 ? (byStep.get(steps[0]!) ?? []) : exchanges.filter((e) => wanted.has(e.step));
      shares.set(key, share);
    }
    return share;
  };

  const ruled = rules.map((rule): Judgement[] => {
    if (notRun !== undefined) {
      // A set-up problem stopped the run: every rule is listed where a normal run of this plan would judge it, none judged, each with the reason.
      // As in a normal run: a step the options left out is "not checked" only for the rules that own it.
      const planned = [...exchanges, ...skipped.filter((s) => s.stopped || rule.steps)];
      const applies = (operationId: string) =>
        planned.some((p) => p.operationId === operationId && (!rule.steps || rule.steps.includes(p.step)) && (rule.appliesTo?.(p, context.contract) ?? true));
      return operationIds.filter(applies).map((operationId) => ({ operationId, verdict: 'not checked', reason: notRun }));
    }
    if (switchedOff.has(rule.id)) return operationIds.map((operationId) => ({ operationId, verdict: 'not checked', reason: 'switched off (--skip-check)' }));
    const steps = rule.steps;
    const mine = steps ? exchangesOf(steps) : exchanges;
    const own = rule.judge(mine, context);
    // The proxy judges one exchange at a time, with nothing skipped: no copy of the rule's judgements per exchange.
    if (skipped.length === 0) return own;
    return [...own, ...skipped.filter((s) => steps?.includes(s.step)).map((s): Judgement => ({ operationId: s.operationId, verdict: 'not checked', reason: s.reason }))];
  });
  if (notRun === undefined && context.verdicts) addModelVerdicts(rules, ruled, exchanges, context.verdicts, switchedOff);
  const judged = withoutBaseDefects(ruled, exchanges, context.verdicts);

  const rows: CheckResultRow[] = rules.map((rule, index) => {
    const judgements = judged[index]!;
    for (const judgement of judgements) {
      if (judgement.verdict !== 'failed') continue;
      found.push({ rule, draft: judgement.finding, index });
      if (rule.level === 'response') nonConformant.add(judgement.finding.exchange.seq);
    }
    // outcomeOf gives no cell to an operation without judgements: a rule that judged nothing needs no walk of the operations.
    return { checkId: rule.id, severity: rule.severity, title: rule.title, operations: judgements.length === 0 ? [] : operationIds.flatMap((operationId) => outcomeOf(operationId, judgements)) };
  });

  const severityRank = (c: Rule) => (c.severity === 'error' ? 0 : 1);
  found.sort(
    (a, b) =>
      severityRank(a.rule) - severityRank(b.rule) ||
      a.index - b.index ||
      a.draft.exchange.seq - b.draft.exchange.seq ||
      (a.draft.instancePointer ?? '').localeCompare(b.draft.instancePointer ?? ''),
  );
  return { rows, findings: found.map(({ rule, draft }) => toFinding(rule, draft, context)), findingExchanges: found.map(({ draft }) => draft.exchange), nonConformant };
}

/**
 * The rule that reports a verdict on an exchange: among the rules whose claims admit it, one that
 * names the exchange's step wins (the more specific claim), else the first in registry order.
 */
export function ownerOf(rules: readonly Rule[], verdict: Pick<Verdict, 'rule'>, exchange: Exchange): Rule | undefined {
  let general: Rule | undefined;
  for (const rule of rules) {
    for (const claim of rule.claims ?? []) {
      if (!claim.kinds.includes(verdict.rule) || (claim.where && !claim.where(exchange))) continue;
      if (claim.steps?.includes(exchange.step)) return rule;
      if (!claim.steps) general ??= rule;
    }
  }
  return general;
}

/**
 * Adds the model's verdicts to the judgements of the rules that claim them. One defect, one
 * finding: a verdict on an exchange a rule already failed adds nothing (unless it compares the
 * answer with others, COMPARING_KINDS), and the same kind broken again by the same request is the
 * same defect. Requests sent at once count as one exchange.
 */
function addModelVerdicts(rules: readonly Rule[], judged: Judgement[][], exchanges: readonly Exchange[], verdicts: ReadonlyMap<number, readonly Verdict[]>, switchedOff: ReadonlySet<string>): void {
  const group = (e: Exchange) => (e.batch === undefined ? `#${e.seq}` : `batch ${e.batch}`);
  // A warning of a rule's own judging does not stand in for an error the model finds on the same exchange.
  const failedGroups = new Map<string, Severity>();
  judged.forEach((judgements, index) => {
    for (const j of judgements) if (j.verdict === 'failed' && failedGroups.get(group(j.finding.exchange)) !== 'error') failedGroups.set(group(j.finding.exchange), rules[index]!.severity);
  });
  const covered = (exchange: Exchange, severity: Severity) => {
    const found = failedGroups.get(group(exchange));
    return found === 'error' || found === severity;
  };
  const indexOf = new Map(rules.map((rule, index) => [rule, index]));
  const owner = (verdict: Verdict, exchange: Exchange) => {
    const rule = ownerOf(rules, verdict, exchange);
    return rule && indexOf.get(rule);
  };
  const reported = new Set<string>();
  // What the rules found themselves is reported already, wherever in the run it happened.
  for (const exchange of exchanges) if (failedGroups.has(group(exchange))) for (const verdict of verdicts.get(exchange.seq) ?? []) if (covered(exchange, rules[owner(verdict, exchange) ?? 0]!.severity)) reported.add(sameDefect(verdict, exchange));
  for (const exchange of exchanges) {
    for (const verdict of verdicts.get(exchange.seq) ?? []) {
      const index = owner(verdict, exchange);
      if (index === undefined || switchedOff.has(rules[index]!.id)) continue;
      // A derived request (a variant, the overlap batch) never stands in for the plan's own: its findings may yet be dropped as the base's (without-base-defects.ts).
      const defect = `${isDerived(exchange) && !COMPARING_KINDS.has(verdict.rule) ? `derived #${exchange.seq} ` : ''}${sameDefect(verdict, exchange)}`;
      const seen = reported.has(defect) || reported.has(`${index} ${group(exchange)}`);
      reported.add(defect);
      if (seen || (covered(exchange, rules[index]!.severity) && !COMPARING_KINDS.has(verdict.rule))) continue;
      reported.add(`${index} ${group(exchange)}`);
      // A new array, not a push: the judgements may be the very array a rule's judge returned (judge() above copies none).
      judged[index] = [
        ...judged[index]!,
        failed({
          exchange,
          // A given token answered 404 is ambiguous evidence (token-history.ts): name both readings.
          message: `${exchange.label}: ${verdict.message}${verdict.rule === 'resource-exists' && exchange.token ? ` ${goneOrDefect(exchange.token, 'the server lost or failed to find a token that existed', { all: exchanges, exchange })}` : ''}${onConnection(exchange, exchanges)}`,
          expected: verdict.expected,
          got: verdict.got,
          ...(verdict.schemaPointer !== undefined ? { schemaPointer: verdict.schemaPointer } : {}),
          ...(verdict.instancePointer !== undefined ? { instancePointer: verdict.instancePointer } : {}),
          ...(verdict.contradicts !== undefined ? { contradicts: verdict.contradicts } : {}),
          ...(verdict.rule === 'resource-exists' && exchange.token ? { alsoPossible: goneBeforeRun(exchange.token, { all: exchanges, exchange }) } : {}),
        }),
      ];
    }
  }
}

/**
 * Verdicts that are one defect of the server, however many requests show it: a server that
 * finds ids that do not exist finds them all (one that cannot find existing ones, none; one
 * that does not delete, deletes nothing), one that lets an invalid key through lets it through
 * everywhere; any other kind is one defect per request.
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

function toFinding(rule: Rule, draft: FindingDraft, context: RuleContext): Finding {
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
    checkId: rule.id,
    severity: rule.severity,
    operationId: exchange.operationId,
    title: rule.title,
    message: draft.message,
    expected: draft.expected,
    got: draft.got,
    step: exchange.step,
    request: exchange.request,
    ...(response ? { response } : {}),
    ...(draft.schemaPointer !== undefined ? { schemaPointer: draft.schemaPointer } : {}),
    ...(draft.instancePointer !== undefined ? { instancePointer: draft.instancePointer } : {}),
    curl: curlLine(exchange.request, exchange.credential, exchange.keyVariant, exchange.keyIndex, exchange.keyVariable),
    ...(draft.sequence ? { sequence: draft.sequence } : {}),
    ...(draft.alsoPossible !== undefined ? { alsoPossible: draft.alsoPossible } : {}),
  };
}
