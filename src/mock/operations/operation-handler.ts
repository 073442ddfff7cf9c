import type { Store } from '../store.ts';

/**
 * What an operation handler returns: expected outcomes are values. An error names only its
 * status and message; handle() takes the error kind for that status from the spec.
 */
export type OperationResult = { status: number; body?: unknown } | { status: number; error: string };

export type OperationHandler = (store: Store, params: Readonly<Record<string, string>>) => OperationResult;

/** Quotes a client-supplied id for a message, cut short so a hostile id cannot bloat the body. */
export function quoteId(id: string): string {
  return JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id);
}
