import { NOT_FOUND, UNAUTHORIZED } from '../http-status.ts';
import { KEY_VARIANTS, idVariants } from '../near-miss.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_PROJECT_ENVIRONMENTS } from '../operation-ids.ts';
import type { PlannedRequest, SkippedStep } from '../types.ts';
import { encodeId, pathOf, type PlanInput } from './plan-input.ts';
import { harmlessPath } from './probe-path.ts';
import { NEEDS_ALLOW_DELETE, NEEDS_TOKEN, type ScenarioPlan } from './scenario-plan.ts';
import { allocateTokens } from './token-allocation.ts';

/**
 * Probes derived from the user's own inputs (issue 7): near-misses of the full key on every
 * operation (401), of the project (404), and of a real disposable token under its real account
 * (404, and the token must survive: the delete step that follows proves it). Sent before any
 * deletion, so the token they miss still exists.
 */
export function nearMissScenario(input: PlanInput): ScenarioPlan {
  const requests: PlannedRequest[] = [];
  const skipped: SkippedStep[] = [];
  for (const variant of input.keyVariants) {
    for (const operation of input.contract.operations) {
      if (operation.authHeaders.length === 0) continue;
      const label = `${operation.operationId} with ${KEY_VARIANTS[variant].describe}`;
      requests.push({ operationId: operation.operationId, step: 'near-miss-key', label, credential: 'full', keyVariant: variant, method: operation.method, path: harmlessPath(operation, input), expects: [UNAUTHORIZED] });
    }
  }

  const environments = input.contract.operation(GET_PROJECT_ENVIRONMENTS);
  const named = new Set<string>([...input.projects, input.missingProject]);
  for (const project of input.projects) {
    for (const variant of idVariants(project, { lookalikes: true })) {
      // A variant that is another given project exists; one already probed adds nothing.
      if (named.has(variant.value)) continue;
      named.add(variant.value);
      const label = `environments of project ${JSON.stringify(variant.value)} (${JSON.stringify(project)} ${variant.name})`;
      requests.push({ operationId: environments.operationId, step: 'near-miss-project', label, credential: 'full', method: environments.method, path: pathOf(environments, [encodeId(variant.value)]), expects: [NOT_FOUND] });
    }
  }

  const deletion = input.contract.operation(DELETE_SERVICE_ACCOUNT_TOKEN);
  const { primary, spare } = allocateTokens(input.tokens);
  const why = !input.allowDelete ? NEEDS_ALLOW_DELETE : !primary ? NEEDS_TOKEN : undefined;
  if (why || !primary) {
    skipped.push({ operationId: deletion.operationId, step: 'near-miss-token', label: 'delete near-misses of a given token', expects: [NOT_FOUND], reason: why ?? NEEDS_TOKEN });
  } else {
    // Variants must not name another token the user gave (those are real), nor each other.
    const given = new Set(input.tokens.filter((t) => t.account === primary.account).map((t) => t.token));
    for (const variant of idVariants(primary.token, { lookalikes: false })) {
      if (given.has(variant.value)) continue;
      const label = `delete token ${primary.account}/${JSON.stringify(variant.value)} (token ${primary.token} ${variant.name})`;
      requests.push({ operationId: deletion.operationId, step: 'near-miss-token', label, credential: 'full', method: deletion.method, path: pathOf(deletion, [encodeId(primary.account), encodeId(variant.value)]), expects: [NOT_FOUND], token: primary });
    }
  }
  // The account's near-misses on the spare token (deleted concurrently later), so the steps of the other tokens stay undisturbed.
  const spareWhy = !input.allowDelete ? NEEDS_ALLOW_DELETE : !spare ? 'needs a third disposable --token (one not used by the other deletion steps)' : undefined;
  if (spareWhy || !spare) {
    skipped.push({ operationId: deletion.operationId, step: 'near-miss-account', label: "delete a given token through near-misses of its account's id", expects: [NOT_FOUND], reason: spareWhy ?? NEEDS_TOKEN });
  } else {
    const accounts = new Set(input.tokens.map((t) => t.account));
    for (const variant of idVariants(spare.account, { lookalikes: false })) {
      if (accounts.has(variant.value)) continue;
      const label = `delete token ${JSON.stringify(variant.value)}/${spare.token} (account ${spare.account} ${variant.name})`;
      requests.push({ operationId: deletion.operationId, step: 'near-miss-account', label, credential: 'full', method: deletion.method, path: pathOf(deletion, [encodeId(variant.value), encodeId(spare.token)]), expects: [NOT_FOUND], token: spare });
    }
  }
  return { requests, skipped };
}
