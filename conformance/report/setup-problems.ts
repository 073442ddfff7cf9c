import { FORBIDDEN, UNAUTHORIZED } from '../http-status.ts';
import type { Exchange, PlannedRequest, StepKind } from '../types.ts';

/** The first steps of every plan: reads with the full key. Their answers tell whether the key works at all. */
const READ_STEPS: ReadonlySet<StepKind> = new Set(['read', 'missing-project']);

/**
 * After the reads: whether every request that carried the full-access key was refused (401 or
 * 403). That is a set-up problem (exit 2), not a list of defects: nothing else can be judged
 * with a key that does not work. The evidence cannot tell a wrong key from a server that refuses
 * every key, so the message names both readings.
 */
export function fullKeyRefusal(exchanges: readonly Exchange[], next: PlannedRequest | undefined): string | undefined {
  const last = exchanges[exchanges.length - 1];
  if (!last || !READ_STEPS.has(last.step) || (next && READ_STEPS.has(next.step))) return undefined;
  const withKey = exchanges.filter((e) => e.credential === 'full');
  const statuses = withKey.map((e) => e.response?.status);
  if (withKey.length === 0 || !statuses.every((s) => s === UNAUTHORIZED || s === FORBIDDEN)) return undefined;
  const what = statuses.every((s) => s === FORBIDDEN)
    ? `403 (a valid key without the permissions): give a key that may do everything`
    : statuses.every((s) => s === UNAUTHORIZED)
      ? `401 (not a key this target knows): check --api-key / FLAG_ADMIN_API_KEY is a key of this target`
      : `${[...new Set(statuses)].join(' and ')}: check --api-key / FLAG_ADMIN_API_KEY is a key of this target that may do everything`;
  return `the full-access key was refused on all ${withKey.length} requests that carried it, with ${what}. Either the key is wrong for this target, or the server refuses every key; nothing else was judged.`;
}

/** Why nothing could be judged: refused connections, or a target that accepts them and never answers. */
export function silentTargetMessage(baseUrl: string, first: Exchange, timeoutMs: number): string {
  if (first.notHttp) return `${baseUrl}: ${first.transportError}, and so did GET / (is it the right address and port? an https:// server?)`;
  if (first.timedOut) return `${baseUrl} sent no HTTP response within ${timeoutMs} ms, not even to GET / (is it the right address? is the server stuck or still starting?)`;
  return `cannot reach ${baseUrl}: ${first.transportCode ?? 'no response'} (is the server running?)`;
}
