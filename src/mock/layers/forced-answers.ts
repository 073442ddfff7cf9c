import type { Contract } from '../../contract/neutral.ts';
import { errorResponse, type NewId } from '../core/errors.ts';
import { authorizationFailure } from '../core/handle.ts';
import { requestPath } from '../core/request-path.ts';
import type { MockResponse } from '../core/types.ts';
import { delay } from './delay.ts';
import { forcedResponse } from './forced-response.ts';
import { headerValue, type SessionHandle } from './layer.ts';
import { parsePrefer, type Forcing } from './prefer-header.ts';
import { useRule } from './sticky-rules.ts';

/** Kinds of the mock's own refusals and non-answers; the body shape is still `{id, name, message}`. */
export const FORCING_ERROR_KIND = 'MockPreferError';

/**
 * The status recorded for a request whose client left during a delay (no answer is sent). 499
 * is the de-facto "client closed request" code (nginx); it never reaches a client.
 */
export const CLIENT_GONE_STATUS = 499;

/**
 * Forced answers and delays: per request from `Prefer: code=…, example=…, delay=…`, else from the
 * session's sticky rules. Routing and auth come first (a forced answer never lets a request
 * past a 401/403), the answer is built from the spec (forced-response.ts), and the operation
 * does not run, so the state never changes. With no Prefer header and no rules, the request
 * goes straight on: two property reads on the plain path.
 */
export function forcedAnswersLayer(contract: Contract, newId: NewId): (next: SessionHandle) => SessionHandle {
  const refuse = (message: string): MockResponse => ({ ...errorResponse(400, FORCING_ERROR_KIND, message, newId), note: `Prefer refused: ${message}` });
  return (next) => (request, session) => {
    const prefer = headerValue(request, 'prefer');
    if (prefer === undefined && session.rules.length === 0) return next(request, session);
    let forcing: Forcing | undefined;
    if (prefer !== undefined) {
      const parsed = parsePrefer(prefer);
      if ('problem' in parsed) return refuse(`${parsed.problem}.`);
      forcing = parsed.forcing;
    }
    const route = contract.matchRoute(request.method, requestPath(request.url));
    // Outside the spec's operations there is nothing to force: the core answers 404/405.
    if (route.kind !== 'operation') return next(request, session);
    const rule = forcing ? undefined : session.rules.find((r) => r.operationId === route.operation.operationId);
    forcing ??= rule;
    if (!forcing) return next(request, session);

    let answer: MockResponse | undefined;
    const forcesAnswer = forcing.code !== undefined || forcing.example !== undefined;
    if (forcesAnswer && !authorizationFailure(route.operation, request, session.store)) {
      const forced = forcedResponse(route.operation, forcing, newId);
      if ('problem' in forced) return refuse(`${forced.problem}.`);
      answer = { ...forced.response, note: rule ? `answered as a sticky rule of the session asked (${describeForcing(forcing)}); the operation did not run` : `answered as Prefer: ${describeForcing(forcing)} asked; the operation did not run` };
    }
    // A rule that forces an answer is used up only by requests that get it, not by those refused at auth.
    if (rule && (answer || !forcesAnswer)) useRule(session.rules, rule);
    if (!forcing.delay) return answer ?? next(request, session);
    return delay(forcing.delay, request.signal).then((waited) => {
      if (!waited) return { status: CLIENT_GONE_STATUS, headers: {}, body: undefined };
      return answer ?? next(request, session);
    });
  };
}

function describeForcing(forcing: Forcing): string {
  return [forcing.code !== undefined && `code=${forcing.code}`, forcing.example !== undefined && `example=${forcing.example}`, forcing.delay !== undefined && `delay=${forcing.delay}`].filter(Boolean).join(', ');
}
