import { KEY_VARIABLES } from './curl-line.ts';
import type { CheckOutcome, Finding, Report, SetupHint } from '../types.ts';
import { groupFindings, type FindingGroup } from './group-findings.ts';
import { abbreviateLongWords, printable, styler, type Style } from './terminal-text.ts';

const MARK: Record<CheckOutcome, string> = { passed: 'pass', failed: 'FAIL', 'not checked': 'not checked' };
const MARK_STYLE: Record<CheckOutcome, Style> = { passed: 'green', failed: 'red', 'not checked': 'dim' };

export interface ConsoleOptions {
  /** ANSI colour (the CLI turns it on for a terminal unless NO_COLOR is set). */
  colour?: boolean;
  /** Checks not run count as a failure (`--fail-on-not-checked`): the last line says so. */
  failOnNotChecked?: boolean;
}

/**
 * The human report: the verdict table per check and operation, each finding with its
 * reproduction, coverage, and what was not checked. Every line is made printable (control
 * characters escaped) and long ids are abbreviated before any colour is added.
 */
export function renderConsole(report: Report, options: ConsoleOptions = {}): string {
  const paint = styler(options.colour ?? false);
  const safe = (text: string) => abbreviateLongWords(printable(text));
  const operations = [...new Set(report.coverage.map((c) => c.operationId))];
  const lines: string[] = [];
  lines.push(safe(`flag-admin check ${report.target}`));
  // The likely cause first, once: a set-up problem (nothing judged) or a hint (the findings stand).
  if (report.problem) lines.push(paint('red', safe(`SET-UP PROBLEM: ${report.problem.message}`)));
  for (const hint of report.hints ?? []) lines.push(paint('yellow', safe(`LIKELY CAUSE: ${hint.message}`)));
  lines.push(safe(`spec ${report.spec.file} (${report.spec.title} ${report.spec.version})`));
  lines.push(
    safe(`seed ${JSON.stringify(report.seed)}; project ${JSON.stringify(report.options.project)}; missing project ${JSON.stringify(report.options.missingProject)}${report.options.missingProjectGenerated ? ' (generated from the seed)' : ''}${report.options.randomSteps > 0 ? `; ${report.options.randomSteps} random steps from the seed` : ''}`),
  );
  if (report.options.projects.length > 1) lines.push(safe(`projects ${report.options.projects.map((p) => JSON.stringify(p)).join(', ')}`));
  if (report.problem) {
    // Nothing was judged: the problem and what to fix, not a table of checks that did not run (issue 13, item 11).
    lines.push('');
    lines.push(paint('bold', paint('red', `SET-UP PROBLEM: ${report.summary.requests} request(s) sent, nothing judged; fix the set-up and run again`)));
    return `${lines.join('\n')}\n`;
  }
  const summarized = (report.hints ?? []).filter((h) => SUMMARIZED.has(h.kind) && h.explains > 0);
  if (summarized.length > 0) return renderAroundCause(report, summarized, lines, safe, paint, options);
  lines.push('');
  lines.push('Roles');
  for (const t of report.roles.tokens) lines.push(safe(`  token ${t.token}: ${t.roles.join(', ') || 'no role'}`));
  for (const e of report.roles.empty) lines.push(safe(`  ${e.role}: empty; would be filled by ${e.fill}`));
  lines.push(safe(`Repetitions: the reads of the start sent again ${report.repetitions.reads} times (rounds: ${report.repetitions.rounds.join(', ')}); --settle-ms ${report.repetitions.settleMs} before the end`));
  if (report.variants.requests > 0) lines.push(safe(`Invariance: ${report.variants.requests} variants (every kind on every operation and credential class, drawn from seed ${report.seed}) on ${report.variants.chains} kept-alive connections; ${report.variants.overlap} requests at once; the sample in the JSON report (variants)`));
  if (report.notJudged.length > 0) {
    lines.push('');
    lines.push(paint('yellow', `Not judged (warning, not a defect): ${report.notJudged.length} answer(s)`));
    for (const n of report.notJudged) lines.push(safe(`  ${n.operationId} ${n.label}: ${n.reason}`));
  }
  lines.push('');
  lines.push('Checks');
  const idWidth = Math.max(...report.checks.map((c) => c.checkId.length + c.severity.length + 3));
  lines.push(`  ${''.padEnd(idWidth)}  ${operations.map((o) => o.padEnd(Math.max(o.length, 11))).join('  ')}`);
  for (const row of report.checks) {
    const cells = operations.map((operationId) => {
      const cell = row.operations.find((o) => o.operationId === operationId);
      const text = (cell ? MARK[cell.outcome] : '-').padEnd(Math.max(operationId.length, 11));
      return cell ? paint(MARK_STYLE[cell.outcome], text) : text;
    });
    lines.push(`  ${`${row.checkId} (${row.severity})`.padEnd(idWidth)}  ${cells.join('  ')}`.trimEnd());
  }

  if (report.findings.length > 0) {
    lines.push('');
    const groups = groupFindings(report.findings);
    const alike = groups.length < report.findings.length ? ` (${groups.length} distinct: identical findings shown once, with a count)` : '';
    lines.push(`Findings: ${report.summary.errors} error(s), ${report.summary.warnings} warning(s)${alike}`);
    groups.forEach((group, i) => lines.push(...renderGroup(group, i + 1, (text) => shorten(safe(text)), paint, report.findings)));
    // Each key is a variable of its own: a finding replays as it was sent once each is set.
    lines.push('');
    lines.push(`Keys in the curl lines (set each to the key it stands for, e.g. KEY_1="$${KEY_VARIABLES.full}"):`);
    for (const key of report.keys) lines.push(safe(`  ${key.variable}  ${key.standsFor}`));
  }

  lines.push('');
  lines.push('Coverage (operation x documented status)');
  for (const row of report.coverage) {
    const what = row.outcome === 'not provoked' ? `not provoked: ${row.reason}` : `provoked ${row.provoked}x, ${row.outcome}`;
    lines.push(safe(`  ${row.operationId} ${row.status}  ${what}`));
  }

  const notChecked = report.checks.flatMap((c) => c.operations.filter((o) => o.outcome === 'not checked').map((o) => safe(`  ${c.checkId} on ${o.operationId}: ${o.reason}`)));
  if (notChecked.length > 0) {
    lines.push('');
    lines.push('Not checked');
    lines.push(...notChecked);
  }
  if (report.stepsNotRun.length > 0) {
    lines.push('');
    lines.push('Requests not sent');
    const grouped = new Map<string, number>();
    for (const s of report.stepsNotRun) {
      const line = safe(`  ${s.operationId} ${s.label}: ${s.reason}`);
      grouped.set(line, (grouped.get(line) ?? 0) + 1);
    }
    for (const [line, n] of grouped) lines.push(n > 1 ? `${line} (${n}x)` : line);
  }

  lines.push('');
  lines.push(summaryLine(report, paint, options));
  return `${lines.join('\n')}\n`;
}

