import { createHash } from 'node:crypto';
import type { Contract } from '../../src/contract/index.ts';
import { serveHandler, type Mock, type MockRequest, type MockResponse, type RunningServer } from '../../src/mock/index.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { breakResponses, editJson, freshMock, operationOf, originForm } from './serve-target.ts';
import { GET_OIDC_SETTINGS, GET_PROJECT_ENVIRONMENTS } from '../operation-ids.ts';

/**
 * Red team round seventeen's principles, part B (issue 18; test/red-team/round-17/BASELINE.md), as other stacks break them, not
 * round seventeen's own targets (the OIDC settings under `instance.oidc` of every environments 200; a method-blind micro-cache
 * serving a HEAD's empty 200 to the GET after it):
 * - a secret only where its reader is permitted: a `format: password` value of an operation (the OIDC secret, read with the full
 *   key) reaches no credential that may not call that operation (the restricted key without it, no key, an invalid key), in no
 *   operation, status, header or body, in no encoding (spec decision secrets-follow-permissions). The full key, which may read it
 *   anyway, may get it inside another operation's answer as an extra member (unlisted-fields-allowed).
 * - an answer does not depend on the method of the request before it: a cache in front keyed by the URL and the key but not the
 *   method (or not the conditional headers) hands what it stored for a HEAD, an OPTIONS, a refused POST or a conditional GET to the
 *   plain request of the same URL and key right after it (spec decisions head-requests, requests-independent).
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

/**
 * A cache in front of the mock for `ttlMs`: a request whose `keyOf` was answered within that time gets the stored answer (the mock
 * does not see it); `stores` says which answers are kept.
 */
function cacheInFront(contract: Contract, ttlMs: number, keyOf: (request: MockRequest) => string | undefined, stores: (request: MockRequest, response: MockResponse) => boolean): Promise<RunningServer> {
  const mock = taggedReads(freshMock(contract));
  const cache = new Map<string, { response: MockResponse; until: number }>();
  return serveHandler(
    (request) => {
      const plain = { ...request, url: originForm(request.url) };
      const key = keyOf(plain);
      const hit = key === undefined ? undefined : cache.get(key);
      if (hit && hit.until > Date.now()) return hit.response;
      const response = mock.handle(plain);
      if (key !== undefined && stores(plain, response)) cache.set(key, { response, until: Date.now() + ttlMs });
      return response;
    },
    { port: 0, onError: () => {} },
  );
}

/**
 * The mock with a conditional-GET layer (spec decision conditional-requests): its 200 reads carry a strong ETag, and a GET or HEAD
 * whose If-None-Match names it (or is `*`) gets 304 with the 200's fields but the content's own.
 */
function taggedReads(mock: Mock): Pick<Mock, 'handle'> {
  return {
    handle: (request) => {
      const response = mock.handle(request);
      if (response.status !== 200 || response.body === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) return response;
      const etag = `"${createHash('sha256').update(response.body).digest('base64url').slice(0, 16)}"`;
      const asked = String(request.headers['if-none-match'] ?? '');
      if (asked.trim() === '*' || asked.split(',').some((tag) => tag.trim() === etag)) {
        const { 'content-type': _type, 'content-length': _length, ...fields } = response.headers;
        return { status: 304, headers: { ...fields, etag }, body: undefined };
      }
      return { ...response, headers: { ...response.headers, etag } };
    },
  };
}

const authOf = (request: MockRequest) => String(request.headers.authorization ?? '');
const header = (request: MockRequest, name: string) => String(request.headers[name] ?? '');

export const ROUND17B_METHOD_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    // Rack::Cache-style store keyed by path and key only: a conditional GET's 304 is kept and handed to the unconditional GET after it.
    name: "a 2 s cache keyed by URL and Authorization (not If-None-Match) keeps a conditional GET's 304 and hands it to the plain GET after it",
    dimension: 'conditional',
    caughtBy: ['answers-follow-own-method', 'conditional-after-auth'],
    serve: (contract) => cacheInFront(contract, 2000, (r) => (r.method === 'GET' ? `${r.url} ${authOf(r)}` : undefined), (_, response) => response.status === 200 || response.status === 304),
  },
  {
    // A CDN rule that caches preflight answers (OPTIONS) keyed by URL and Authorization, the method left out of the key.
    name: 'a 2 s cache keyed by URL and Authorization, not the method, keeps every GET and OPTIONS answer under 500 (the OPTIONS refused 405 too) and hands it to the other method after it',
    dimension: 'method',
    caughtBy: ['answers-follow-own-method', 'options-harmless'],
    serve: (contract) => cacheInFront(contract, 2000, (r) => (r.method === 'GET' || r.method === 'OPTIONS' ? `${r.url} ${authOf(r)}` : undefined), (_, response) => response.status < 500),
  },
];

export const ROUND17B_METHOD_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    // A micro-cache done right: the method and the validators are part of the key (nginx's default proxy_cache_key plus $request_method).
    name: 'a 2 s micro-cache of 2xx reads keyed by method, URL, Authorization, If-None-Match and If-Modified-Since',
    serve: (contract) =>
      cacheInFront(
        contract,
        2000,
        (r) => (r.method === 'GET' || r.method === 'HEAD' ? [r.method, r.url, authOf(r), header(r, 'if-none-match'), header(r, 'if-modified-since'), header(r, 'accept-encoding'), header(r, 'range')].join(' ') : undefined),
        (_, response) => response.status === 200,
      ),
  },
  {
    // A router that routes no HEAD (RFC 9110 §9.3.2 makes HEAD a SHOULD): 405 with Allow naming the path's methods.
    name: 'HEAD answered 405 with `Allow: GET` on the reads (and the delete path as the mock answers it), then the GET as usual',
    serve: (contract) =>
      breakResponses(contract, (request, response) => {
        if (request.method !== 'HEAD' || response.status === 405) return response;
        return { status: 405, headers: { 'content-type': 'application/json', allow: 'GET' }, body: JSON.stringify({ id: 'head-405', name: 'MethodNotAllowed', message: 'HEAD is not routed' }) };
      }),
  },
];
