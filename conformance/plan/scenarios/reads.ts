import { responseFor } from '../../../src/contract/index.ts';
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
    skipped: acrossProjects(input),
  };
}

/**
 * A property the spec marks `x-constant` (e.g. the environments' `version`, decision
 * environments-version-constant) is one value in every answer of the operation, whichever
 * project: compared across projects only when the run names two or more. With one, the report
 * says that comparison was not made, rather than passing it silently.
 */
function acrossProjects(input: PlanInput): ScenarioPlan['skipped'] {
  if (input.projects.length > 1) return [];
  const environments = input.contract.operation(GET_PROJECT_ENVIRONMENTS);
  const success = successStatuses(environments)[0];
  const properties = (success === undefined ? undefined : responseFor(environments, success)?.schema?.properties) as Record<string, { 'x-constant'?: unknown }> | undefined;
  const constants = Object.entries(properties ?? {}).filter(([, schema]) => schema?.['x-constant'] === true).map(([name]) => name);
  if (constants.length === 0) return [];
  return [
    {
      operationId: environments.operationId,
      step: 'repeat-read',
      label: `${constants.map((name) => `/${name}`).join(', ')} compared across projects (x-constant)`,
      expects: successStatuses(environments),
      reason: `needs a second --project: ${constants.join(', ')} must be one value for every project, and with one project no two projects' answers were compared`,
    },
  ];
}
