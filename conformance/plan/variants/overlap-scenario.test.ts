import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/index.ts';
import { planInputFor } from '../scenarios/plan-input.fixture.ts';
import { overlapScenario } from './overlap-scenario.ts';

const contract = await loadContract({ validate: false });
const batch = (seed: string) => overlapScenario(planInputFor(contract, { seed })).requests;
/** The credentials of each operation's requests, in the order they go out. */
const orders = (seed: string) => {
  const byOperation = new Map<string, string[]>();
  for (const r of batch(seed)) byOperation.set(r.operationId, [...(byOperation.get(r.operationId) ?? []), r.credential]);
  return [...byOperation.values()];
};

describe('the overlap batch', () => {
  it.each(['1', '2', 'abc', 'flag-admin'])('sends every operation with every credential class at once (seed %s)', (seed) => {
    const requests = batch(seed);
    expect(requests).toHaveLength(12);
    expect(new Set(requests.map((r) => r.batch)).size).toBe(1);
    expect(new Set(requests.map((r) => `${r.operationId} ${r.credential}`)).size).toBe(12);
  });

  it.each(['1', '2', 'abc', 'flag-admin'])('keeps several orders of the credentials, the first one with every refused and weaker key ahead of the full key (seed %s)', (seed) => {
    const [first, ...rest] = orders(seed);
    // Red team round eight: key lookups handed out by position mix keys up only when they arrive in another order than the store's (full first).
    expect(first!.at(-1)).toBe('full');
    expect(first!.indexOf('restricted')).toBe(2);
    // The last ends on the refused keys: a role kept in a shared variable (the last to arrive wins) then reaches the full key's requests in flight.
    expect(rest.at(-1)).toEqual(['full', 'restricted', 'none', 'invalid']);
    expect(new Set(orders(seed).map((o) => o.join())).size).toBeGreaterThan(1);
  });

  it('draws the orders and which operation gets which from the seed', () => {
    expect(batch('7')).toEqual(batch('7'));
    const seen = new Set(['1', '2', '3', '4', '5', '6'].map((seed) => JSON.stringify(orders(seed)) + batch(seed)[0]!.operationId));
    expect(seen.size).toBeGreaterThan(1);
  });
});
