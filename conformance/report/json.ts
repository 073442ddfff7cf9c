import type { ProblemReport } from './build-report.ts';
import type { PassiveReport } from '../judge/passive-judge.ts';
import type { Report } from '../types.ts';
import { groupFindings } from './group-findings.ts';

/**
 * The report as JSON: stable key order (as built), two-space indent, a final newline. Beside
 * `findings` (every one, for tools), `findingGroups`: identical findings (same rule, same cause)
 * as one entry with a count and the indexes of up to three examples in `findings`.
 */
export function renderJson(report: Report | ProblemReport | PassiveReport): string {
  if (!('findings' in report)) return `${JSON.stringify(report, null, 2)}\n`;
  const groups = groupFindings(report.findings).map(({ key: _key, examples: _examples, exampleIndexes, ...group }) => ({ ...group, examples: exampleIndexes }));
  const entries = Object.entries(report).flatMap(([name, value]) => (name === 'findings' ? [[name, value], ['findingGroups', groups]] : [[name, value]]));
  return `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`;
}
