import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/index.ts';
import type { PlannedRequest, TokenRef } from '../../types.ts';
import type { PlanInput } from './plan-input.ts';
import { planInputFor } from './plan-input.fixture.ts';
import { tokenDeletionScenario } from './token-deletion.ts';

const contract = await loadContract({ validate: false });
const tokens = (...names: string[]): TokenRef[] => names.map((n) => ({ account: n.split('/')[0]!, token: n.split('/')[1]! }));
const input = (given: TokenRef[]): PlanInput => planInputFor(contract, { tokens: given });
const name = (r: PlannedRequest) => `${r.token!.account}/${r.token!.token}`;
/** The tokens whose delete and delete again share one planned connection, the delete first. */
function chained(requests: readonly PlannedRequest[]): string[] {
  const byConnection = new Map<number, PlannedRequest[]>();
  for (const r of requests) if (r.connection !== undefined) byConnection.set(r.connection, [...(byConnection.get(r.connection) ?? []), r]);
  return [...byConnection.values()].filter((c) => c.length === 2 && c[0]!.step === 'delete' && c[1]!.step === 'delete-again' && name(c[0]!) === name(c[1]!)).map((c) => name(c[0]!));
}
const batchTokens = (requests: readonly PlannedRequest[]) => new Set(requests.filter((r) => r.batch !== undefined).map(name));

describe('a deleted token is gone on the connection that deleted it (issue 18, the connection)', () => {
  it("with the README's and the red team's tokens (1/1 1/2 2/4) the first token's delete and delete again share one connection, and the batch deletes two tokens of one account and one of another at once (red team round fifteen)", () => {
    const { requests } = tokenDeletionScenario(input(tokens('1/1', '1/2', '2/4')));
    expect(chained(requests)).toEqual(['1/1']);
    expect(batchTokens(requests)).toEqual(new Set(['1/1', '1/2', '2/4']));
    // The chained delete is the batch's last request and its delete again comes right after it: run.ts sends that pair on one connection, at once with the rest.
    const last = requests.findLastIndex((r) => r.batch !== undefined);
    expect([requests[last]!.step, name(requests[last]!), requests[last + 1]!.step, requests[last + 1]!.connection]).toEqual(['delete', '1/1', 'delete-again', requests[last]!.connection]);
    expect(requests[last + 1]!.batch).toBeUndefined();
  });

  it("with the documented run's six tokens the chain is sent and the batch keeps four tokens of two accounts", () => {
    const { requests } = tokenDeletionScenario(input(tokens('1/1', '1/2', '1/3', '2/4', '2/5', '12/1')));
    expect(chained(requests)).toEqual(['1/1']);
    expect(batchTokens(requests)).toEqual(new Set(['1/1', '2/4', '1/2', '1/3']));
  });

  it('tokens deleted alone each get their delete and delete again on one connection, and the first token stays in the batch', () => {
    const { requests } = tokenDeletionScenario(input(tokens('1/1', '1/2', '1/3', '2/4', '2/5', '3/6', '3/7')));
    expect(chained(requests).length).toBeGreaterThan(0);
    expect(batchTokens(requests).has('1/1')).toBe(true);
  });

  it('with two tokens the batch keeps both, and the first one is chained too: neither overlap nor the connection is given up', () => {
    const { requests } = tokenDeletionScenario(input(tokens('1/1', '2/4')));
    expect(chained(requests)).toEqual(['1/1']);
    expect(batchTokens(requests)).toEqual(new Set(['1/1', '2/4']));
  });

  it('with one token alone it is chained, not batched', () => {
    const { requests } = tokenDeletionScenario(input(tokens('1/1')));
    expect(chained(requests)).toEqual(['1/1']);
    expect(batchTokens(requests)).toEqual(new Set());
  });
});
