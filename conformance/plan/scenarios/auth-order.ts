import { FORBIDDEN, UNAUTHORIZED } from '../../http-status.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import type { Credential, PlannedRequest, SkippedStep } from '../../types.ts';
import { encodeId, pathOf, type PlanInput } from './plan-input.ts';
import { missingValues } from './probe-path.ts';
import { NEEDS_ALLOW_DELETE, NEEDS_RESTRICTED_KEY, NEEDS_TOKEN, type ScenarioPlan } from './scenario-plan.ts';
import { allocateTokens } from './token-allocation.ts';
import { credentialName } from '../../credential-name.ts';

/**
 * The spec's ordering decision (401 before 403 before 404) probed where the auth scenario does
 * not: the auth probes read an existing project and delete ids that cannot exist, so here the
 * environments of a project that does not exist and a real disposable token without a valid
 * key; the restricted key on a --forbidden operation's missing resource. A server that looks the
 * resource up first answers these 404 (or deletes the token).
 */
export function authOrderScenario(input: PlanInput): ScenarioPlan {
  const requests: PlannedRequest[] = [];
  const skipped: SkippedStep[] = [];
  const { primary } = allocateTokens(input.tokens);
  for (const operation of input.contract.operations) {
    if (operation.authHeaders.length === 0 || operation.pathParams.length === 0) continue;
    const missing = missingValues(operation, input);
    const other = operation.operationId === GET_PROJECT_ENVIRONMENTS ? { values: missing, what: `missing project ${JSON.stringify(input.missingProject)}` } : undefined;
    const probe = (credential: Credential, expects: number, values: string[], what: string): PlannedRequest => ({
      operationId: operation.operationId,
      step: 'auth-order',
      label: `${operation.operationId} ${credentialName(credential)} on ${what}`,
      credential,
      method: operation.method,
      path: pathOf(operation, values),
      expects: [expects],
    });
    if (operation.operationId === DELETE_SERVICE_ACCOUNT_TOKEN) {
      const why = !input.allowDelete ? NEEDS_ALLOW_DELETE : !primary ? NEEDS_TOKEN : undefined;
      for (const credential of ['none', 'invalid'] as const) {
        const label = `${operation.operationId} ${credential === 'none' ? 'without a key' : 'with an invalid key'} on a real token`;
        if (why || !primary) skipped.push({ operationId: operation.operationId, step: 'auth-order', label, expects: [UNAUTHORIZED], reason: why ?? NEEDS_TOKEN });
        else requests.push({ ...probe(credential, UNAUTHORIZED, [encodeId(primary.account), encodeId(primary.token)], `token ${primary.account}/${primary.token}`), token: primary });
      }
    } else if (other) {
      requests.push(probe('none', UNAUTHORIZED, other.values, other.what), probe('invalid', UNAUTHORIZED, other.values, other.what));
    }
    if (!input.forbidden.has(operation.operationId)) continue;
    const what = other?.what ?? 'ids that cannot exist';
    if (!input.hasRestrictedKey) skipped.push({ operationId: operation.operationId, step: 'auth-order', label: `${operation.operationId} with the restricted key on ${what}`, expects: [FORBIDDEN], reason: NEEDS_RESTRICTED_KEY });
    else requests.push(probe('restricted', FORBIDDEN, missing, what));
  }
  return { requests, skipped };
}