/**
 * Hints whose findings the console sums up under the cause instead of listing: a key without
 * some permissions makes most of a run's findings one cause (every 403), while a token gone
 * before the run is a finding or two that each need their own reading.
 */
const SUMMARIZED: ReadonlySet<SetupHint['kind']> = new Set(['full-key-restricted']);

/**
 * The console of a run whose findings mostly follow from a likely set-up cause: the findings it
 * may explain counted per rule with one way to reproduce, the others in full, and the verdict;
 * the tables (checks, coverage, what was not sent) are in the JSON and JUnit reports.
 */
function renderAroundCause(report: Report, hints: readonly SetupHint[], lines: string[], safe: (text: string) => string, paint: (style: Style, text: string) => string, options: ConsoleOptions): string {
  const short = (text: string) => shorten(safe(text));
  for (const hint of hints) {
    const explained = report.findings.filter((f) => f.likelyCause === hint.kind);
    const perRule = new Map<string, number>();
    for (const f of explained) perRule.set(f.checkId, (perRule.get(f.checkId) ?? 0) + 1);
    lines.push('');
    lines.push(`Findings that may follow from it: ${explained.length} (${[...perRule].map(([id, n]) => `${id} ${n}`).join(', ')})`);
    const first = explained[0]!;
    lines.push(short(`  e.g. ${first.message}`));
    lines.push(short(`  reproduce: ${first.curl}`));
  }
  const others = report.findings.filter((f) => !hints.some((h) => h.kind === f.likelyCause));
  if (others.length > 0) {
    lines.push('');
    lines.push(`Other findings: ${others.length}`);
    groupFindings(others).forEach((group, i) => lines.push(...renderGroup(group, i + 1, short, paint, others)));
  }
  lines.push('');
  lines.push('The checks table, coverage and what was not checked or sent: in the JSON and JUnit reports (--json, --junit), and here once the set-up is fixed.');
  lines.push('');
  lines.push(summaryLine(report, paint, options));
  return `${lines.join('\n')}\n`;
}

function summaryLine(report: Report, paint: (style: Style, text: string) => string, options: ConsoleOptions): string {
  const time = report.durationMs === undefined ? '' : ` in ${report.durationMs} ms`;
  const notRunFails = options.failOnNotChecked && report.summary.checksNotChecked > 0 && report.verdict === 'conformant';
  const verdict = notRunFails ? 'NOT CONFORMANT (checks not run, --fail-on-not-checked)' : report.verdict === 'conformant' ? 'CONFORMANT' : 'NOT CONFORMANT';
  const summary = `${verdict}: ${report.summary.requests} requests${time}, ${report.summary.errors} error(s), ${report.summary.warnings} warning(s), ${report.summary.checksNotChecked} check(s) not checked`;
  return paint('bold', paint(verdict === 'CONFORMANT' ? 'green' : 'red', summary));
}

