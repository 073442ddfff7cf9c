import { responseFor, type Contract } from '../../src/contract/index.ts';
import { HOSTILE_STEPS, type CoverageRow, type Exchange, type SkippedStep } from '../types.ts';

/**
 * Operation x documented status, the statuses read from the contract: provoked and conformant,
 * provoked and not (a response-level check failed on it), or not provoked and why.
 */
export function buildCoverage(contract: Contract, exchanges: readonly Exchange[], skipped: readonly SkippedStep[], nonConformant: ReadonlySet<number>): CoverageRow[] {
  return contract.operations.flatMap((operation) => {
    const mine = exchanges.filter((e) => e.operationId === operation.operationId && !HOSTILE_STEPS.has(e.step));
    // Which documented status a concrete one falls under ('404', else '4XX'): the contract's own rule.
    const covers = (status: string, n: number) => responseFor(operation, n)?.status === status;
    return [...operation.responses.keys()].sort().map((status): CoverageRow => {
      const provoking = mine.filter((e) => e.response && responseFor(operation, e.response.status)?.status === status);
      if (provoking.length > 0) {
        const bad = provoking.some((e) => nonConformant.has(e.seq));
        return { operationId: operation.operationId, status, outcome: bad ? 'not conformant' : 'conformant', provoked: provoking.length };
      }
      const reasons = [
        ...skipped.filter((s) => s.operationId === operation.operationId && s.expects.some((n) => covers(status, n))).map((s) => `${s.label}: ${s.reason}`),
        ...mine
          .filter((e) => e.expects.some((n) => covers(status, n)))
          .map((e) => {
            if (!e.response) return `${e.label}: ${e.notJudged ?? `no response (${e.transportError})`}`;
            return e.expects.includes(e.response.status) ? `${e.label}: answered ${e.response.status}, which it may as well` : `${e.label}: expected, the target answered ${e.response.status}`;
          }),
      ];
      const reason = reasons.length > 0 ? [...new Set(reasons)].join('; ') : 'no request of the suite provokes it: the API description gives no condition for it';
      return { operationId: operation.operationId, status, outcome: 'not provoked', provoked: 0, reason };
    });
  });
}
