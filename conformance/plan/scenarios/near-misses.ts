import { BAD_REQUEST, METHOD_NOT_ALLOWED, NOT_FOUND, UNAUTHORIZED } from '../../http-status.ts';
import { idNearMisses, type IdNearMiss } from '../near-miss/id-near-misses.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import { pick, randomFor } from '../seeded-random.ts';
import type { PlannedRequest, SkippedStep } from '../../types.ts';
import { encodeId, pathOf, successStatuses, type PlanInput } from './plan-input.ts';
import { harmlessPath } from './probe-path.ts';
import { NEEDS_ALLOW_DELETE, NEEDS_TOKEN, type ScenarioPlan } from './scenario-plan.ts';
import { allocateTokens } from './token-allocation.ts';

/** Near-misses sent per given id at most: a project may get every kind, a token only those that can name nothing real. */
export const PROJECT_NEAR_MISS_BUDGET = 48;
export const TOKEN_NEAR_MISS_BUDGET = 32;
/**
 * Every family of the id grammar gets a variant on each project, and every rule on one of them at least, however many projects share the
 * budget: 22 since the separator family (red team round thirteen) brought the rules of `default` from 33 to 35 and of `mobile-app` to 40, and 20 each no longer kept every family on the second project;
 * 26 since the encoded-delimiter family (red team round seventeen: six delimiters after the id, another one after it, one inside it) brought
 * them to 43 and 48, and 25 no longer kept every family on the second project. The budgets grew by those eight rules: 48 for the projects
 * (one project meets every rule of `default`), 32 for a token and for its account (a one-character id has 32 rules where it may be deleted).
 */
export const PROJECT_RULES_AT_LEAST = 26;

/**
 * Probes derived from the user's own inputs by the near-miss grammars (near-miss/): near-misses
 * of the full key, each on one operation (401); of the project (404, or for a spelling RFC 3986
 * makes the same id, the project's own answer); of a real disposable token and of its account,
 * under the real other id (404, and the token must survive: the delete step that follows proves
 * it). Sent before any deletion, so the token they miss still exists. Drawn from the run's seed.
 */
