import { BAD_REQUEST, FORBIDDEN, METHOD_NOT_ALLOWED, NOT_FOUND, UNAUTHORIZED } from '../../http-status.ts';
import type { Credential, PlannedRequest } from '../../types.ts';
import { pick, randomFor } from '../seeded-random.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN } from '../../operation-ids.ts';
import { harmlessPath } from './probe-path.ts';
import { encodeId, pathOf, type PlanInput } from './plan-input.ts';
import { allocateTokens } from './token-allocation.ts';
import type { ScenarioPlan } from './scenario-plan.ts';

/** The router's refusals of a spelling it does not route, or a redirect to the normal form (as for the trailing slash, spec decision trailing-slash). */
const ROUTER_ANSWERS = [BAD_REQUEST, NOT_FOUND, METHOD_NOT_ALLOWED, 301, 308];

/**
 * The path is a URI: a spelling RFC 3986 §6.2.2 makes equivalent (an unreserved character
 * percent-encoded, §6.2.2.2, in lower-case hex, §6.2.2.1) names the same resource, so it gets
 * what the normal spelling gets, auth included, or the router's refusal; never an answer past
 * auth. An auth guard that matches the raw path while the router decodes it (`/api/%61dmin/…`)
 * shows here. Without a key on every operation, encoding the first static segment (which every
 * prefix guard holds) and the last one (a guard of one route); with the restricted key on each
 * --forbidden operation, a static segment drawn from the seed, and the path with a trailing slash.
 * The ids are harmless (probe-path.ts), but for the restricted key's slash on the delete.
 */
export function equivalentPathsScenario(input: PlanInput): ScenarioPlan {
  const random = randomFor(input.seed, 'equivalent paths');
  const requests: PlannedRequest[] = [];
  for (const operation of input.contract.operations) {
    if (operation.authHeaders.length === 0) continue;
    const path = harmlessPath(operation, input);
    const statics = operation.path.split('/').flatMap((segment, i) => (segment !== '' && !segment.includes('{') && /[A-Za-z0-9]/.test(segment) ? [i] : []));
    if (statics.length === 0) continue;
    const probe = (credential: Credential, at: number, expects: number[]) => {
      const spelled = encodedAt(path, at);
      requests.push({ operationId: operation.operationId, step: credential === 'none' ? 'equivalent-path' : 'equivalent-path-restricted', label: `${operation.operationId} ${credential === 'none' ? 'without a key' : 'with the restricted key (--forbidden)'}, the path spelled ${spelled} (RFC 3986 §6.2.2: the same URI)`, credential, method: operation.method, path: spelled, expects });
    };
    for (const at of new Set([statics[0]!, statics[statics.length - 1]!])) probe('none', at, [UNAUTHORIZED, ...ROUTER_ANSWERS]);
    if (input.hasRestrictedKey && input.forbidden.has(operation.operationId)) {
      probe('restricted', statics[pick(random, statics.length)]!, [FORBIDDEN, ...ROUTER_ANSWERS]);
      // Red team round nine: a fallback route for the trailing slash that skips the permission guard while authentication still
      // runs shows only with a key that is valid and lacks the permission (spec decision trailing-slash: the answer without the
      // slash, 403, or the router's). On the delete, a real token the restricted key must not delete, so a 404 cannot hide it.
      const target = operation.operationId === DELETE_SERVICE_ACCOUNT_TOKEN && input.allowDelete ? allocateTokens(input.tokens).restrictedTargets[0] : undefined;
      const slashed = `${target ? pathOf(operation, [encodeId(target.account), encodeId(target.token)]) : path}/`;
      requests.push({ operationId: operation.operationId, step: 'equivalent-path-restricted', label: `${operation.operationId} with the restricted key (--forbidden), the path with a trailing slash`, credential: 'restricted', method: operation.method, path: slashed, expects: [FORBIDDEN, ...ROUTER_ANSWERS], ...(target ? { token: target } : {}) });
    }
  }
  return { requests, skipped: [] };
}

/** The path with the first letter or digit of segment `index` percent-encoded, hex digits in lower case (`admin` → `%61dmin`, `oidc` → `%6fidc`). */
export function encodedAt(path: string, index: number): string {
  const segments = path.split('/');
  const segment = segments[index]!;
  const at = segment.search(/[A-Za-z0-9]/);
  segments[index] = `${segment.slice(0, at)}%${segment.charCodeAt(at).toString(16).toLowerCase()}${segment.slice(at + 1)}`;
  return segments.join('/');
}
