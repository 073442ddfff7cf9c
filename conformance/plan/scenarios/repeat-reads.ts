import { NOT_FOUND } from '../../http-status.ts';
import { GET_OIDC_SETTINGS, GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import type { PlannedRequest } from '../../types.ts';
import { encodeId, pathOf, successStatuses, type PlanInput } from './plan-input.ts';

/** When identical reads are repeated: after the first reads, before the deletions, and at the end. */
export const REPEAT_ROUNDS = ['start', 'middle', 'end'] as const;

/**
 * The reads of the run's start sent again, identical (same path, same key): the environments of
 * every given project, the OIDC settings, a project that does not exist. The model judges them
 * against the first answers: same status, same body apart from the per-instance fields the spec
 * names. Nothing in the contract changes these resources (spec decision token-deletion-transition).
 */
export function repeatReads(input: PlanInput, round: (typeof REPEAT_ROUNDS)[number]): PlannedRequest[] {
  const environments = input.contract.operation(GET_PROJECT_ENVIRONMENTS);
  const oidc = input.contract.operation(GET_OIDC_SETTINGS);
  const base = { step: 'repeat-read' as const, credential: 'full' as const };
  return [
    ...input.projects.map((project) => ({
      ...base,
      operationId: environments.operationId,
      method: environments.method,
      label: `environments of project ${JSON.stringify(project)} again (${round})`,
      path: pathOf(environments, [encodeId(project)]),
      expects: successStatuses(environments),
    })),
    { ...base, operationId: oidc.operationId, method: oidc.method, label: `the OIDC settings again (${round})`, path: pathOf(oidc, []), expects: successStatuses(oidc) },
    {
      ...base,
      operationId: environments.operationId,
      method: environments.method,
      label: `environments of missing project ${JSON.stringify(input.missingProject)} again (${round})`,
      path: pathOf(environments, [encodeId(input.missingProject)]),
      expects: [NOT_FOUND],
    },
  ];
}
