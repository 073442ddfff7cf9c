import type { LintMessage } from './lint-finding.ts';
import { formatRenderer } from './report-format.ts';
import type { LintResult } from './lint-spec.ts';

export const LINT_FORMATS = ['text', 'json', 'junit', 'github'] as const;
export type LintFormat = (typeof LINT_FORMATS)[number];

export const renderLint = formatRenderer<LintResult, LintFormat>({ text: renderText, junit: renderJunit, github: (result) => result.messages.map(githubAnnotation).join('') });

/**
 * Top-down, as a reader triages: the verdict, then how many of each rule (errors first, the most
 * frequent first), then the errors and then the warnings, each in file order. A clean document
 * with no message is its one verdict line.
 */
function renderText({ file, messages, errors, warnings }: LintResult): string {
  const verdict = errors > 0 ? `${file}: ${errors} error(s), ${warnings} warning(s)` : `${file}: lints clean${warnings > 0 ? ` (${warnings} warning(s))` : ''}`;
  if (messages.length === 0) return `${verdict}\n`;
  const counts = new Map<string, { severity: LintMessage['severity']; ruleId: string; count: number }>();
  for (const m of messages) {
    const key = `${m.severity} ${m.ruleId}`;
    counts.set(key, { severity: m.severity, ruleId: m.ruleId, count: (counts.get(key)?.count ?? 0) + 1 });
  }
  const rank = (severity: LintMessage['severity']) => (severity === 'error' ? 0 : 1);
  const rules = [...counts.values()].sort((a, b) => rank(a.severity) - rank(b.severity) || b.count - a.count || a.ruleId.localeCompare(b.ruleId));
  const width = Math.max(...rules.map((r) => r.ruleId.length), 26);
  const summary = rules.map((r) => `  ${r.severity.padEnd(7)}  ${r.ruleId.padEnd(width)}  ${String(r.count).padStart(2)}`);
  const details = [...messages].sort((a, b) => rank(a.severity) - rank(b.severity)).map((m) => `${m.file}:${m.line}:${m.column}  ${m.severity.padEnd(7)}  ${m.message}  ${m.ruleId}`);
  return [verdict, '', ...summary, '', ...details].join('\n') + '\n';
}

const xml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** One testcase per message (an error fails, a warning is written to system-out), or one passing testcase. */
function renderJunit({ file, messages, errors }: LintResult): string {
  const cases = messages.map((m) => {
    const name = xml(`${m.ruleId} at ${m.file}:${m.line}:${m.column}`);
    const body = m.severity === 'error' ? `<failure message="${xml(m.message)}" type="${xml(m.ruleId)}">${xml(`${m.file}:${m.line}:${m.column} #${m.pointer}\n${m.message}`)}</failure>` : `<system-out>${xml(`warning: ${m.message}`)}</system-out>`;
    return `    <testcase classname="${xml(m.ruleId)}" name="${name}" file="${xml(m.file)}" line="${m.line}">${body}</testcase>`;
  });
  if (cases.length === 0) cases.push(`    <testcase classname="spec-lint" name="${xml(file)} lints clean"/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="flag-admin spec lint" tests="${cases.length}" failures="${errors}">`,
    `  <testsuite name="${xml(file)}" tests="${cases.length}" failures="${errors}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** A GitHub Actions workflow command; values and properties escaped as the runner expects (actions/toolkit `command.ts`). */
function githubAnnotation(m: LintMessage): string {
  const data = (text: string) => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
  const property = (text: string) => data(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
  const level = m.severity === 'error' ? 'error' : 'warning';
  return `::${level} file=${property(m.file)},line=${m.line},col=${m.column},title=${property(m.ruleId)}::${data(m.message)}\n`;
}