export function nearMissScenario(input: PlanInput): ScenarioPlan {
  const requests: PlannedRequest[] = [];
  const skipped: SkippedStep[] = [];
  const guarded = input.contract.operations.filter((o) => o.authHeaders.length > 0);
  // Each near-miss of the key on one operation, the operations in turn from a seeded start: every
  // operation gets a share of every family without multiplying the requests.
  const start = pick(randomFor(input.seed, 'key-near-miss-operations'), Math.max(1, guarded.length));
  input.keyNearMisses.forEach((nearMiss, i) => {
    const operation = guarded[(start + i) % guarded.length];
    if (!operation) return;
    const label = `${operation.operationId} with ${nearMiss.describe}`;
    requests.push({ operationId: operation.operationId, step: 'near-miss-key', label, credential: 'full', keyVariant: nearMiss, method: operation.method, path: harmlessPath(operation, input), expects: [UNAUTHORIZED] });
  });

  const environments = input.contract.operation(GET_PROJECT_ENVIRONMENTS);
  const named = new Set<string>([...input.projects, input.missingProject]);
  const sent = new Set<string>();
  // The budget is shared by the given projects, each keeping at least one variant of every family and of the rules no project before it met.
  const budget = Math.max(PROJECT_RULES_AT_LEAST, Math.ceil(PROJECT_NEAR_MISS_BUDGET / input.projects.length));
  const covered = new Set<string>();
  for (const project of input.projects) {
    for (const variant of idNearMisses(project, { deletable: false, given: named, random: randomFor(input.seed, `project/${project}`), budget, covered })) {
      // A variant another given project already produced adds nothing.
      if (sent.has(variant.segment)) continue;
      sent.add(variant.segment);
      const label = `environments of project ${JSON.stringify(variant.segment)} (${JSON.stringify(project)} ${variant.describe})`;
      const expects = variant.names === 'same' ? [...successStatuses(environments), NOT_FOUND] : allowedFor(variant);
      requests.push({ operationId: environments.operationId, step: 'near-miss-project', label, credential: 'full', method: environments.method, path: pathOf(environments, [variant.segment]), expects });
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
    for (const variant of idNearMisses(primary.token, { deletable: true, given, random: randomFor(input.seed, `token/${primary.account}/${primary.token}`), budget: TOKEN_NEAR_MISS_BUDGET })) {
      const label = `delete token ${primary.account}/${JSON.stringify(variant.segment)} (token ${primary.token} ${variant.describe})`;
      requests.push({ operationId: deletion.operationId, step: 'near-miss-token', label, credential: 'full', method: deletion.method, path: pathOf(deletion, [encodeId(primary.account), variant.segment]), expects: allowedFor(variant), token: primary });
    }
    // Both ids in another case at once (SA-1/TOK-1 for sa-1/tok-1): a server that folds the case of the path deletes the given token. One id in
    // another case could be a real token of its own, which is why the grammar sends no case variant where it may delete; both at once name one only
    // if the service holds an account and a token spelled like the given ones in another case, which is what ids compared exactly would allow but nobody does.
    const cased = caseVariant(primary.account, primary.token, input.tokens);
    if (cased) {
      const label = `delete token ${cased.join('/')} (token ${primary.account}/${primary.token} with both ids in another case)`;
      requests.push({ operationId: deletion.operationId, step: 'near-miss-token', label, credential: 'full', method: deletion.method, path: pathOf(deletion, cased.map(encodeId)), expects: [NOT_FOUND], token: primary });
    }
  }
  // The account's near-misses on the spare token (deleted concurrently later), so the steps of the other tokens stay undisturbed.
  const spareWhy = !input.allowDelete ? NEEDS_ALLOW_DELETE : !spare ? 'needs a third disposable --token (one not used by the other deletion steps)' : undefined;
  if (spareWhy || !spare) {
    skipped.push({ operationId: deletion.operationId, step: 'near-miss-account', label: "delete a given token through near-misses of its account's id", expects: [NOT_FOUND], reason: spareWhy ?? NEEDS_TOKEN });
  } else {
    const accounts = new Set(input.tokens.map((t) => t.account));
    for (const variant of idNearMisses(spare.account, { deletable: true, given: accounts, random: randomFor(input.seed, `account/${spare.account}`), budget: TOKEN_NEAR_MISS_BUDGET })) {
      const label = `delete token ${JSON.stringify(variant.segment)}/${spare.token} (account ${spare.account} ${variant.describe})`;
      requests.push({ operationId: deletion.operationId, step: 'near-miss-account', label, credential: 'full', method: deletion.method, path: pathOf(deletion, [variant.segment, encodeId(spare.token)]), expects: allowedFor(variant), token: spare });
    }
  }
  return { requests, skipped };
}

/**
 * Another id names nothing: 404; one holding a control character may also be refused as malformed first (400), and one holding
 * an encoded slash also by a router that takes it for a path separator (405; decisions malformed-input-refusals, router-refusals).
 */
function allowedFor(variant: IdNearMiss): number[] {
  if (!variant.malformed) return [NOT_FOUND];
  return variant.decoded.includes('/') ? [NOT_FOUND, BAD_REQUEST, METHOD_NOT_ALLOWED] : [NOT_FOUND, BAD_REQUEST];
}

/** The account and token ids both in upper case (or, where that changes nothing, lower case), unless that changes neither or names a given token. */
function caseVariant(account: string, token: string, given: readonly { account: string; token: string }[]): [string, string] | undefined {
  for (const fold of [(s: string) => s.toUpperCase(), (s: string) => s.toLowerCase()]) {
    const ids: [string, string] = [fold(account), fold(token)];
    if (ids[0] === account || ids[1] === token) continue;
    if (given.some((t) => t.account === ids[0] && t.token === ids[1])) continue;
    return ids;
  }
  return undefined;
}
