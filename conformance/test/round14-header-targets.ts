import type { Contract } from '../../src/contract/index.ts';
import type { MockRequest, MockResponse, RunningServer } from '../../src/mock/index.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { breakResponses, editJson } from './serve-target.ts';

/**
 * Red team round fourteen's request-header principles (issue 18; test/red-team/round-14/BASELINE.md): an answer depends
 * only on what the contract names, and ordinary header VALUES are no part of it. The scheme of `Bearer <key>` is
 * case-insensitive (RFC 9110 §11.1); `Expect: 100-continue` on a request without content changes nothing (RFC 9110 §10.1.1);
 * the User-Agent of a real client changes no member; an Accept that admits JSON gets the documented JSON, errors included
 * (decision accept-negotiation). Not round fourteen's targets: other mistakes in the same places, as other stacks make them.
 */

const header = (request: MockRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** The mock answering as if the request carried `authorization` instead (a key layer in front of it). */
function withKey(request: MockRequest, authorization: string | undefined): MockRequest {
  const headers = { ...request.headers };
  if (authorization === undefined) delete headers.authorization;
  else headers.authorization = authorization;
  return { ...request, headers };
}

/**
 * A Go-style key layer: `strings.CutPrefix(h, "bearer ")` written from a lower-case example; `bearer <key>` is the key, `Bearer <key>`
 * (RFC 6750's own spelling) is read whole and refused; the bare key is served. `caseless`: the honest twin, which folds the scheme first.
 */
function bearerLayer(contract: Contract, caseless: boolean, none = false): Promise<RunningServer> {
  return breakResponses(contract, (request, response, mock) => {
    const value = header(request, 'authorization');
    if (value === undefined) return response;
    const scheme = /^([A-Za-z]+) +/.exec(value);
    if (!scheme || scheme[1]!.toLowerCase() !== 'bearer') return response;
    if (none) return mock.handle(withKey(request, `${value}#whole`));
    // Not cut: the whole value, scheme and all, is looked up as a key and found in no key store.
    const key = value.slice(scheme[0].length);
    // The mock (which would cut a scheme again) gets what the layer holds: the cut key, or for a scheme left in it the whole value.
    return mock.handle(withKey(request, (caseless || scheme[1] === 'bearer') && !/^bearer /i.test(key) ? key : `${value}#whole`));
  });
}

/** An nginx-style `if ($http_expect) { return 417; }` kept from an upload service: any Expect gets 417 in plain text, key or not, before routing. */
function expectRefused(contract: Contract, onlyUnknown: boolean): Promise<RunningServer> {
  return breakResponses(contract, (request, response) => {
    const expect = header(request, 'expect');
    // RFC 9110 §10.1.1: a server MAY answer 417 to an expectation it does not support; 100-continue is the one every HTTP/1.1 server supports.
    if (expect === undefined || (onlyUnknown && expect.trim().toLowerCase() === '100-continue')) return response;
    return { status: 417, headers: { 'content-type': 'text/plain' }, body: 'Expectation Failed' };
  });
}

/** A "desktop/script" split: script clients (python-requests, Go-http-client, curl) get the OIDC settings without their group settings and environments without sortOrder. */
function scriptsGetLess(contract: Contract): Promise<RunningServer> {
  return breakResponses(contract, (request, response) => {
    if (response.status !== 200 || !/python-requests|Go-http-client|curl\//i.test(header(request, 'user-agent') ?? '')) return response;
    return editJson(response, (body) => {
      if (Array.isArray(body.environments)) return { ...body, environments: (body.environments as Record<string, unknown>[]).map(({ sortOrder: _s, ...rest }) => rest) };
      const { enableGroupSyncing: _e, groupJsonPath: _g, ...rest } = body;
      return rest;
    });
  });
}

/** JSON:API content negotiation (a Rails jsonapi-serializer setup): an Accept that names application/vnd.api+json gets JSON:API error documents. */
function jsonApiErrors(contract: Contract): Promise<RunningServer> {
  return breakResponses(contract, (request, response): MockResponse => {
    if (response.status < 400 || response.body === undefined || !/application\/vnd\.api\+json/i.test(header(request, 'accept') ?? '')) return response;
    const error = JSON.parse(response.body) as { id?: string; name?: string; message?: string };
    const body = { errors: [{ id: error.id, status: String(response.status), code: error.name, detail: error.message }] };
    return { status: response.status, headers: { 'content-type': 'application/vnd.api+json' }, body: JSON.stringify(body) };
  });
}

export const ROUND14_HEADER_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    name: 'the Bearer scheme cut with a lower-case prefix (Go strings.CutPrefix(h, "bearer ")): `bearer <key>` is the key, `Bearer <key>` and `BEARER <key>` get 401 (RFC 9110 §11.1: the scheme is case-insensitive)',
    dimension: 'headers',
    caughtBy: ['auth-scheme-any-case'],
    serve: (contract) => bearerLayer(contract, false),
  },
  {
    name: 'any Expect refused with 417 in plain text before routing and auth (an upload gateway\'s `if ($http_expect) { return 417; }`): `Expect: 100-continue` on a read gets 417',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => expectRefused(contract, false),
  },
  {
    name: 'script clients (python-requests, Go-http-client, curl) get environments without sortOrder and OIDC settings without group settings',
    dimension: 'headers',
    // The members a read answers with the full key are compared with the suite's own read of it (answer-stable, reported by answers-agree).
    caughtBy: ['headers-ignored', 'answers-agree'],
    serve: scriptsGetLess,
  },
  {
    name: 'JSON:API negotiation: an Accept naming application/vnd.api+json (beside application/json) gets errors as JSON:API documents in application/vnd.api+json',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: jsonApiErrors,
  },
];

export const ROUND14_HEADER_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    name: 'a key layer that folds the scheme (RFC 9110 §11.1): `Bearer`, `bearer` and `BEARER` before the key all serve the key',
    serve: (contract) => bearerLayer(contract, true),
  },
  {
    name: 'a key layer that takes the key alone: `Bearer <key>` in any spelling is 401, no credential (decision key-in-header-only allows it)',
    serve: (contract) => bearerLayer(contract, false, true),
  },
  {
    name: '417 only to an expectation other than 100-continue (RFC 9110 §10.1.1)',
    serve: (contract) => expectRefused(contract, true),
  },
];
