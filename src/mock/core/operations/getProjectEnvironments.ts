import type { ProjectEnvironment } from '../../../contract/types.gen.ts';
import { quoteId, type OperationHandler } from './operation-handler.ts';

/** Version of the environments schema the mock serves (API §2.1, §9). */
const ENVIRONMENTS_SCHEMA_VERSION = 1;

/** One frozen body per environments list the store hands out, so it is rendered once (render-json.ts). */
const bodies = new WeakMap<readonly ProjectEnvironment[], { version: number; environments: ProjectEnvironment[] }>();

export const getProjectEnvironments: OperationHandler<'getProjectEnvironments'> = (store, { projectId }) => {
  const environments = store.projectEnvironments(projectId);
  if (!environments) return { status: 404, error: `Project ${quoteId(projectId)} does not exist.` };
  let body = bodies.get(environments);
  if (!body) bodies.set(environments, (body = Object.freeze({ version: ENVIRONMENTS_SCHEMA_VERSION, environments: environments as ProjectEnvironment[] })));
  return { status: 200, body };
};
