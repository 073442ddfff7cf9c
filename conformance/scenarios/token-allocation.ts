import type { TokenRef } from '../types.ts';

/** Which given token serves which step. Each is deleted at most once, so the steps do not disturb one another. */
export interface TokenAllocation {
  /** Tried with the restricted key, then deleted, then deleted again. */
  primary?: TokenRef;
  /** Deleted through `viaAccount`'s path (must fail), then through its own. */
  cross?: { token: TokenRef; viaAccount: string };
  /** Deleted by concurrent requests. */
  spare?: TokenRef;
}

/**
 * Assigns the given tokens in the order given. The cross-account step needs a second account
 * (taken from another given token) that does not itself own a token with the same id, else
 * the request through it could legitimately succeed.
 */
export function allocateTokens(tokens: readonly TokenRef[]): TokenAllocation {
  const [primary, ...rest] = tokens;
  if (!primary) return {};
  let cross: TokenAllocation['cross'];
  for (const token of rest) {
    const other = tokens.find((t) => t.account !== token.account && !tokens.some((u) => u.account === t.account && u.token === token.token));
    if (other) {
      cross = { token, viaAccount: other.account };
      break;
    }
  }
  const spare = rest.find((t) => t !== cross?.token);
  return { primary, cross, spare };
}
