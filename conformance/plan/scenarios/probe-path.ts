import type { Operation } from '../../../src/contract/index.ts';
import { GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import { encodeId, pathOf, type PlanInput } from './plan-input.ts';

/**
 * Ids that cannot exist, one per path parameter: the missing project for the environments
 * read; the account and the token, in path order, for the delete (API §4.3); a generated id
 * for anything else.
 */
export function missingValues(operation: Operation, input: PlanInput): string[] {
  if (operation.operationId === GET_PROJECT_ENVIRONMENTS) return operation.pathParams.map(() => encodeId(input.missingProject));
  return operation.pathParams.map((_, i) => encodeId(i === 0 && operation.pathParams.length > 1 ? input.missingAccount : input.missingToken));
}

/**
 * The ids of a probe that must not touch anything real: the existing project for the
 * environments read (a 401 there proves auth guards real data), ids that cannot exist
 * everywhere else, so that even a server ignoring auth deletes nothing.
 */
export function harmlessValues(operation: Operation, input: PlanInput): string[] {
  if (operation.operationId === GET_PROJECT_ENVIRONMENTS) return operation.pathParams.map(() => encodeId(input.project));
  return missingValues(operation, input);
}

export function harmlessPath(operation: Operation, input: PlanInput): string {
  return pathOf(operation, harmlessValues(operation, input));
}
