import { describe, expect, it } from 'vitest';
import type { Finding } from '../types.ts';
import { groupFindings } from './group-findings.ts';

let n = 0;
const finding = (over: Partial<Finding> = {}): Finding => ({
  checkId: 'content-type-conformance',
  severity: 'error',
  operationId: 'getOidcSettings',
  title: 'A described body comes with its media type',
  message: `request ${++n}: a 404 carries an application/json body`,
  expected: 'Content-Type: application/json',
  got: 'Content-Type: text/html',
  step: 'read',
  request: { method: 'GET', url: `http://127.0.0.1:1/x/${n}`, headers: {} },
  curl: `curl http://127.0.0.1:1/x/${n}`,
  ...over,
});

describe('groupFindings', () => {
  it('makes findings of one rule and one cause one group with a count and the first three as examples', () => {
    const findings = [...Array.from({ length: 63 }, () => finding()), ...Array.from({ length: 5 }, () => finding({ operationId: 'getProjectEnvironments' }))];
    const [group, ...rest] = groupFindings(findings);
    expect(rest).toEqual([]);
    expect(group!.count).toBe(68);
    expect(group!.examples).toEqual(findings.slice(0, 3));
    expect(group!.exampleIndexes).toEqual([0, 1, 2]);
    expect(group!.operationIds).toEqual(['getOidcSettings', 'getProjectEnvironments']);
    // The last one too (issue 19: first and last example): the console, JSON (lastIndex) and the proxy's dashboard show it.
    expect(group!.lastIndex).toBe(67);
  });

  it('keeps findings apart that differ in rule, severity, what was got, or where in the spec or body; not in what each expected', () => {
    const findings = [
      finding({ expected: 'status 404' }),
      finding({ checkId: 'response-schema-conformance' }),
      finding({ severity: 'warning' }),
      finding({ got: 'no Content-Type' }),
      finding({ schemaPointer: '/paths/~1a/get/responses/404' }),
      finding({ instancePointer: '/id' }),
      finding(),
    ];
    const groups = groupFindings(findings);
    expect(groups.map((g) => g.count)).toEqual([2, 1, 1, 1, 1, 1]);
    expect(groups[0]!.exampleIndexes).toEqual([0, 6]);
  });

  it('shows as examples only requests unlike the ones shown: the same request sent again (the reads of start, middle and end) is counted, not repeated', () => {
    const same = { request: { method: 'GET', url: 'http://127.0.0.1:1/oidc', headers: {} }, curl: 'curl http://127.0.0.1:1/oidc' };
    const findings = [finding(same), finding(same), finding(same), finding(), finding(same), finding()];
    const [group] = groupFindings(findings);
    expect(group!.count).toBe(6);
    expect(group!.exampleIndexes).toEqual([0, 3, 5]);
    expect(group!.lastIndex).toBe(5);
    const [only] = groupFindings([finding(same), finding(same), finding(same)]);
    expect(only!.count).toBe(3);
    expect(only!.exampleIndexes).toEqual([0]);
  });

  it('keeps the order of the first finding of each group', () => {
    const findings = [finding({ checkId: 'b' }), finding({ checkId: 'a' }), finding({ checkId: 'b' })];
    expect(groupFindings(findings).map((g) => g.checkId)).toEqual(['b', 'a']);
  });
});
