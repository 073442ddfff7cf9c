import { decodePathParams, presentedKey, type Contract, type Operation } from '../../contract/neutral.ts';
import { MOCK_ERROR_KINDS, errorKindsByStatus, errorResponse, randomIds, type NewId } from './errors.ts';
import { recordedAnswer } from './recorded-answers.ts';
import { operationHandlers, type DispatchedHandler, type OperationHandlers } from './operations/index.ts';
import { renderJson } from './render-json.ts';
import { requestPath } from './request-path.ts';
import type { Store } from './store.ts';
import type { Handle, MockRequest, MockResponse } from './types.ts';

export interface CreateHandleOptions {
  contract: Contract;
  store: Store;
  /**
   * Makes the `id` of each error body. Inject a counter to pin ids in tests.
   * @default crypto.randomUUID
   */
  newId?: NewId;
  /** Handlers by operationId. @default the mock's own (src/mock/operations) */
  handlers?: OperationHandlers | Readonly<Record<string, DispatchedHandler>>;
}

/** Rendered read answers kept per state; only successes are, so the resources of the state bound them anyway. */
const MAX_RENDERED = 10_000;

/**
 * The mock's core: route, authenticate, authorize, decode ids, run the operation. Knows no
 * socket; every expected outcome is a returned response, never a throw.
 */
export function createHandle({ contract, store, newId = randomIds, handlers = operationHandlers }: CreateHandleOptions): Handle {
  // The typed handlers take the parameters PathParams names; decodePathParams yields exactly the
  // names of the spec's path template, which PathParams is generated from. So this view is sound
  // once every operation is known to have a handler, which the loop below makes sure of.
  const dispatch = handlers as Readonly<Record<string, DispatchedHandler | undefined>>;
  for (const operation of contract.operations) {
    if (!dispatch[operation.operationId]) throw new Error(`No mock handler for operation ${operation.operationId}`);
  }
  const kinds = errorKindsByStatus(contract);
  const fail = (status: number, message: string, headers?: Record<string, string>): MockResponse =>
    errorResponse(status, kinds.get(status) ?? MOCK_ERROR_KINDS[status as keyof typeof MOCK_ERROR_KINDS] ?? 'Error', message, newId, headers);

  // A read is a function of the state and its ids alone, so its answer is rendered once per
  // state change and then served as is (DESIGN.md, "The mock as layers": bytes already
  // serialized). Only successes are kept: error bodies carry a fresh id each time.
  const rendered = new Map<string, MockResponse>();
  let renderedAt = store.version();

  return (request) => {
    const pathname = requestPath(request.url);
    const route = contract.matchRoute(request.method, pathname);
    if (route.kind === 'not-found') return fail(404, `No route matches ${request.method} ${truncate(pathname)}.`);
    if (route.kind === 'method-not-allowed') {
      return fail(405, `${request.method} is not allowed on this path; allowed: ${route.allow.join(', ')}.`, { allow: route.allow.join(', ') });
    }
    const { operation } = route;
    if (store.holdsAnswers) {
      const decoded = decodePathParams(route.rawParams);
      const answer = recordedAnswer(operation, request, store, route.rawParams, decoded.ok ? decoded.params : undefined, newId);
      if (answer) return answer;
    }
    const denied = authorizationFailure(operation, request, store);
    if (denied) return fail(denied.status, denied.message);
    // Keyed by the path as sent: only paths without percent-encoding, so the raw path is the ids
    // themselves and a hostile client cannot fill the map with spellings of one id.
    const key = operation.method === 'GET' && !pathname.includes('%') ? pathname : undefined;
    if (key !== undefined) {
      if (store.version() !== renderedAt) {
        rendered.clear();
        renderedAt = store.version();
      }
      const ready = rendered.get(key);
      if (ready) return ready;
    }
    const decoded = decodePathParams(route.rawParams);
    // An id that is not valid percent-encoding names no resource; 404 is the status the spec documents for that.
    if (!decoded.ok) return fail(404, `The ${decoded.param} in the path is not valid percent-encoding, so no such resource exists.`);
    const result = dispatch[operation.operationId]!(store, decoded.params);
    if ('error' in result) return fail(result.status, result.error);
    if (result.body === undefined) return { status: result.status, headers: {}, body: undefined };
    // renderJson: a frozen body the store hands out is serialized once, across state versions and sessions too.
    const response: MockResponse = { status: result.status, headers: { 'content-type': 'application/json' }, body: renderJson(result.body) };
    if (key !== undefined && rendered.size < MAX_RENDERED) rendered.set(key, response);
    return response;
  };
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/**
 * Why a request may not call an operation (API §5): 401 without a known key, 403 when the key
 * lacks the operation's permission; undefined when it may. Decided before any lookup, and by
 * the forced-answer layer too, so a forced answer never lets a request past auth.
 */
export function authorizationFailure(operation: Operation, request: MockRequest, store: Store): { status: 401 | 403; message: string } | undefined {
  if (operation.authHeaders.length === 0) return undefined;
  // On the path of every request: a plain loop over names lower-cased once, no arrays made.
  let presented: string | string[] | undefined;
  for (const name of lowerCaseNames(operation.authHeaders)) if ((presented = request.headers[name]) !== undefined) break;
  const value = Array.isArray(presented) ? presented[0] : presented;
  if (!value) return { status: 401, message: `You must provide an API key in the ${operation.authHeaders.join(' or ')} header.` };
  const key = store.apiKey(presentedKey(value));
  if (!key) return { status: 401, message: 'The API key is not valid.' };
  if (!key.permissions.includes('*') && !key.permissions.includes(operation.operationId)) {
    return { status: 403, message: `This API key lacks the permission for ${operation.operationId}.` };
  }
  return undefined;
}

/** Header names as adapters give them (lower case), per list of the spec's names, made once. */
const lowerCased = new WeakMap<readonly string[], readonly string[]>();
function lowerCaseNames(names: readonly string[]): readonly string[] {
  let lower = lowerCased.get(names);
  if (!lower) lowerCased.set(names, (lower = names.map((h) => h.toLowerCase())));
  return lower;
}
