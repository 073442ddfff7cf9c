import { deleteServiceAccountToken } from './deleteServiceAccountToken.ts';
import { getOidcSettings } from './getOidcSettings.ts';
import { getProjectEnvironments } from './getProjectEnvironments.ts';
import type { OperationHandler } from './operation-handler.ts';

/** One handler per operationId of the spec; a test fails when the two sets differ. */
export const operationHandlers: Readonly<Record<string, OperationHandler>> = {
  getProjectEnvironments,
  getOidcSettings,
  deleteServiceAccountToken,
};

export type { OperationHandler, OperationResult } from './operation-handler.ts';
