import type { Contract, Operation } from '../../../src/contract/index.ts';
import type { KeyNearMiss } from '../near-miss/key-near-misses.ts';
import type { TokenRef } from '../../types.ts';

/** What the scenarios need from the options, resolved (defaults applied, ids generated). */
export interface PlanInput {
  contract: Contract;
  /** The first of `projects`: the one the probes that need only one project use. */
  project: string;
  /** Every given project (--project, repeatable): each rule about a project is checked on each. */
  projects: readonly string[];
  missingProject: string;
  /** Ids generated from the seed for tokens and accounts that cannot exist. */
  missingAccount: string;
  missingToken: string;
  hasRestrictedKey: boolean;
  /** How many restricted keys were given; a request's keyIndex picks one. */
  restrictedKeys: number;
  /** The pause before the deleted tokens are probed again (--settle-ms). */
  settleMs: number;
  forbidden: ReadonlySet<string>;
  tokens: readonly TokenRef[];
  allowDelete: boolean;
  /** The near-misses of the full key worth sending (the keys themselves stay with the sender). */
  keyNearMisses: readonly KeyNearMiss[];
  /** The run's seed (`--seed`): near-misses of ids are drawn from it. */
  seed: string;
}

/** The path with each parameter replaced, in path order; values are already percent-encoded. */
export function pathOf(operation: Operation, values: readonly string[]): string {
  let path = operation.path;
  operation.pathParams.forEach((name, i) => {
    path = path.replace(`{${name}}`, values[i] ?? '');
  });
  return path;
}

/** An id as the user gave it, encoded for a path segment. */
export const encodeId = encodeURIComponent;

/** The statuses the spec documents as success for an operation (a `2XX` range counts as all of them). */
export function successStatuses(operation: Operation): number[] {
  return [...operation.responses.keys()].flatMap((status) => {
    if (/^2\d\d$/.test(status)) return [Number(status)];
    if (status === '2XX') return Array.from({ length: 100 }, (_, i) => 200 + i);
    return [];
  });
}
