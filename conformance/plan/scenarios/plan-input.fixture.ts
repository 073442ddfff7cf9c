import type { Contract } from '../../../src/contract/index.ts';
import type { PlanInput } from './plan-input.ts';

/**
 * A plan's input as the scenarios' unit tests give it: the default project, the mock's restricted
 * key forbidden the OIDC read and the delete, deletes allowed, tokens 1/1 and 1/2, seed `s`;
 * each test overrides what it is about.
 */
export function planInputFor(contract: Contract, overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    contract,
    project: 'default',
    projects: ['default'],
    missingProject: 'no-such-project-x',
    missingAccount: 'no-such-account',
    missingToken: 'no-such-token',
    hasRestrictedKey: true,
    restrictedKeys: 1,
    settleMs: 0,
    forbidden: new Set(['getOidcSettings', 'deleteServiceAccountToken']),
    tokens: [
      { account: '1', token: '1' },
      { account: '1', token: '2' },
    ],
    allowDelete: true,
    keyNearMisses: [],
    seed: 's',
    ...overrides,
  };
}
