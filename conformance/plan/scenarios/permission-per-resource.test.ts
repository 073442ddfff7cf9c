import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/index.ts';
import type { PlanInput } from './plan-input.ts';
import { planInputFor } from './plan-input.fixture.ts';
import { buildPlan } from './plan.ts';

const contract = await loadContract({ validate: false });
/** Each restricted request of the plan on an operation with ids, as `keyIndex operationId path`: what the key is read on, whichever step reads it. */
const restrictedReads = (input: PlanInput) =>
  buildPlan(input)
    .requests.filter((r) => r.credential === 'restricted' && !r.keyVariant && contract.operations.some((o) => o.operationId === r.operationId && o.method === r.method && o.pathParams.length > 0))
    .map((r) => ({ key: r.keyIndex ?? 0, operationId: r.operationId, path: r.path, step: r.step }));
const added = (input: PlanInput) => buildPlan(input).requests.filter((r) => r.step === 'permission-per-resource').map((r) => `${r.keyIndex ?? 0} ${r.method} ${r.path} ${r.expects.join(',')}`);

describe('each restricted key on every resource the run knows (spec decision permissions-per-operation)', () => {
  it('reads the key it may read environments with on the missing project too, which no other step does', () => {
    expect(added(planInputFor(contract))).toEqual(['0 GET /api/admin/environments/project/no-such-project-x 404,403']);
  });

  it('reads a --forbidden operation on every given project and the account of every given token, the missing ones too, each at least once in the plan', () => {
    const input = planInputFor(contract, { projects: ['default', 'mobile-app'], tokens: [{ account: '1', token: '1' }, { account: '2', token: '4' }], forbidden: new Set(['getProjectEnvironments', 'deleteServiceAccountToken']) });
    const reads = restrictedReads(input);
    for (const project of ['default', 'mobile-app', 'no-such-project-x']) expect(reads.some((r) => r.path === `/api/admin/environments/project/${project}`), project).toBe(true);
    for (const account of ['1', '2', 'no-such-account']) expect(reads.some((r) => r.path.startsWith(`/api/admin/service-account/${account}/token/`)), account).toBe(true);
    // The steps before read the first project, the missing one and a real token of each account: only the second project is new, and it must get 403.
    expect(added(input)).toEqual(['0 GET /api/admin/environments/project/mobile-app 403']);
  });

  it('reads a delete the key may call on every given account with the token id that cannot exist, so nothing real is deleted; each restricted key on its own', () => {
    const input = planInputFor(contract, { restrictedKeys: 2, tokens: [{ account: '1', token: '1' }, { account: '2', token: '4' }], forbidden: new Set(['getOidcSettings']) });
    const deletes = added(input).filter((line) => line.includes('DELETE'));
    expect(deletes).toEqual([
      '0 DELETE /api/admin/service-account/1/token/no-such-token 404,403',
      '0 DELETE /api/admin/service-account/2/token/no-such-token 404,403',
      '1 DELETE /api/admin/service-account/1/token/no-such-token 404,403',
      '1 DELETE /api/admin/service-account/2/token/no-such-token 404,403',
    ]);
  });

  it('sends nothing without a restricted key: the full key is never 403 anywhere (full-key-never-forbidden)', () => {
    expect(added(planInputFor(contract, { hasRestrictedKey: false, restrictedKeys: 0 }))).toEqual([]);
  });
});
