import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/index.ts';
import type { PlanInput } from './plan-input.ts';
import { planInputFor } from './plan-input.fixture.ts';
import { unlistedMethodsScenario } from './unlisted-methods.ts';

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
