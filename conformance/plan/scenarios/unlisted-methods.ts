import { GET_OIDC_SETTINGS, GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import type { PlannedRequest } from '../../types.ts';
import { pick, randomFor, type Random } from '../seeded-random.ts';
import { missingValues } from './probe-path.ts';
import { encodeId, pathOf, successStatuses, type PlanInput } from './plan-input.ts';
import type { ScenarioPlan } from './scenario-plan.ts';

/** Why the keyed writes are left out of a run without --allow-delete. */
const NEEDS_CHANGE_CONSENT = 'needs --allow-delete: a write with the full key to a real resource could change it on a server that implements one, and nothing is changed without it';

/**
 * Methods probed where the spec lists none. HEAD and OPTIONS are left out: servers answer them
 * for any GET route (RFC 9110 §9.3.2) and for CORS preflights, legitimately.
 */
export const PROBED_METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'] as const;

/**
 * Methods of the IANA HTTP Method Registry beyond those (WebDAV, DeltaV, CalDAV, RFC 2068's LINK),
 * as HTTP parsers read them (Node's llhttp among them): a guard registered for the common verbs
 * only lets them through to a route that answers them as a GET (red team round ten). CONNECT is
 * left out: its request target is an authority, not a path (RFC 9110 §9.3.6).
 */
export const REGISTERED_METHODS = ['ACL', 'BIND', 'CHECKOUT', 'COPY', 'LINK', 'LOCK', 'MERGE', 'MKACTIVITY', 'MKCALENDAR', 'MKCOL', 'MOVE', 'PROPFIND', 'PROPPATCH', 'REBIND', 'REPORT', 'SEARCH', 'UNBIND', 'UNLINK', 'UNLOCK'] as const;

/**
 * A listed method spelled in another case, drawn from the seed: all lower case (`delete`), capitalized
 * (`Delete`) or alternating (`dElEtE`). Method names are case-sensitive (RFC 9110 §9.1): each is a method
 * the spec does not list, which a server that folds the case before routing runs as the operation.
 * @example otherCase('DELETE', () => 0) // 'delete'
 */
export function otherCase(method: string, random: Random): string {
  const lower = method.toLowerCase();
  const spellings = [lower, method[0] + lower.slice(1), [...lower].map((c, i) => (i % 2 === 1 ? c.toUpperCase() : c)).join('')];
  return spellings[pick(random, spellings.length)]!;
}

/**
 * Planned connections of their own for the methods spelled in another case (PlannedRequest.connection,
 * numbered apart from the deletion step's): node:http upper-cases a request's method (Node's ClientRequest,
 * and http-client.ts as undici did), so they go by the raw send-chain, which writes the method as given.
 */
export const METHOD_CASE_CONNECTIONS = 1_000;

/**
 * Sent with no body. On paths with ids, with the full key and ids that cannot exist, so nothing
 * can change. A path without ids (the OIDC settings) is a real resource that a backend may let
 * you update or reset with exactly these methods, so there the probes carry no key at all: a
 * sane server cannot change anything for them, and a 401 is a documented 4xx of the path.
 *
 * Every method the spec does not list gets a refusal (spec decision unlisted-methods), not only
 * those five: TRACE (RFC 9110 §9.3.8, which a server may answer by echoing the request, its
 * credentials included) and one more registered method drawn from the seed go to every path
 * without a key, where a 2xx is an auth failure; TRACE also once with the full key, on a path
 * drawn from the seed, where an echo of the key shows (no-secret-echo). A method the path lists,
 * spelled in another case drawn from the seed (`get`, `Delete`: otherCase), goes to every path without
 * a key: it is a method the spec does not list (RFC 9110 §9.1), where a 2xx is an auth failure.
 *
 * None of them changes anything, with a key either (spec decision unlisted-methods): the methods
 * the reads' paths do not list go with the full key to a given resource of each (the OIDC
 * settings, the first project), and each read is sent again after them, to be answered as it was
 * before (answers-agree). A server that implements an update answers them without content with a
 * refusal; one that resets the resource shows in the read after. Only with --allow-delete, the
 * flag by which a user says the target is disposable.
 */
export function unlistedMethodsScenario(input: PlanInput): ScenarioPlan {
  const requests: PlannedRequest[] = [];
  const skipped: ScenarioPlan['skipped'] = [];
  const random = randomFor(input.seed, 'unlisted-methods');
  const byPath = new Map<string, typeof input.contract.operations>();
  for (const operation of input.contract.operations) byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  const paths = [...byPath.values()];
  const traceWithKey = pick(random, paths.length);
  const registered = [...REGISTERED_METHODS];
  // A purpose of its own, so the draws above stay what they were.
  const caseRandom = randomFor(input.seed, 'method-case');
  paths.forEach((operations, index) => {
    const [operation] = operations;
    if (!operation) return;
    const listed = new Set(operations.map((o) => o.method.toUpperCase()));
    const path = pathOf(operation, missingValues(operation, input));
    const unlisted = PROBED_METHODS.filter((method) => !listed.has(method));
    for (const method of unlisted) {
      const credential = operation.pathParams.length === 0 ? 'none' : 'full';
      requests.push({ operationId: operation.operationId, step: 'unlisted-method', label: `${method} ${operation.path} (not in the spec)`, credential, method, path, expects: [] });
    }
    // A registered method per path, without replacement: the paths together meet as many as they can.
    const [other] = registered.splice(pick(random, registered.length), 1);
    for (const method of ['TRACE', other!]) requests.push({ operationId: operation.operationId, step: 'unlisted-method', label: `${method} ${operation.path} (not in the spec) without a key`, credential: 'none', method, path, expects: [] });
    const spelled = otherCase(operation.method, caseRandom);
    requests.push({ operationId: operation.operationId, step: 'unlisted-method', label: `${spelled} ${operation.path} (${operation.method} spelled in another case: not in the spec, RFC 9110 §9.1) without a key`, credential: 'none', method: spelled, path, expects: [], connection: METHOD_CASE_CONNECTIONS + index });
    if (index === traceWithKey) requests.push({ operationId: operation.operationId, step: 'unlisted-method', label: `TRACE ${operation.path} (not in the spec) with the full key`, credential: 'full', method: 'TRACE', path, expects: [] });
    if (operation.method !== 'GET' || (operation.operationId !== GET_OIDC_SETTINGS && operation.operationId !== GET_PROJECT_ENVIRONMENTS)) return;
    const given = pathOf(operation, operation.pathParams.length === 0 ? [] : [encodeId(input.project)]);
    const what = operation.pathParams.length === 0 ? 'the OIDC settings' : `project ${JSON.stringify(input.project)}`;
    // A keyed write to a real resource is what --allow-delete consents to: without it the suite changes nothing on the target, as for deletes.
    if (!input.allowDelete) {
      skipped.push({ operationId: operation.operationId, step: 'unlisted-method', label: `${unlisted.join(', ')} on ${what} with the full key, then the read again`, expects: [], reason: NEEDS_CHANGE_CONSENT });
      return;
    }
    for (const method of unlisted) requests.push({ operationId: operation.operationId, step: 'unlisted-method', label: `${method} ${operation.path} (not in the spec) on ${what}, with the full key`, credential: 'full', method, path: given, expects: [] });
    requests.push({ operationId: operation.operationId, step: 'repeat-read', label: `${what} read again after the methods the spec does not list`, credential: 'full', method: operation.method, path: given, expects: successStatuses(operation) });
  });
  return { requests, skipped };
}
