/**
 * The operations whose meaning the stateful scenarios rely on (API §4.1-§4.3). Everything
 * else (statuses, error kinds, parameters, paths, auth header) is read from the contract, and
 * the plan refuses a spec that lacks one of these (exit 2), so spec and suite cannot drift apart
 * silently.
 */
export const GET_PROJECT_ENVIRONMENTS = 'getProjectEnvironments';
export const GET_OIDC_SETTINGS = 'getOidcSettings';
export const DELETE_SERVICE_ACCOUNT_TOKEN = 'deleteServiceAccountToken';

export const SCENARIO_OPERATIONS = [GET_PROJECT_ENVIRONMENTS, GET_OIDC_SETTINGS, DELETE_SERVICE_ACCOUNT_TOKEN] as const;
