import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/index.ts';
import type { PlanInput } from './plan-input.ts';
import { planInputFor } from './plan-input.fixture.ts';
import { otherCase, unlistedMethodsScenario } from './unlisted-methods.ts';
import { seededRandom } from '../seeded-random.ts';

const contract = await loadContract({ validate: false });
const input = (overrides: Partial<PlanInput> = {}): PlanInput => planInputFor(contract, { tokens: [{ account: '1', token: '1' }], ...overrides });
/** A method sent with the full key to a resource the run was given (the OIDC settings, the first project): a write a server may implement. */
const keyedWrites = (plan: ReturnType<typeof unlistedMethodsScenario>) =>
  plan.requests.filter((r) => r.credential === 'full' && r.step === 'unlisted-method' && !r.path.includes('no-such') && r.method !== 'TRACE');

describe('methods the spec does not list, on the resources the run was given', () => {
  it('sends PUT, POST, PATCH and DELETE with the full key to the OIDC settings and the first project, then each read again, with --allow-delete', () => {
    const plan = unlistedMethodsScenario(input());
    const writes = keyedWrites(plan);
    expect(new Set(writes.map((r) => r.path))).toEqual(new Set(['/api/admin/auth/oidc/settings', '/api/admin/environments/project/default']));
    expect(new Set(writes.map((r) => r.method))).toEqual(new Set(['PUT', 'POST', 'PATCH', 'DELETE']));
    expect(plan.requests.filter((r) => r.step === 'repeat-read')).toHaveLength(2);
  });

  it('changes nothing without --allow-delete: no keyed write to a real resource, and the report says which steps need the flag', () => {
    const plan = unlistedMethodsScenario(input({ allowDelete: false }));
    expect(keyedWrites(plan)).toEqual([]);
    expect(plan.requests.filter((r) => r.step === 'repeat-read')).toEqual([]);
    expect(plan.skipped).toHaveLength(2);
    expect(plan.skipped.every((s) => s.reason.startsWith('needs --allow-delete'))).toBe(true);
    // The keyless probes stay: they cannot change anything on a sane server.
    expect(plan.requests.some((r) => r.method === 'TRACE' && r.credential === 'none')).toBe(true);
  });
});

describe('methods the path lists, spelled in another case (RFC 9110 §9.1: method names are case-sensitive)', () => {
  it('spells a method lower case, capitalized or alternating, never as listed', () => {
    const random = seededRandom(7);
    const spellings = new Set(Array.from({ length: 60 }, () => otherCase('DELETE', random)));
    expect(spellings).toEqual(new Set(['delete', 'Delete', 'dElEtE']));
  });

  it('sends one to every path without a key, on a connection of its own (the raw send-chain writes the method as spelled), whatever the seed', () => {
    for (const seed of ['flag-admin', 'a', 'b', 'c']) {
      const spelled = unlistedMethodsScenario(input({ seed })).requests.filter((r) => r.method !== r.method.toUpperCase());
      const listed = new Map(contract.operations.map((o) => [o.path, o.method]));
      expect(spelled.map((r) => listed.get(contract.operation(r.operationId).path))).toEqual([...new Set(contract.operations.map((o) => o.path))].map((path) => listed.get(path)));
      expect(spelled.every((r) => r.credential === 'none' && r.step === 'unlisted-method' && r.method.toUpperCase() === contract.operation(r.operationId).method)).toBe(true);
      expect(new Set(spelled.map((r) => r.connection)).size).toBe(spelled.length);
      expect(spelled.every((r) => r.connection !== undefined)).toBe(true);
    }
  });
});
