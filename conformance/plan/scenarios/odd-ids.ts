import type { PlannedRequest } from '../../types.ts';
import { harmlessValues } from './probe-path.ts';
import { pathOf, type PlanInput } from './plan-input.ts';
import type { ScenarioPlan } from './scenario-plan.ts';
import { allocateTokens } from './token-allocation.ts';

/**
 * Hostile path ids, as they go on the wire (already percent-encoded; a URL parser keeps them
 * as they are). None can name a real resource, so even a delete with the full key removes nothing.
 */
export const ODD_IDS: readonly { name: string; value: string; malformed?: true }[] = [
  { name: 'a 2048-character id', value: 'a'.repeat(2048) },
  { name: 'an encoded slash (%2F)', value: 'odd%2Fid' },
  { name: 'Unicode (été-🚩, UTF-8 percent-encoded)', value: '%C3%A9t%C3%A9-%F0%9F%9A%A9' },
  { name: 'an encoded NUL (%00)', value: 'odd%00id' },
  { name: 'malformed percent-encoding (%ZZ)', value: 'odd%ZZid', malformed: true },
  { name: 'truncated UTF-8 (%E0%A4%A)', value: '%E0%A4%A', malformed: true },
];

/**
 * Each path parameter of each operation in turn gets each odd id; the others keep harmless
 * values. Malformed encodings go last: they are the likeliest to crash a server (Prism 5.16
 * exits on them), and everything else should be judged before that.
 */
export function oddIdsScenario(input: PlanInput): ScenarioPlan {
  const requests: PlannedRequest[] = [];
  const { primary } = allocateTokens(input.tokens);
  for (const malformed of [false, true]) {
    for (const operation of input.contract.operations) {
      const values = harmlessValues(operation, input);
      // With a given token, the account in the path is a real one, so the odd token id reaches the lookup.
      if (primary && operation.pathParams.length > 1) values[0] = encodeURIComponent(primary.account);
      operation.pathParams.forEach((param, i) => {
        for (const odd of ODD_IDS.filter((o) => Boolean(o.malformed) === malformed)) {
          const path = pathOf(operation, values.map((v, j) => (j === i ? odd.value : v)));
          requests.push({ operationId: operation.operationId, step: 'odd-id', label: `${param} = ${odd.name}`, credential: 'full', method: operation.method, path, expects: [] });
        }
      });
    }
  }
  return { requests, skipped: [] };
}
