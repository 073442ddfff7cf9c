import fc from 'fast-check';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_OIDC_SETTINGS, GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import { encodeId, pathOf, type PlanInput } from '../scenarios/plan-input.ts';
import type { Credential, PlannedRequest } from '../../types.ts';

/** What a random step may touch: the given resources and keys, and ids generated not to exist. */
export interface RandomUniverse {
  projects: readonly string[];
  missingProject: string;
  /** Only given tokens are ever deleted; the generated missing token is tried under each given account. */
  tokens: readonly { account: string; token: string }[];
  missingToken: string;
  /** Every key the run holds, restricted ones by index, and none and an invalid one. */
  credentials: readonly { credential: Credential; keyIndex?: number }[];
  allowDelete: boolean;
}

export function randomUniverse(input: PlanInput): RandomUniverse {
  return {
    projects: input.projects,
    missingProject: input.missingProject,
    tokens: input.tokens,
    missingToken: input.missingToken,
    credentials: [
      { credential: 'full' },
      { credential: 'none' },
      { credential: 'invalid' },
      ...Array.from({ length: input.hasRestrictedKey ? input.restrictedKeys : 0 }, (_, keyIndex) => ({ credential: 'restricted' as const, keyIndex })),
    ],
    allowDelete: input.allowDelete,
  };
}

/**
 * One random step of each kind the contract has: a read of a project's environments (given or
 * missing), a read of the OIDC settings, and, with --allow-delete, a delete of a given token or of
 * the missing one under a given account, each with any of the credentials the run holds. No step
 * names a resource the user did not give or the suite did not generate: nothing else is deleted.
 */
export function randomStepArbitraries(input: PlanInput, universe: RandomUniverse): fc.Arbitrary<PlannedRequest>[] {
  const credential = fc.constantFrom(...universe.credentials);
  const environments = input.contract.operation(GET_PROJECT_ENVIRONMENTS);
  const oidc = input.contract.operation(GET_OIDC_SETTINGS);
  const deletion = input.contract.operation(DELETE_SERVICE_ACCOUNT_TOKEN);
  const step = (operationId: string, method: string, path: string, { credential, keyIndex }: RandomUniverse['credentials'][number], label: string): PlannedRequest => ({
    operationId,
    step: 'random-step',
    label: `${label} (${credential === 'full' ? 'full key' : credential === 'restricted' ? `restricted key${keyIndex ? ` ${keyIndex + 1}` : ''}` : credential === 'none' ? 'no key' : 'invalid key'})`,
    credential,
    ...(keyIndex ? { keyIndex } : {}),
    method,
    path,
    expects: [],
  });
  const arbitraries = [
    fc
      .tuple(fc.constantFrom(...universe.projects, universe.missingProject), credential)
      .map(([project, c]) => step(environments.operationId, environments.method, pathOf(environments, [encodeId(project)]), c, `environments of project ${JSON.stringify(project)}`)),
    credential.map((c) => step(oidc.operationId, oidc.method, pathOf(oidc, []), c, 'the OIDC settings')),
  ];
  if (universe.allowDelete && universe.tokens.length > 0) {
    const targets = [...universe.tokens, ...[...new Set(universe.tokens.map((t) => t.account))].map((account) => ({ account, token: universe.missingToken }))];
    arbitraries.push(
      fc
        .tuple(fc.constantFrom(...targets), credential)
        .map(([target, c]) => step(deletion.operationId, deletion.method, pathOf(deletion, [encodeId(target.account), encodeId(target.token)]), c, `delete token ${target.account}/${target.token}`)),
    );
  }
  return arbitraries;
}
