import { quoteId, type OperationHandler } from './operation-handler.ts';

/** Version of the environments schema the mock serves (API §2.1, §9). */
const ENVIRONMENTS_SCHEMA_VERSION = 1;

export const getProjectEnvironments: OperationHandler<'getProjectEnvironments'> = (store, { projectId }) => {
  const environments = store.projectEnvironments(projectId);
  if (!environments) return { status: 404, error: `Project ${quoteId(projectId)} does not exist.` };
  return { status: 200, body: { version: ENVIRONMENTS_SCHEMA_VERSION, environments } };
};
