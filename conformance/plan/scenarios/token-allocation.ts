import type { TokenRef } from '../../types.ts';
import { NEEDS_BYSTANDER } from './scenario-plan.ts';

/** The roles a given token can play in a run (README "Roles"). */
export type TokenRole = 'own-delete' | 'cross-account' | 'concurrent-delete' | 'restricted-target' | 'bystander';

/** Which given token serves which step. Each is deleted at most once by its role, so the steps do not disturb one another. */
export interface TokenAllocation {
  /** Tried with the restricted key, then deleted, then deleted again. */
  primary?: TokenRef;
  /** Deleted through each other account's path (must fail; `viaAccount` is the first), then through its own. */
  cross?: { token: TokenRef; viaAccount: string; viaAccounts: string[] };
  /** Deleted by concurrent requests. */
  spare?: TokenRef;
  /** Every other token not kept as a bystander: deleted and deleted again like the primary, so every --token is used. */
  extra: TokenRef[];
  /**
   * Kept untouched until the very end, then deleted (and must still be there): a neighbour (the
   * last other token of an account the run deletes from), and tokens that share
   * their id with a token of another account that the run deletes, and tokens of an account whose
   * id is a prefix or extension of another given account's. A server that matches tokens by id
   * alone, or accounts by prefix, deletes them along with the others.
   */
  bystanders: TokenRef[];
  /** Per account, a token the restricted key tries to delete (it must get 403 and delete nothing). */
  restrictedTargets: TokenRef[];
}

const name = (t: TokenRef) => `${t.account}/${t.token}`;
const related = (t: TokenRef, u: TokenRef) =>
  t.account !== u.account && (t.token === u.token || t.account.startsWith(u.account) || u.account.startsWith(t.account));

/**
 * Assigns the given tokens, in the order given, to every role it can fill. Bystanders are chosen
 * first: a token related to another one (same token id in another account, or accounts whose
 * ids are prefixes of each other) is kept while the other is deleted. The cross-account step
 * needs another given account that was not given a token with the same id, else the request
 * through it could legitimately succeed.
 */
export function allocateTokens(tokens: readonly TokenRef[]): TokenAllocation {
  const bystanders: TokenRef[] = [];
  tokens.forEach((t, i) => {
    if (tokens.slice(0, i).some((u) => !bystanders.includes(u) && related(t, u))) bystanders.push(t);
  });
  const active = tokens.filter((t) => !bystanders.includes(t));
  const [primary, ...rest] = active;
  const accounts = [...new Set(tokens.map((t) => t.account))];
  let cross: TokenAllocation['cross'];
  for (const token of rest) {
    const via = accounts.filter((a) => a !== token.account && !tokens.some((u) => u.account === a && u.token === token.token));
    if (via.length > 0) {
      cross = { token, viaAccount: via[0]!, viaAccounts: via };
      break;
    }
  }
  const spare = rest.find((t) => t !== cross?.token);
  const extra = rest.filter((t) => t !== cross?.token && t !== spare);
  // A neighbour: the last other token of an account the run deletes from, kept untouched until after --settle-ms like a bystander, so a delete that takes the account's other tokens with it, now or a moment later, shows (issue 18).
  const deletes = [primary, cross?.token, spare, ...extra];
  const neighbour = [...extra].reverse().find((t) => deletes.some((d) => d !== undefined && d !== t && d.account === t.account));
  if (neighbour) {
    extra.splice(extra.indexOf(neighbour), 1);
    bystanders.push(neighbour);
  }
  const restrictedTargets = accounts.flatMap((a) => {
    const target = active.find((t) => t.account === a) ?? tokens.find((t) => t.account === a);
    return target ? [target] : [];
  });
  return { ...(primary ? { primary } : {}), ...(cross ? { cross } : {}), ...(spare ? { spare } : {}), extra, bystanders, restrictedTargets };
}

/** Every token deleted by its role before the end (the final probes delete them again). */
export function deletedByRoles(allocation: TokenAllocation): TokenRef[] {
  return [allocation.primary, allocation.cross?.token, allocation.spare, ...allocation.extra].filter((t): t is TokenRef => t !== undefined);
}

/** Which roles each given token played, and for each role nobody played, what would fill it. */
export function describeRoles(tokens: readonly TokenRef[], allocation: TokenAllocation, options: { allowDelete: boolean; restrictedKeys: number; restrictedMayDelete: boolean }): { tokens: { token: string; roles: TokenRole[] }[]; empty: { role: TokenRole; fill: string }[] } {
  const roles = new Map<string, TokenRole[]>(tokens.map((t) => [name(t), []]));
  const add = (t: TokenRef | undefined, role: TokenRole) => t && roles.get(name(t))?.push(role);
  if (options.allowDelete) {
    add(allocation.primary, 'own-delete');
    for (const t of allocation.extra) add(t, 'own-delete');
    add(allocation.cross?.token, 'cross-account');
    add(allocation.spare, 'concurrent-delete');
    for (const t of allocation.bystanders) add(t, 'bystander');
    if (options.restrictedKeys > 0 && !options.restrictedMayDelete) for (const t of allocation.restrictedTargets) add(t, 'restricted-target');
  }
  const empty: { role: TokenRole; fill: string }[] = [];
  const gate = !options.allowDelete ? '--allow-delete (nothing is deleted without it)' : undefined;
  const need = (role: TokenRole, filled: boolean, fill: string) => !filled && empty.push({ role, fill: gate ?? fill });
  need('own-delete', allocation.primary !== undefined, 'a disposable --token ACCOUNT/TOKEN');
  need('cross-account', allocation.cross !== undefined, 'a --token of a second service account (one that was not given a token with the same id)');
  need('concurrent-delete', allocation.spare !== undefined, 'a third disposable --token');
  need('bystander', allocation.bystanders.length > 0, NEEDS_BYSTANDER.replace(/^needs /, ''));
  if (options.restrictedMayDelete) empty.push({ role: 'restricted-target', fill: 'the delete in --forbidden (the restricted key is tried on real tokens only when it may not delete them)' });
  else need('restricted-target', options.restrictedKeys > 0 && allocation.restrictedTargets.length > 0, options.restrictedKeys === 0 ? '--restricted-key (or FLAG_ADMIN_RESTRICTED_KEY)' : 'a disposable --token');
  return { tokens: [...roles].map(([token, r]) => ({ token, roles: r })), empty };
}
