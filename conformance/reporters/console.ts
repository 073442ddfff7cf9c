import type { CheckOutcome, Finding, Report } from '../types.ts';

const MARK: Record<CheckOutcome, string> = { passed: 'pass', failed: 'FAIL', 'not checked': 'not checked' };

/** The human report: the verdict table per check and operation, each finding with its reproduction, coverage, and what was not checked. */
export function renderConsole(report: Report): string {
  const operations = [...new Set(report.coverage.map((c) => c.operationId))];
  const lines: string[] = [];
  lines.push(`flag-admin check ${report.target}`);
  lines.push(`spec ${report.spec.file} (${report.spec.title} ${report.spec.version})`);
  lines.push(
    `seed ${JSON.stringify(report.seed)}; project ${JSON.stringify(report.options.project)}; missing project ${JSON.stringify(report.options.missingProject)}${report.options.missingProjectGenerated ? ' (generated from the seed)' : ''}`,
  );
  lines.push('');
  lines.push('Checks');
  const idWidth = Math.max(...report.checks.map((c) => c.checkId.length + c.severity.length + 3));
  lines.push(`  ${''.padEnd(idWidth)}  ${operations.map((o) => o.padEnd(Math.max(o.length, 11))).join('  ')}`);
  for (const row of report.checks) {
    const cells = operations.map((operationId) => {
      const cell = row.operations.find((o) => o.operationId === operationId);
      return (cell ? MARK[cell.outcome] : '-').padEnd(Math.max(operationId.length, 11));
    });
    lines.push(`  ${`${row.checkId} (${row.severity})`.padEnd(idWidth)}  ${cells.join('  ')}`.trimEnd());
  }

  if (report.findings.length > 0) {
    lines.push('');
    lines.push(`Findings: ${report.summary.errors} error(s), ${report.summary.warnings} warning(s)`);
    report.findings.forEach((finding, i) => lines.push(...renderFinding(finding, i + 1)));
  }

  lines.push('');
  lines.push('Coverage (operation x documented status)');
  for (const row of report.coverage) {
    const what = row.outcome === 'not provoked' ? `not provoked: ${row.reason}` : `provoked ${row.provoked}x, ${row.outcome}`;
    lines.push(`  ${row.operationId} ${row.status}  ${what}`);
  }

  const notChecked = report.checks.flatMap((c) => c.operations.filter((o) => o.outcome === 'not checked').map((o) => `  ${c.checkId} on ${o.operationId}: ${o.reason}`));
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
      const line = `  ${s.operationId} ${s.label}: ${s.reason}`;
      grouped.set(line, (grouped.get(line) ?? 0) + 1);
    }
    for (const [line, n] of grouped) lines.push(n > 1 ? `${line} (${n}x)` : line);
  }

  lines.push('');
  const time = report.durationMs === undefined ? '' : ` in ${report.durationMs} ms`;
  lines.push(
    `${report.verdict === 'conformant' ? 'CONFORMANT' : 'NOT CONFORMANT'}: ${report.summary.requests} requests${time}, ${report.summary.errors} error(s), ${report.summary.warnings} warning(s), ${report.summary.checksNotChecked} check(s) not checked`,
  );
  return `${lines.join('\n')}\n`;
}

function renderFinding(finding: Finding, n: number): string[] {
  const lines = ['', `${n}. [${finding.severity}] ${finding.checkId} on ${finding.operationId}: ${finding.title}`, `   ${finding.message}`];
  lines.push(`   expected: ${finding.expected}`);
  lines.push(`   got:      ${finding.got}`);
  if (finding.instancePointer !== undefined) lines.push(`   at:       ${finding.instancePointer || '(root)'} in the body`);
  if (finding.schemaPointer !== undefined) lines.push(`   spec:     ${finding.schemaPointer}`);
  lines.push(`   request:  ${finding.request.method} ${shorten(finding.request.url)}`);
  if (finding.response) {
    lines.push(`   response: ${finding.response.status}${finding.response.contentType ? ` ${finding.response.contentType}` : ''}${finding.response.excerpt ? ` ${shorten(finding.response.excerpt)}` : ''}`);
  }
  lines.push(`   reproduce: ${shorten(finding.curl)}`);
  return lines;
}

/** Console lines stay readable; the JSON and JUnit reports keep everything. */
function shorten(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text;
}
