import type { Finding, Report } from '../types.ts';

/**
 * JUnit XML as CI systems read it: a testsuite per operation, a testcase per check. A failed
 * error check is a <failure>, a not-checked one <skipped> with its reason, warnings are listed in
 * the testcase's <system-out> (JUnit has no warning state, and a warning must not fail CI).
 */
export function renderJunit(report: Report): string {
  const operations = [...new Set(report.coverage.map((c) => c.operationId))];
  const suites = operations.map((operationId) => {
    const cases = report.checks.flatMap((check) => {
      const cell = check.operations.find((o) => o.operationId === operationId);
      if (!cell) return [];
      const findings = report.findings.filter((f) => f.checkId === check.checkId && f.operationId === operationId);
      const open = `    <testcase classname="${xml(operationId)}" name="${xml(`${check.checkId} (${check.severity}): ${check.title}`)}"`;
      if (cell.outcome === 'not checked') return [`${open}>\n      <skipped message="${xml(cell.reason ?? '')}"/>\n    </testcase>`];
      if (cell.outcome === 'passed') return [`${open}/>`];
      const details = findings.map(describe).join('\n\n');
      if (check.severity === 'error') {
        return [`${open}>\n      <failure message="${xml(findings[0]?.message ?? check.title)}" type="${xml(check.checkId)}">${xml(details)}</failure>\n    </testcase>`];
      }
      return [`${open}>\n      <system-out>${xml(`warning\n${details}`)}</system-out>\n    </testcase>`];
    });
    const count = (pattern: string) => cases.filter((c) => c.includes(pattern)).length;
    return [
      `  <testsuite name="${xml(operationId)}" tests="${cases.length}" failures="${count('<failure')}" errors="0" skipped="${count('<skipped')}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  const failures = report.checks.reduce((n, c) => n + c.operations.filter((o) => o.outcome === 'failed' && c.severity === 'error').length, 0);
  const tests = report.checks.reduce((n, c) => n + c.operations.length, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="flag-admin check ${xml(report.target)}" tests="${tests}" failures="${failures}" errors="0" skipped="${report.summary.checksNotChecked}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function describe(finding: Finding): string {
  return [
    finding.message,
    `expected: ${finding.expected}`,
    `got: ${finding.got}`,
    ...(finding.instancePointer !== undefined ? [`at: ${finding.instancePointer || '(root)'}`] : []),
    ...(finding.schemaPointer !== undefined ? [`spec: ${finding.schemaPointer}`] : []),
    `request: ${finding.request.method} ${finding.request.url}`,
    ...(finding.response ? [`response: ${finding.response.status} ${finding.response.contentType ?? ''} ${finding.response.excerpt}`] : []),
    `reproduce: ${finding.curl}`,
  ].join('\n');
}

/** Escapes for attributes and text, and drops characters XML 1.0 cannot hold (a server may echo a NUL). */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