/**
 * A group of identical findings (group-findings.ts): the first in full, the other examples by
 * their request and curl line, and how many more there are; a group of one is the finding.
 */
function renderGroup(group: FindingGroup, n: number, safe: (text: string) => string, paint: (style: Style, text: string) => string, grouped: readonly Finding[]): string[] {
  const [first, ...others] = group.examples;
  const count = group.count > 1 ? ` (${group.count} findings alike)` : '';
  const lines = renderFinding(first!, n, safe, paint, { operations: group.operationIds.join(', '), count });
  if (others.length > 0) lines.push(safe(`   alike, e.g.:`));
  for (const other of others) {
    lines.push(safe(`   - ${other.request.method} ${other.request.url}${other.response ? ` -> ${other.response.status}` : ''}`));
    lines.push(safe(`     reproduce: ${other.curl}`));
  }
  const rest = group.count - group.examples.length;
  const last = grouped[group.lastIndex]!;
  if (rest > 0 && group.examples.some((e) => e.curl === last.curl)) {
    lines.push(safe(`   … and ${rest} more alike (every one in the JSON report), the last the same request as ${group.examples.length > 1 ? 'one' : 'the one'} above`));
  } else if (rest > 0) {
    // The last one too: with the first, the span the defect was seen over (issue 19).
    lines.push(safe(`   … and ${rest} more alike (every one in the JSON report), the last:`));
    lines.push(safe(`   - ${last.request.method} ${last.request.url}${last.response ? ` -> ${last.response.status}` : ''}`));
    lines.push(safe(`     reproduce: ${last.curl}`));
  }
  return lines;
}

function renderFinding(finding: Finding, n: number, safe: (text: string) => string, paint: (style: Style, text: string) => string, group?: { operations: string; count: string }): string[] {
  const severity = paint(finding.severity === 'error' ? 'red' : 'yellow', `[${finding.severity}]`);
  const lines = ['', `${n}. ${severity} ${safe(`${finding.checkId} on ${group?.operations ?? finding.operationId}: ${finding.title}${group?.count ?? ''}`)}`, safe(`   ${finding.message}`)];
  lines.push(safe(`   expected: ${finding.expected}`));
  lines.push(safe(`   got:      ${finding.got}`));
  if (finding.instancePointer !== undefined) lines.push(safe(`   at:       ${finding.instancePointer || '(root)'} in the body`));
  if (finding.schemaPointer !== undefined) lines.push(safe(`   spec:     ${finding.schemaPointer}`));
  // A target that names no path (OPTIONS *, CONNECT host:port) is what went on the request line; the URL only says where.
  lines.push(safe(`   request:  ${finding.request.method} ${finding.request.target !== undefined ? `${finding.request.target} (to ${new URL(finding.request.url).origin})` : finding.request.url}`));
  if (finding.response) {
    lines.push(safe(`   response: ${finding.response.status}${finding.response.contentType ? ` ${finding.response.contentType}` : ''}${finding.response.excerpt ? ` ${finding.response.excerpt}` : ''}`));
  }
  if (finding.alsoPossible !== undefined) lines.push(safe(`   or:       ${finding.alsoPossible}`));
  lines.push(safe(`   reproduce: ${finding.curl}`));
  const sequence = finding.sequence;
  if (sequence) {
    // The whole sequence, after the deletions it needs: a real target cannot be reset, so these say what state it ran on.
    lines.push(safe(`   sequence (--seed ${JSON.stringify(sequence.seed)}; ${sequence.steps.length} step(s), shrunk from ${sequence.shrunkFrom}), send in order:`));
    const setup = sequence.setup.length > MAX_SETUP_LINES ? [...sequence.setup.slice(0, MAX_SETUP_LINES), `… and ${sequence.setup.length - MAX_SETUP_LINES} more deletions (see the JSON report)`] : sequence.setup;
    setup.forEach((line) => lines.push(safe(`     (state) ${line}`)));
    sequence.steps.forEach((line, i) => lines.push(safe(`     ${i + 1}. ${line}`)));
  }
  return lines;
}

/** Deletions shown before a random sequence on the console; the JSON report lists them all. */
const MAX_SETUP_LINES = 12;

/** Console lines stay readable; the JSON and JUnit reports keep everything. */
function shorten(text: string): string {
  return text.length > 320 ? `${text.slice(0, 320)}… (${text.length} characters)` : text;
}
