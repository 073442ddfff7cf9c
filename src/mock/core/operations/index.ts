import { deleteServiceAccountToken } from './deleteServiceAccountToken.ts';
import { getOidcSettings } from './getOidcSettings.ts';
import { getProjectEnvironments } from './getProjectEnvironments.ts';
import type { OperationHandlers } from './operation-handler.ts';

/** One handler per operationId of the spec; a test fails when the two sets differ. */
export const operationHandlers: OperationHandlers = {
  getProjectEnvironments,
  getOidcSettings,
  deleteServiceAccountToken,
};

export type { DispatchedHandler, OperationHandler, OperationHandlers, OperationResult } from './operation-handler.ts';
