import type { OperationId, PathParams, ResponseBodies } from '../../../contract/types.gen.ts';
import type { Store } from '../store.ts';

/** The documented success statuses of an operation (2xx), from the generated types. */
type SuccessStatus<Op extends OperationId> = Extract<keyof ResponseBodies[Op], 200 | 201 | 202 | 203 | 204>;

/**
 * What an operation handler returns: expected outcomes are values. A success carries the body
 * type the spec gives its status (checked at compile time through the generated types); an
 * error names only its status and message, and handle() takes the error kind from the spec.
 */
export type OperationResult<Op extends OperationId = OperationId> =
  | { [S in SuccessStatus<Op>]: ResponseBodies[Op][S] extends undefined ? { status: S } : { status: S; body: ResponseBodies[Op][S] } }[SuccessStatus<Op>]
  | { status: number; error: string };

export type OperationHandler<Op extends OperationId = OperationId> = (store: Store, params: PathParams[Op]) => OperationResult<Op>;

/** One handler per operationId: a handler missing or extra is a compile error, and a test checks it at run time too. */
export type OperationHandlers = { readonly [Op in OperationId]: OperationHandler<Op> };

/**
 * How handle() dispatches: by an operationId read from the spec at run time, with the path
 * parameters as decoded from the request. Also the type of test doubles that return what the
 * spec forbids, to prove the self-check catches it.
 */
export type DispatchedHandler = (store: Store, params: Readonly<Record<string, string>>) => { status: number; body?: unknown } | { status: number; error: string };

/** Quotes a client-supplied id for a message, cut short so a hostile id cannot bloat the body. */
export function quoteId(id: string): string {
  return JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id);
}
