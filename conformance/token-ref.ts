import type { TokenRef } from './types.ts';

/** `ACCOUNT/TOKEN` -> the pair, split at the first slash; undefined when either side is empty. */
export function parseToken(text: unknown): TokenRef | undefined {
  if (typeof text !== 'string') return undefined;
  const slash = text.indexOf('/');
  if (slash <= 0 || slash === text.length - 1) return undefined;
  return { account: text.slice(0, slash), token: text.slice(slash + 1) };
}
