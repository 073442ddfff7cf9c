import { describe, expect, test } from 'vitest';
import type { Operation } from './operation.ts';
import { createRouteMatcher, decodePathParams } from './route-matcher.ts';

function operation(operationId: string, method: string, path: string): Operation {
  return { operationId, method, path, pointer: '', summary: '', pathParams: [], responses: new Map(), authHeaders: [] };
}

const TOKEN_PATH = '/api/admin/service-account/{id}/token/{tokenId}';
const match = createRouteMatcher([
  operation('getThing', 'GET', '/things/{thingId}'),
  operation('deleteThing', 'DELETE', '/things/{thingId}'),
  operation('deleteServiceAccountToken', 'DELETE', TOKEN_PATH),
  operation('getVersioned', 'GET', '/v1.0/items'),
]);

describe('createRouteMatcher', () => {
  test('matches a templated path and returns its raw parameters by name', () => {
    expect(match('DELETE', '/api/admin/service-account/1/token/2')).toMatchObject({
      kind: 'operation',
      operation: { operationId: 'deleteServiceAccountToken' },
      rawParams: { id: '1', tokenId: '2' },
    });
  });

  test('keeps an encoded slash (%2F) inside one parameter', () => {
    const found = match('DELETE', '/api/admin/service-account/a%2Fb/token/2');
    expect(found).toMatchObject({ kind: 'operation', rawParams: { id: 'a%2Fb', tokenId: '2' } });
    expect(found.kind === 'operation' && decodePathParams(found.rawParams)).toEqual({ ok: true, params: { id: 'a/b', tokenId: '2' } });
  });

  test('does not let a parameter span a literal slash', () => {
    expect(match('DELETE', '/api/admin/service-account/a/b/token/2')).toEqual({ kind: 'not-found' });
  });

  test('matches the method case-sensitively: `get` and `Delete` are methods the path does not list (RFC 9110 §9.1)', () => {
    expect(match('get', '/things/7')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'DELETE', 'HEAD'] });
    expect(match('Delete', '/things/7')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'DELETE', 'HEAD'] });
    expect(match('head', '/things/7')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'DELETE', 'HEAD'] });
  });

  test('answers method-not-allowed with every method the path has', () => {
    expect(match('POST', '/things/7')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'DELETE', 'HEAD'] });
  });

  test('routes HEAD to the GET operation of a path, and to nothing where a path has no GET (RFC 9110 §9.3.2)', () => {
    expect(match('HEAD', '/things/7')).toMatchObject({ kind: 'operation', operation: { operationId: 'getThing' } });
    const deleteOnly = createRouteMatcher([operation('deleteMe', 'DELETE', '/users/me')]);
    expect(deleteOnly('HEAD', '/users/me')).toEqual({ kind: 'method-not-allowed', allow: ['DELETE'] });
  });

  test.each([
    ['an unknown path', '/nothing/here'],
    ['a prefix of a path', '/api/admin/service-account/1/token'],
    ['a path with an extra segment', '/things/7/extra'],
    ['a trailing slash', '/things/7/'],
    ['an empty parameter', '/things/'],
    ['a template written literally', `/api/admin/service-account/{id}/token/{tokenId}/x`],
  ])('answers not-found for %s', (_what, pathname) => {
    expect(match('GET', pathname)).toEqual({ kind: 'not-found' });
  });

  test('treats regular-expression characters in a path template literally', () => {
    expect(match('GET', '/v1.0/items')).toMatchObject({ kind: 'operation' });
    expect(match('GET', '/v1x0/items')).toEqual({ kind: 'not-found' });
  });

  test('prefers a concrete path to a templated one that also matches, whatever the declaration order', () => {
    // OAS 3.1 §4.8.8: "concrete (non-templated) paths would be matched before their templated counterparts".
    const matchMe = createRouteMatcher([operation('getUser', 'GET', '/users/{userId}'), operation('deleteMe', 'DELETE', '/users/me')]);
    expect(matchMe('DELETE', '/users/me')).toMatchObject({ kind: 'operation', operation: { operationId: 'deleteMe' } });
    expect(matchMe('GET', '/users/me')).toEqual({ kind: 'method-not-allowed', allow: ['DELETE'] });
    expect(matchMe('GET', '/users/42')).toMatchObject({ kind: 'operation', rawParams: { userId: '42' } });
  });
});

describe('decodePathParams', () => {
  test('percent-decodes every parameter, Unicode included', () => {
    expect(decodePathParams({ id: 'caf%C3%A9', tokenId: '%E2%9C%93' })).toEqual({ ok: true, params: { id: 'café', tokenId: '✓' } });
  });

  test.each([['%'], ['%E0%A4%A'], ['%ZZ'], ['%C3']])('reports the malformed encoding %s with the parameter, without throwing', (raw) => {
    expect(decodePathParams({ id: '1', tokenId: raw })).toEqual({ ok: false, param: 'tokenId', raw });
  });
});
