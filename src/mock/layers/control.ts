import type { Contract } from '../../contract/neutral.ts';
import { errorResponse, type NewId } from '../core/errors.ts';
import type { FixtureLabels } from '../core/fixture-check.ts';
import { originForm, requestPath } from '../core/request-path.ts';
import type { MockHandle } from '../core/types.ts';
import { controlAccessDenied, type AccessPolicy } from './control-access.ts';
import { CONTROL_API_PREFIX } from './control-api-document.ts';
import { controlContract } from './control-contract.ts';
import { createControlHandlers, type ControlHandler } from './control-handlers.ts';
import { DASHBOARD_OPERATIONS } from './dashboard.ts';
import type { Journal } from './journal.ts';
import { sessionNameOf, type Sessions } from './sessions.ts';

export interface ControlOptions extends AccessPolicy {
  /** The API's contract: rules and states are checked against it. */
  contract: Contract;
  sessions: Sessions;
  journal: Journal;
  maxSessions: number;
  /** Rules one session holds at most. */
  maxRules: number;
  newId: NewId;
  fixtureLabels?: FixtureLabels;
  /**
   * Set by flag-admin proxy, which keeps no state of its own: it answers the report, and the
   * operations on state, sessions and rules answer 404 saying they are the mock's.
   */
  proxy?: { report: ControlHandler };
}

/**
 * The control API under /__mock/ (described by control-api-document.ts, answered by
 * control-handlers.ts): state, journal and rules of a session. Loopback callers only, or any
 * caller with the control token (control-access.ts); an API key is never asked for. Requests
 * outside /__mock/ pass on after one string comparison.
 */
export function controlLayer(options: ControlOptions): (next: MockHandle) => MockHandle {
  const handlers = createControlHandlers(options);
  for (const operation of controlContract.operations) {
    if (!handlers[operation.operationId]) throw new Error(`No control handler for ${operation.operationId}`);
  }
  const fail = (status: number, name: string, message: string, headers?: Record<string, string>) => errorResponse(status, name, message, options.newId, headers);

  return (next) => (request) => {
    // The query stays with the path (journal filters), whichever form the target came in.
    const target = originForm(request.url);
    if (!target.startsWith(CONTROL_API_PREFIX)) return next(request);
    const path = requestPath(target);
    const route = controlContract.matchRoute(request.method, path);
    const denied = controlAccessDenied(request, options);
    // The dashboard's page and files hold no data, and a browser cannot send the token on a
    // navigation: with a token they are served to anyone, and every call they make needs it.
    if (denied && !(options.controlToken !== undefined && route.kind === 'operation' && DASHBOARD_OPERATIONS.has(route.operation.operationId))) return fail(403, 'MockControlForbidden', denied);
    if (route.kind === 'not-found') return fail(404, 'NotFoundError', `The control API has no ${path}; see ${CONTROL_API_PREFIX}openapi.json.`);
    if (route.kind === 'method-not-allowed') return fail(405, 'MethodNotAllowedError', `${request.method} is not allowed here; allowed: ${route.allow.join(', ')}.`, { allow: route.allow.join(', ') });
    const picked = sessionNameOf(request, options.newId);
    if ('refusal' in picked) return picked.refusal;
    const query = new URLSearchParams(target.length > path.length ? target.slice(path.length + 1) : '');
    return handlers[route.operation.operationId]!({ request, query, session: () => options.sessions.get(picked.name) });
  };
}

export { CONTROL_TOKEN_HEADER } from './control-access.ts';
export { controlContract } from './control-contract.ts';
