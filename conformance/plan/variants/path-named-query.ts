import type { Operation } from '../../../src/contract/index.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import { encodeId, type PlanInput } from '../scenarios/plan-input.ts';
import { missingValues } from '../scenarios/probe-path.ts';
import { allocateTokens } from '../scenarios/token-allocation.ts';

/** jQuery's cache-buster: a query parameter no spec names. */
export const CACHE_BUSTER = '_=1700000000000';

/**
 * Query parameters that frameworks read though no spec here names them, in one query (red team
 * round nine): the cache-buster repeated (qs and Rails make an array of it), array syntax
 * (`a[]=1`, percent-encoded as RFC 3986 §3.4 asks), JSONP's `callback`, the format switches of
 * Symfony and Django REST (`format`, `_format`), `pretty`, sparse `fields` (JSON:API), and last
 * a value that looks like a static file (`v=app.css`), so that the whole URL ends like an asset's
 * as auth middlewares that exempt assets by the URL test it. Spec decision
 * required-request-headers: none changes an answer (status, media type, the listed fields).
 */
export const FRAMEWORK_QUERY = '_=1700000000001&a%5B%5D=1&callback=cb&format=xml&_format=xml&pretty=true&fields=id&v=app.css';

/**
 * The query of the `query` variant (spec decision required-request-headers: a query string the
 * spec does not name changes no answer): a cache-buster, and for each path parameter a query
 * parameter of the same name, as the spec spells it (`projectId`, `id`, `tokenId`), naming
 * another resource than the path does. A handler that reads `{ ...req.params, ...req.query }`
 * or `req.query.x ?? req.params.x` answers for, or deletes, that other resource: a read of a
 * given project names another given project (or the missing one), a read of the missing project
 * a given one; a delete names a given token the run deletes later (the first token, else the
 * next), never the path's own, so that a delete that took it shows now (a 2xx where the path
 * names nothing) and again when the run deletes it. Without --allow-delete the delete's query
 * names only ids that cannot exist: nothing may be deleted.
 * The framework-read parameters (FRAMEWORK_QUERY) follow.
 * @example pathNamedQuery(environments, ['default'], input) // "_=1700000000000&projectId=mobile-app&_=1700000000001&…&v=app.css"
 */
export function pathNamedQuery(operation: Operation, ids: readonly string[], input: PlanInput): string {
  const other = otherResource(operation, ids, input);
  return [CACHE_BUSTER, ...operation.pathParams.map((name, i) => `${encodeURIComponent(name)}=${other[i]}`), FRAMEWORK_QUERY].join('&');
}

/** The ids (encoded) of a resource of the operation other than the one `ids` names. */
function otherResource(operation: Operation, ids: readonly string[], input: PlanInput): string[] {
  if (operation.operationId === GET_PROJECT_ENVIRONMENTS) {
    const project = [...input.projects, input.missingProject].find((p) => encodeId(p) !== ids[0]) ?? input.missingProject;
    return operation.pathParams.map(() => encodeId(project));
  }
  if (operation.operationId === DELETE_SERVICE_ACCOUNT_TOKEN && input.allowDelete) {
    const { primary } = allocateTokens(input.tokens);
    const token = [...(primary ? [primary] : []), ...input.tokens].find((t) => encodeId(t.account) !== ids[0] || encodeId(t.token) !== ids[1]);
    if (token) return [encodeId(token.account), encodeId(token.token)];
  }
  return missingValues(operation, input);
}
