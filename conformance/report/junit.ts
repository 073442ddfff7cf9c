import { keysUsed } from './curl-line.ts';
import type { ProblemReport } from './build-report.ts';
import type { KeyVariable, Finding, Report } from '../types.ts';
import { groupFindings, type FindingGroup } from './group-findings.ts';

/** What the JUnit rendering reads of a report: the suite's, or the proxy's (which has no plan). */
export type JunitInput = Pick<Report, 'target' | 'problem' | 'checks' | 'findings' | 'coverage' | 'summary' | 'operationDurationsMs' | 'durationMs' | 'keys'> & { tool?: string };

/**
 * JUnit XML as CI systems read it: a testsuite per operation, a testcase per check. A failed
 * error check is a <failure>, a not-checked one <skipped> with its reason. Warnings must not fail
 * CI and JUnit has no warning state: a warning's testcase passes, names the warning in a
 * `warning` property (shown by Jenkins, GitLab and the common GitHub reporters) and details it
 * in <system-out>. A set-up problem is an <error> of a `set-up` testcase, so a job that stopped
 * with exit 2 or 3 still has an artifact that says why. `time` only with --timings.
 */
export function renderJunit(report: JunitInput | ProblemReport): string {
  const setup = report.problem
    ? [
        `  <testsuite name="set-up" tests="1" failures="0" errors="1" skipped="0">`,
        `    <testcase classname="set-up" name="${xml(`set-up: ${report.problem.kind}`)}">\n      <error message="${xml(report.problem.message)}" type="${xml(report.problem.kind)}"/>\n    </testcase>`,
        '  </testsuite>',
      ].join('\n')
    : undefined;
  if (!('checks' in report)) {
    return document(`${report.tool} ${report.target}`, { tests: 1, failures: 0, errors: 1, skipped: 0 }, [setup!], undefined);
  }
  const operations = [...new Set(report.coverage.map((c) => c.operationId))];
  const suites = operations.map((operationId) => {
    const cases = report.checks.flatMap((check) => {
      const cell = check.operations.find((o) => o.operationId === operationId);
      if (!cell) return [];
      const findings = report.findings.filter((f) => f.checkId === check.checkId && f.operationId === operationId);
      const open = `    <testcase classname="${xml(operationId)}" name="${xml(`${check.checkId} (${check.severity}): ${check.title}`)}"`;
      if (cell.outcome === 'not checked') return [`${open}>\n      <skipped message="${xml(cell.reason ?? '')}"/>\n    </testcase>`];
      if (cell.outcome === 'passed') return [`${open}/>`];
      // Identical findings (same rule, same cause) once, with a count (group-findings.ts).
      const groups = groupFindings(findings);
      const details = groups.map((group) => describeGroup(group, report.keys)).join('\n\n');
      if (check.severity === 'error') {
        return [`${open}>\n      <failure message="${xml(groups[0] ? headline(groups[0]) : check.title)}" type="${xml(check.checkId)}">${xml(details)}</failure>\n    </testcase>`];
      }
      const properties = groups.map((g) => `        <property name="warning" value="${xml(headline(g))}"/>`).join('\n');
      return [`${open}>\n      <properties>\n${properties}\n      </properties>\n      <system-out>${xml(`warning\n${details}`)}</system-out>\n    </testcase>`];
    });
    const count = (pattern: string) => cases.filter((c) => c.includes(pattern)).length;
    const time = report.operationDurationsMs ? ` time="${seconds(report.operationDurationsMs[operationId] ?? 0)}"` : '';
    return [`  <testsuite name="${xml(operationId)}" tests="${cases.length}" failures="${count('<failure')}" errors="0" skipped="${count('<skipped')}"${time}>`, ...cases, '  </testsuite>'].join('\n');
  });
  const failures = report.checks.reduce((n, c) => n + c.operations.filter((o) => o.outcome === 'failed' && c.severity === 'error').length, 0);
  const tests = report.checks.reduce((n, c) => n + c.operations.length, 0);
  return document(
    `${report.tool ?? 'flag-admin check'} ${report.target}`,
    { tests: tests + (setup ? 1 : 0), failures, errors: setup ? 1 : 0, skipped: report.summary.checksNotChecked },
    // The proxy's report has no plan (no seed, roles or repetitions) to show.
    [...(setup ? [setup] : []), ...('seed' in report ? [runSuite(report as Report)] : []), ...suites],
    report.durationMs,
  );
}

