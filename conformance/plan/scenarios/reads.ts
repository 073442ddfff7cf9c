import { NOT_FOUND } from '../../http-status.ts';
import { GET_OIDC_SETTINGS, GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import { encodeId, pathOf, successStatuses, type PlanInput } from './plan-input.ts';
import type { ScenarioPlan } from './scenario-plan.ts';

/**
 * The reads with the full key: every given project's environments (API §4.1; their validity and the
 * enabled-only rule are judged on the response), the OIDC settings (API §4.2), and a project
 * that does not exist. The OIDC 400 has no stated condition, so nothing here provokes it; the
 * coverage table says so.
 */
export function readsScenario(input: PlanInput): ScenarioPlan {
  const environments = input.contract.operation(GET_PROJECT_ENVIRONMENTS);
  const oidc = input.contract.operation(GET_OIDC_SETTINGS);
  return {
    requests: [
      ...input.projects.map((project) => ({
        operationId: environments.operationId,
        step: 'read' as const,
        label: `environments of project ${JSON.stringify(project)}`,
        credential: 'full' as const,
        method: environments.method,
        path: pathOf(environments, [encodeId(project)]),
        expects: successStatuses(environments),
      })),
      { operationId: oidc.operationId, step: 'read', label: 'the OIDC settings', credential: 'full', method: oidc.method, path: pathOf(oidc, []), expects: successStatuses(oidc) },
      {
        operationId: environments.operationId,
        step: 'missing-project',
        label: `environments of missing project ${JSON.stringify(input.missingProject)}`,
        credential: 'full',
        method: environments.method,
        path: pathOf(environments, [encodeId(input.missingProject)]),
        expects: [NOT_FOUND],
      },
    ],
    skipped: [],
  };
}
