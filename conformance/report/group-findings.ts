import type { Finding, Severity } from '../types.ts';

/** How many findings of a group every report shows in full. */
export const EXAMPLES_PER_GROUP = 3;

/**
 * Findings that are one defect seen many times: the same rule broken for the same cause (what
 * came instead, where in the spec and the body). Requests, operations and what each request
 * expected may differ: a server that answers every request with HTML breaks
 * content-type-conformance once, and a full-access key answered 403 breaks
 * full-key-never-forbidden once, whether the request expected 404 or 200.
 */
export interface FindingGroup {
  /** The cause, as a stable key: the same for every finding of the group, different across groups. */
  key: string;
  checkId: string;
  severity: Severity;
  title: string;
  /** The first finding's; others of the group may have expected another answer. */
  expected: string;
  got: string;
  schemaPointer?: string;
  instancePointer?: string;
  /** Every operation a finding of the group is on, in the order first seen. */
  operationIds: string[];
  /** How many findings the group holds. */
  count: number;
  /** The first findings of the group whose requests differ (their curl lines), at most EXAMPLES_PER_GROUP, in report order. */
  examples: Finding[];
  /** Where each example sits in the findings given (for a report that keeps them all, e.g. JSON). */
  exampleIndexes: number[];
  /** Where the group's last finding sits in the findings given: with the first, the span a defect was seen over (the proxy's dashboard). */
  lastIndex: number;
}

/** The cause of a finding: its rule and severity, what came instead, and where in the spec and the body. */
export function causeOf(finding: Pick<Finding, 'checkId' | 'severity' | 'got' | 'schemaPointer' | 'instancePointer'>): string {
  return JSON.stringify([finding.checkId, finding.severity, finding.got, finding.schemaPointer ?? null, finding.instancePointer ?? null]);
}

/**
 * Identical findings (same rule, same cause) as one group with a count and up to three
 * examples, each a different request; groups in the order of their first finding, so a report sorted by severity and rule
 * stays so. Used by the console, JSON and JUnit reports and the proxy's dashboard.
 * @example groupFindings(report.findings).map((g) => `${g.checkId} ${g.count}x`) // ['content-type-conformance 63x', ...]
 */
export function groupFindings(findings: readonly Finding[], examples = EXAMPLES_PER_GROUP): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  findings.forEach((finding, index) => {
    const key = causeOf(finding);
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        checkId: finding.checkId,
        severity: finding.severity,
        title: finding.title,
        expected: finding.expected,
        got: finding.got,
        ...(finding.schemaPointer !== undefined ? { schemaPointer: finding.schemaPointer } : {}),
        ...(finding.instancePointer !== undefined ? { instancePointer: finding.instancePointer } : {}),
        operationIds: [],
        count: 0,
        examples: [],
        exampleIndexes: [],
        lastIndex: index,
      };
      groups.set(key, group);
    }
    group.count++;
    group.lastIndex = index;
    if (!group.operationIds.includes(finding.operationId)) group.operationIds.push(finding.operationId);
    // An example shows a request unlike those shown: the same request sent again (the reads repeated at the start, middle
    // and end) adds a count, not a line the reader already has.
    if (group.examples.length < examples && !group.examples.some((e) => e.curl === finding.curl)) {
      group.examples.push(finding);
      group.exampleIndexes.push(index);
    }
  });
  return [...groups.values()];
}
