import type { Contract } from '../../src/contract/index.ts';
import type { MockRequest, MockResponse, RunningServer } from '../../src/mock/index.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_PROJECT_ENVIRONMENTS } from '../operation-ids.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { ALL_TOKENS } from './run-check.ts';
import { breakResponses, operationOf, originForm, rewriteRequests } from './serve-target.ts';

/**
 * Red team round twelve's resource principles (issue 18: an answer depends only on what the
 * contract names; test/red-team/round-12/BASELINE.md). Not copies of round twelve's targets:
 * - a permission is per operation, the same on every resource (decision permissions-per-operation),
 *   here broken by a project-role lookup that finds no role on a project that does not exist;
 * - an id that cannot exist gets 404 (API §4.1, decision unknown-ids-not-found), here broken by a
 *   "soft" not-found: 200 with the error in the body;
 * - an OPTIONS may be refused with 403, with or without a key (decision options-requests), which
 *   the full key's never-403 rule (about the operations' own methods) must not accuse.
 */

const ADMIN_KEY = 'mock-admin-key';
const VIEWER_KEY = 'mock-viewer-key';
const JSON_TYPE = { 'content-type': 'application/json' };
let errors = 0;
const noAccess = (): MockResponse => ({ status: 403, headers: JSON_TYPE, body: JSON.stringify({ id: `r12-${++errors}`, name: 'NoAccessError', message: 'You need a role on this project' }) });

/** The key a request presents, as the mock reads it: the header's value, a `Bearer ` scheme aside (decision key-in-header-only). */
function presentedKey(request: MockRequest): string | undefined {
  const value = request.headers.authorization;
  return typeof value === 'string' ? value.trim().replace(/^bearer\s+/i, '') : undefined;
}

/** The mock, with each answer of one operation to the viewer key changed. */
function serveChanged(contract: Contract, change: (request: MockRequest, response: MockResponse) => MockResponse | undefined): Promise<RunningServer> {
  return breakResponses(contract, (request, response) => change(request, response) ?? response);
}

/** Caught by permission-same-on-every-resource alone (broken-targets.ts lists it so: every check has a target only it catches). */
export const PROJECT_ROLES_TARGET =
  'project-scoped roles (a key without the admin role reads a project only through a role on it, looked up before the project): a project that does not exist holds no role, so the viewer key gets 403 there and 200 on the given projects';

export const ROUND12_RESOURCE_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    name: PROJECT_ROLES_TARGET,
    dimension: 'earlier',
    caughtBy: ['permission-same-on-every-resource'],
    serve: (contract) =>
      serveChanged(contract, (request, response) =>
        presentedKey(request) === VIEWER_KEY && operationOf(contract, request) === GET_PROJECT_ENVIRONMENTS && response.status === 404 ? noAccess() : undefined,
      ),
  },
  {
    name: 'a "soft" not-found: a project that does not exist gets 200 with the error in the body (`{"version":1,"environments":[],"error":"project not found"}`), as GraphQL-minded handlers answer',
    dimension: 'earlier',
    caughtBy: ['missing-project-not-found', 'near-miss-project-not-found'],
    serve: (contract) =>
      serveChanged(contract, (request, response) =>
        operationOf(contract, request) === GET_PROJECT_ENVIRONMENTS && response.status === 404
          ? { status: 200, headers: JSON_TYPE, body: JSON.stringify({ version: 1, environments: [], error: 'project not found' }) }
          : undefined,
      ),
  },
  {
    name: 'service-account-scoped roles: the viewer key owns service account 1 and may delete its tokens there only (the role checked per account, as a team-scoped token API does); 403 on every other account, the missing one included',
    dimension: 'earlier',
    caughtBy: ['permission-same-on-every-resource'],
    // The key is said to hold the delete (only the OIDC read --forbidden): on account 1 it does, elsewhere not.
    args: [...ALL_TOKENS, '--forbidden', 'getOidcSettings'],
    serve: (contract) =>
      rewriteRequests(contract, (request) => {
        const account = /^\/api\/admin\/service-account\/([^/?]+)\/token\//.exec(originForm(request.url))?.[1];
        const owned = presentedKey(request) === VIEWER_KEY && operationOf(contract, request) === DELETE_SERVICE_ACCOUNT_TOKEN && account === '1';
        return owned ? { ...request, headers: { ...request.headers, authorization: ADMIN_KEY } } : request;
      }),
  },
];

export const ROUND12_RESOURCE_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    name: 'a gateway policy that denies the OPTIONS method: every OPTIONS, plain or a CORS preflight, with any key or none, gets 403 NoAccessError before auth (decision options-requests)',
    serve: (contract) => serveChanged(contract, (request) => (request.method === 'OPTIONS' ? noAccess() : undefined)),
  },
  {
    name: 'the viewer key holds the delete on every service account (a role granted per account, to all of them: the keys decision permissions-per-operation asks for)',
    args: [...ALL_TOKENS, '--forbidden', 'getOidcSettings'],
    serve: (contract) => rewriteRequests(contract, (request) => (presentedKey(request) === VIEWER_KEY && operationOf(contract, request) === DELETE_SERVICE_ACCOUNT_TOKEN ? { ...request, headers: { ...request.headers, authorization: ADMIN_KEY } } : request)),
  },
];
