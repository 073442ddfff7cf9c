import type { Mock, MockRequest, MockResponse } from '../../src/mock/index.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { breakResponses, editJson, operationOf } from './serve-target.ts';
import { GET_OIDC_SETTINGS, GET_PROJECT_ENVIRONMENTS } from '../operation-ids.ts';

/**
 * Red team round seventeen's principles, part B (issue 18; test/red-team/round-17/BASELINE.md), as other stacks break them, not
 * round seventeen's own targets (the OIDC settings under `instance.oidc` of every environments 200; a method-blind micro-cache
 * serving a HEAD's empty 200 to the GET after it):
 * - a secret only where its reader is permitted: a `format: password` value of an operation (the OIDC secret, read with the full
 *   key) reaches no credential that may not call that operation (the restricted key without it, no key, an invalid key), in no
 *   operation, status, header or body, in no encoding (spec decision secrets-follow-permissions). The full key, which may read it
 *   anyway, may get it inside another operation's answer as an extra member (unlisted-fields-allowed).
 */

const ADMIN_KEY = 'mock-admin-key';
const OIDC_PATH = '/api/admin/auth/oidc/settings';

/** The instance's OIDC settings as the full key reads them. */
const oidcOf = (mock: Mock): Record<string, unknown> => JSON.parse(mock.handle({ method: 'GET', url: OIDC_PATH, headers: { authorization: ADMIN_KEY } }).body!) as Record<string, unknown>;
const isEnvironments200 = (contract: Parameters<typeof operationOf>[0], request: MockRequest, response: MockResponse) =>
  (request.method === 'GET' || request.method === 'HEAD') && response.status === 200 && operationOf(contract, request) === GET_PROJECT_ENVIRONMENTS;
const fullKey = (request: MockRequest) => String(request.headers.authorization ?? '').trim() === ADMIN_KEY;

export const ROUND17B_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    // A DRF ModelSerializer with a nested `sso` field (depth=1) and a camel-case renderer: the secret goes out under `clientSecret`,
    // a name the spec does not mark, so it reads as ordinary data of the answer.
    name: 'every environments 200 carries `sso: {issuer, clientId, clientSecret}` (a nested serializer of the instance): the restricted key reads the OIDC secret under a name the spec does not mark',
    dimension: 'headers',
    caughtBy: ['secrets-follow-permissions'],
    serve: (contract) =>
      breakResponses(contract, (request, response, mock) => {
        if (!isEnvironments200(contract, request, response)) return response;
        const oidc = oidcOf(mock);
        return editJson(response, (body) => ({ ...body, sso: { issuer: oidc.discoverUrl, clientId: oidc.clientId, clientSecret: oidc.secret } }));
      }),
  },
  {
    // A HAL-ish `_meta` that a gateway fills with the tenant's configuration, base64 of its JSON (as a JWT-less "context" blob).
    name: 'every environments 200 carries `_meta.tenantContext`, the base64 of the instance configuration JSON, OIDC secret inside',
    dimension: 'headers',
    caughtBy: ['secrets-follow-permissions'],
    serve: (contract) =>
      breakResponses(contract, (request, response, mock) => {
        if (!isEnvironments200(contract, request, response)) return response;
        const context = Buffer.from(JSON.stringify({ tenant: 'eu-1', oidc: oidcOf(mock) })).toString('base64');
        return editJson(response, (body) => ({ ...body, _meta: { tenantContext: context } }));
      }),
  },
  {
    // Lombok's @ToString on the settings entity, quoted by the access-denied handler.
    name: "the OIDC read's 403 to the restricted key says `access denied to OidcSettings(discoverUrl=…, clientId=…, secret=…)` (the entity's toString in the message)",
    dimension: 'headers',
    caughtBy: ['secrets-follow-permissions', 'no-secret-echo'],
    serve: (contract) =>
      breakResponses(contract, (request, response, mock) => {
        if (response.status !== 403 || operationOf(contract, request) !== GET_OIDC_SETTINGS) return response;
        const oidc = oidcOf(mock);
        return editJson(response, (body) => ({ ...body, message: `access denied to OidcSettings(discoverUrl=${String(oidc.discoverUrl)}, clientId=${String(oidc.clientId)}, secret=${String(oidc.secret)})` }));
      }),
  },
  {
    // A middleware that forwards the tenant's SSO parameters to the SPA in a response header, URL-encoded as a query string.
    name: 'every environments 200 carries `X-Sso-Params: client_id=…&client_secret=…` (URL-encoded), whatever the key',
    dimension: 'headers',
    caughtBy: ['secrets-follow-permissions', 'no-secret-echo'],
    serve: (contract) =>
      breakResponses(contract, (request, response, mock) => {
        if (!isEnvironments200(contract, request, response)) return response;
        const oidc = oidcOf(mock);
        const params = new URLSearchParams({ client_id: String(oidc.clientId), client_secret: String(oidc.secret) }).toString();
        return { ...response, headers: { ...response.headers, 'x-sso-params': params } };
      }),
  },
];

export const ROUND17B_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    // The serializer asks the permission model: the settings are embedded for a key that may read them, left out for the others.
    name: "the environments 200 embeds `instance: {id, oidc}` (OIDC secret included) for the full key, which may read the settings anyway, and `instance: {id}` for the restricted key",
    serve: (contract) =>
      breakResponses(contract, (request, response, mock) => {
        if (!isEnvironments200(contract, request, response)) return response;
        const instance = fullKey(request) ? { id: 'eu-1', oidc: oidcOf(mock) } : { id: 'eu-1' };
        return editJson(response, (body) => ({ ...body, instance }));
      }),
  },
  {
    // The same blob as the broken `_meta.tenantContext`, sent only to the key that may read the settings.
    name: 'the environments 200 carries `_meta.tenantContext` (base64 of the configuration, OIDC secret inside) for the full key only',
    serve: (contract) =>
      breakResponses(contract, (request, response, mock) => {
        if (!isEnvironments200(contract, request, response) || !fullKey(request)) return response;
        const context = Buffer.from(JSON.stringify({ tenant: 'eu-1', oidc: oidcOf(mock) })).toString('base64');
        return editJson(response, (body) => ({ ...body, _meta: { tenantContext: context } }));
      }),
  },
  {
    // The settings embedded for every key with the secret masked, as Spring Boot's actuator sanitizes `*secret*` keys.
    name: 'every environments 200 embeds the OIDC settings with `secret: "******"` (masked for every key)',
    serve: (contract) =>
      breakResponses(contract, (request, response, mock) => {
        if (!isEnvironments200(contract, request, response)) return response;
        return editJson(response, (body) => ({ ...body, instance: { oidc: { ...oidcOf(mock), secret: '******' } } }));
      }),
  },
];
