import { DELETE_SERVICE_ACCOUNT_TOKEN } from '../../operation-ids.ts';
import type { PlannedRequest } from '../../types.ts';
import { encodeId, pathOf, type PlanInput } from './plan-input.ts';
import type { ScenarioPlan } from './scenario-plan.ts';
import { allocateTokens } from './token-allocation.ts';
import { randomFor } from '../seeded-random.ts';
import { METHOD_CASE_CONNECTIONS, otherCase, PROBED_METHODS } from './unlisted-methods.ts';

/** HEAD and OPTIONS, which the unlisted-method probes of the end leave out, are methods the spec does not list on the token path too (spec decisions head-requests, options-requests). */
const LIVE_METHODS = [...PROBED_METHODS, 'HEAD', 'OPTIONS'] as const;

/**
 * A method the spec does not list for a path has no side effect (RFC 9110 §9.2.1 for the safe
 * ones; spec decisions head-requests, options-requests): every method but the delete is sent,
 * with the full key and no body, at a token that exists and that the run deletes for real later
 * (the first bystander, deleted last, else the first token, deleted by the deletion step). The
 * model knows the token exists; a method that deleted it shows as that later delete's 404
 * (bystanders-untouched, delete-token-succeeds), whatever the method itself was answered. The
 * answers themselves are judged as the unlisted methods of the end are (unlisted-method-rejected;
 * OPTIONS by options-requests' statuses). The delete itself spelled in another case (`delete`,
 * `Delete`: otherCase) goes too: method names are case-sensitive (RFC 9110 §9.1), so it is a method
 * the spec does not list, and a server that folds the case deletes the token.
 */
export function liveTokenMethodsScenario(input: PlanInput): ScenarioPlan {
  if (!input.allowDelete) return { requests: [], skipped: [] };
  const operation = input.contract.operation(DELETE_SERVICE_ACCOUNT_TOKEN);
  const { bystanders, primary } = allocateTokens(input.tokens);
  const token = bystanders[0] ?? primary;
  if (!token) return { requests: [], skipped: [] };
  const listed = new Set(input.contract.operations.filter((o) => o.path === operation.path).map((o) => o.method.toUpperCase()));
  const path = pathOf(operation, [encodeId(token.account), encodeId(token.token)]);
  const spelled = otherCase(operation.method, randomFor(input.seed, 'live-method-case'));
  const requests: PlannedRequest[] = LIVE_METHODS.filter((method) => !listed.has(method)).map((method) => ({
    operationId: operation.operationId,
    step: 'unlisted-method',
    label: `${method} ${operation.path} (not in the spec) on token ${token.account}/${token.token}, which the run deletes later`,
    credential: 'full',
    method,
    path,
    expects: [],
    token,
  }));
  // On a planned connection of its own: the raw send-chain writes the method as spelled (METHOD_CASE_CONNECTIONS).
  requests.push({ operationId: operation.operationId, step: 'unlisted-method', label: `${spelled} ${operation.path} (${operation.method} spelled in another case: not in the spec, RFC 9110 §9.1) on token ${token.account}/${token.token}, which the run deletes later`, credential: 'full', method: spelled, path, expects: [], token, connection: METHOD_CASE_CONNECTIONS - 1 });
  return { requests, skipped: [] };
}
