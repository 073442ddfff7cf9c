import { collectDecisions, DECISIONS_KEY } from '../decisions.ts';
import type { LintFinding, LintRule } from '../lint-finding.ts';

/** How the API description marks a point it leaves open. */
const OPEN_MARK = 'not shown';

/**
 * Design principle 7: where the API description says "not shown", the spec decides and records
 * the decision. A decision quotes the description's sentence exactly, so the rule notices when
 * either side changes: a new open point with no decision, or a decision whose quote is gone.
 */
export const decisionsRecorded: LintRule = {
  ids: [
    { id: 'decision-recorded', severity: 'error', summary: `every "${OPEN_MARK}" of the API description has an \`${DECISIONS_KEY}\` entry quoting it` },
    { id: 'decision-stale', severity: 'error', summary: `a decision quoting a "${OPEN_MARK}" sentence the API description no longer has` },
    { id: 'decision-shape', severity: 'error', summary: `every \`${DECISIONS_KEY}\` entry has a unique kebab-case id, apiSection, openPoint and decision` },
  ],
  needsContract: false,
  check({ rawDocument, apiDescription }) {
    const { decisions, problems } = collectDecisions(rawDocument);
    const findings: LintFinding[] = problems.map((p) => ({ ruleId: 'decision-shape', severity: 'error', pointer: p.pointer, message: p.message }));
    if (!apiDescription) return findings;
    const openPoints = openPointsOf(apiDescription.text);
    const quoted = new Set(decisions.map((d) => d.openPoint));
    for (const point of openPoints) {
      if (quoted.has(point.text)) continue;
      findings.push({
        ruleId: 'decision-recorded',
        severity: 'error',
        pointer: '',
        at: { file: apiDescription.file, line: point.line, column: point.column },
        message: `"${point.text}" has no decision: expected an ${DECISIONS_KEY} entry with this openPoint beside the schema or operation it concerns`,
      });
    }
    const texts = new Set(openPoints.map((p) => p.text));
    decisions.forEach((decision) => {
      if (!decision.openPoint.includes(OPEN_MARK) || texts.has(decision.openPoint)) return;
      const index = decisions.filter((d) => d.pointer === decision.pointer).indexOf(decision);
      findings.push({
        ruleId: 'decision-stale',
        severity: 'error',
        pointer: `${decision.pointer}/${DECISIONS_KEY}/${index}/openPoint`,
        message: `decision "${decision.id}" quotes "${decision.openPoint}", which ${apiDescription.file} does not say (expected one of its "${OPEN_MARK}" sentences, quoted exactly)`,
      });
    });
    return findings;
  },
};

/** Each sentence line of the description that says "not shown", without its list marker. */
export function openPointsOf(text: string): { text: string; line: number; column: number }[] {
  return text.split('\n').flatMap((line, index) => {
    if (!line.toLowerCase().includes(OPEN_MARK)) return [];
    const marker = /^\s*(?:[-*]\s+)?/.exec(line)![0];
    return [{ text: line.slice(marker.length).trim(), line: index + 1, column: marker.length + 1 }];
  });
}