/** The run's plan as properties (seed, roles, repetitions) and the answers not judged as warnings, so a CI page shows them beside the verdicts. */
function runSuite(report: Report): string {
  const property = (name: string, value: string) => `      <property name="${xml(name)}" value="${xml(value)}"/>`;
  const properties = [
    property('seed', report.seed),
    ...(report.hints ?? []).map((h) => property('likely cause', h.message)),
    property('projects', report.options.projects.join(', ')),
    ...report.roles.tokens.map((t) => property(`role ${t.token}`, t.roles.join(', ') || 'none')),
    ...report.roles.empty.map((e) => property(`role ${e.role}`, `empty; would be filled by ${e.fill}`)),
    property('repetitions', `${report.repetitions.reads} repeated reads (${report.repetitions.rounds.join(', ')}), --settle-ms ${report.repetitions.settleMs}`),
    property('invariance', `${report.variants.requests} variants on ${report.variants.chains} kept-alive connections, ${report.variants.overlap} requests at once (the sample in the JSON report)`),
    ...report.notJudged.map((n) => property('warning', `not judged: ${n.operationId} ${n.label}: ${n.reason}`)),
  ];
  return [`  <testsuite name="run" tests="0" failures="0" errors="0" skipped="0">`, '    <properties>', ...properties, '    </properties>', '  </testsuite>'].join('\n');
}

function document(name: string, counts: { tests: number; failures: number; errors: number; skipped: number }, suites: string[], durationMs: number | undefined): string {
  const time = durationMs === undefined ? '' : ` time="${seconds(durationMs)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(name)}" tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}"${time}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** A group's first message, and how many findings it stands for. */
function headline(group: FindingGroup): string {
  return group.count > 1 ? `${group.examples[0]!.message} (${group.count} findings alike)` : group.examples[0]!.message;
}

/** The first finding in full, the other examples by their request, and how many more. */
function describeGroup(group: FindingGroup, keys: readonly KeyVariable[]): string {
  const [first, ...others] = group.examples;
  const more = group.count - group.examples.length;
  return [
    describe(first!),
    // What the variables of its curl line stand for: a failure is read on its own in a CI page.
    ...keysUsed(first!.curl, keys),
    ...(group.count > 1 ? [`${group.count} findings alike${others.length > 0 ? ', e.g. also:' : ''}`] : []),
    ...others.map((o) => `- ${o.request.method} ${o.request.url}: reproduce: ${o.curl}`),
    ...(more > 0 ? [`… and ${more} more (every one in the JSON report)`] : []),
  ].join('\n');
}

function describe(finding: Finding): string {
  return [
    finding.message,
    `expected: ${finding.expected}`,
    `got: ${finding.got}`,
    ...(finding.instancePointer !== undefined ? [`at: ${finding.instancePointer || '(root)'}`] : []),
    ...(finding.schemaPointer !== undefined ? [`spec: ${finding.schemaPointer}`] : []),
    ...(finding.alsoPossible !== undefined ? [`or: ${finding.alsoPossible}`] : []),
    `request: ${finding.request.method} ${finding.request.url}`,
    ...(finding.response ? [`response: ${finding.response.status} ${finding.response.contentType ?? ''} ${finding.response.excerpt}`] : []),
    `reproduce: ${finding.curl}`,
  ].join('\n');
}

/** Escapes for attributes and text, and drops characters XML 1.0 cannot hold (a server may echo a NUL or an ANSI escape). */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
