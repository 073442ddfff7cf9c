import type { ProblemReport } from './build-report.ts';
import type { PassiveReport } from '../judge/passive-judge.ts';
import type { Report } from '../types.ts';

/** The report as JSON: stable key order (as built), two-space indent, a final newline. */
export function renderJson(report: Report | ProblemReport | PassiveReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
