import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/index.ts';
import { allowedAnswers, createRunState, credentialOf, judgeConcurrent, judgeExchange, toleratedRefusal } from './index.ts';

const contract = await loadContract();
const ENV = '/api/admin/environments/project/default';
const TOKEN = '/api/admin/service-account/1/token/1';

describe('HEAD (spec decision head-requests)', () => {
  it('allows what the GET of the path gets, or 405 from a server that routes no HEAD', () => {
    const state = createRunState({ contract });
    state.declare({ method: 'GET', path: ENV }, 'exists');
    expect(allowedAnswers({ method: 'HEAD', path: ENV, credential: 'full' }, state).statuses).toEqual([200, 405]);
    expect(allowedAnswers({ method: 'HEAD', path: ENV, credential: 'none' }, state).statuses).toEqual([401, 405]);
  });

  it('judges no body on a HEAD answer, and refuses HEAD where the path has no GET', () => {
    const state = createRunState({ contract });
    state.declare({ method: 'GET', path: ENV }, 'exists');
    const headers = { 'content-type': 'application/json', 'content-length': '120' };
    expect(judgeExchange({ request: { method: 'HEAD', path: ENV, credential: 'full' }, response: { status: 200, headers, body: '' } }, state)).toEqual([]);
    expect(allowedAnswers({ method: 'HEAD', path: TOKEN, credential: 'full' }, state).statuses).toContain(405);
    expect(allowedAnswers({ method: 'HEAD', path: TOKEN, credential: 'full' }, state).statuses).not.toContain(200);
  });
});

describe('methods the spec does not list (spec decision unlisted-methods)', () => {
  const OIDC = '/api/admin/auth/oidc/settings';
  const json = { 'content-type': 'application/json' };
  it('allows 404, 405, a documented 4xx of the path, and 501 (RFC 9110 §9.1)', () => {
    const state = createRunState({ contract });
    expect(allowedAnswers({ method: 'PUT', path: OIDC, credential: 'full' }, state).statuses).toEqual(expect.arrayContaining([401, 404, 405, 501]));
    expect(judgeExchange({ request: { method: 'PATCH', path: OIDC, credential: 'none' }, response: { status: 501, headers: json, body: '' } }, state)).toEqual([]);
  });

  it('holds a 2xx without a valid key to be an auth failure, and with the full key only a method it does not expect', () => {
    const state = createRunState({ contract });
    const ok = { status: 200, headers: json, body: '{}' };
    expect(judgeExchange({ request: { method: 'PUT', path: OIDC, credential: 'none' }, response: ok }, state).map((v) => v.rule)).toEqual(['auth-required']);
    expect(judgeExchange({ request: { method: 'POST', path: TOKEN, credential: 'invalid' }, response: ok }, state).map((v) => v.rule)).toEqual(['auth-required']);
    expect(judgeExchange({ request: { method: 'PUT', path: OIDC, credential: 'full' }, response: ok }, state).map((v) => v.rule)).toEqual(['method-refused']);
  });

  it('holds a listed method spelled in another case to be a method the spec does not list (RFC 9110 §9.1), refused, 400 too; a keyless 2xx to it an auth failure', () => {
    const state = createRunState({ contract });
    state.declare({ method: 'DELETE', path: TOKEN }, 'exists');
    for (const method of ['delete', 'Delete', 'dElEtE']) {
      const allowed = allowedAnswers({ method, path: TOKEN, credential: 'full' }, state);
      expect(allowed.kind).toBe('unlisted-method');
      expect(allowed.statuses).toEqual(expect.arrayContaining([400, 404, 405, 501]));
      expect(allowed.statuses).not.toContain(204);
    }
    expect(allowedAnswers({ method: 'head', path: ENV, credential: 'full' }, state).kind).toBe('unlisted-method');
    expect(allowedAnswers({ method: 'PUT', path: ENV, credential: 'full' }, state).statuses).not.toContain(400);
    expect(judgeExchange({ request: { method: 'get', path: ENV, credential: 'none' }, response: { status: 200, headers: json, body: '[]' } }, state).map((v) => v.rule)).toEqual(['auth-required']);
    // A delete so spelled that succeeded deleted nothing the model counts: the token is still there for the real delete.
    state.observe({ request: { method: 'delete', path: TOKEN, credential: 'full' }, response: { status: 204, headers: {}, body: '' } });
    expect(state.fact({ method: 'DELETE', path: TOKEN })).toBe('exists');
  });
});

describe('credentialOf: the key read as the mock reads it (spec decision key-in-header-only)', () => {
  const keys = { full: 'full-key', restricted: 'viewer-key', allKnown: true };
  it.each([
    ['full-key', 'full'],
    ['Bearer full-key', 'full'],
    [' \tbearer   viewer-key\t', 'restricted'],
    ['full-key\u00a0', 'invalid'],
    ['\u3000full-key', 'invalid'],
    ['Bearer Bearer full-key', 'invalid'],
    ['Basic full-key', 'invalid'],
    [' ', 'none'],
  ])('reads %j as %s', (value, credential) => {
    expect(credentialOf(value, keys)).toBe(credential);
  });
});

describe('malformed-input-refusals: an id holding a C0 control character is malformed input', () => {
  it.each(['default%09', 'default%0A', 'odd%00id', 'x%7F', '%ZZ'])('tolerates 400 for the project %s, and no other undocumented status', (id) => {
    const path = `/api/admin/environments/project/${id}`;
    expect(toleratedRefusal(contract, 'GET', path, 400)).toBe(true);
    expect(toleratedRefusal(contract, 'GET', path, 418)).toBe(false);
    const state = createRunState({ contract });
    expect(judgeExchange({ request: { method: 'GET', path, credential: 'full' }, response: { status: 400, headers: { 'content-type': 'application/json' }, body: '{"id":"a","name":"ValidationError","message":"x"}' } }, state)).toEqual([]);
  });

  it('tolerates no 400 on an ordinary id', () => {
    expect(toleratedRefusal(contract, 'GET', ENV, 400)).toBe(false);
  });
});

describe('requests-independent: requests sent at once', () => {
  const error = (id: string) => ({ status: 401, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, name: 'AuthenticationRequired', message: 'x' }) });
  it('finds an error id shared by two answers of one batch', () => {
    const state = createRunState({ contract });
    const verdicts = judgeConcurrent([{ request: { method: 'GET', path: ENV, credential: 'none' }, response: error('e-1'), seq: 1 }, { request: { method: 'GET', path: ENV, credential: 'invalid' }, response: error('e-1'), seq: 2 }], state);
    expect(verdicts.map((v) => v.map((x) => x.rule))).toEqual([[], ['error-id-unique']]);
  });

  it('judges deletes of two different existing tokens sent at once as if alone: a 404 is no race there', () => {
    const state = createRunState({ contract });
    const other = '/api/admin/service-account/2/token/4';
    state.declare({ method: 'DELETE', path: TOKEN }, 'exists');
    state.declare({ method: 'DELETE', path: other }, 'exists');
    const verdicts = judgeConcurrent([{ request: { method: 'DELETE', path: TOKEN, credential: 'full' }, response: { status: 200, headers: {}, body: '' } }, { request: { method: 'DELETE', path: other, credential: 'full' }, response: { status: 404, headers: { 'content-type': 'application/json' }, body: '{"id":"e-3","name":"NotFoundError","message":"x"}' } }], state);
    expect(verdicts[1]!.map((v) => v.rule)).toContain('resource-exists');
  });
});

describe('content an operation does not take (spec decision malformed-input-refusals)', () => {
  const json = { 'content-type': 'application/json' };
  const refusal = (status: number) => ({ status, headers: json, body: JSON.stringify({ id: `e-${status}`, name: status === 404 ? 'NotFoundError' : 'ValidationError', message: 'no content here' }) });
  const UNKNOWN = '/api/admin/service-account/1/token/no-such-token';
  it('allows a refusal of it (400, 413, 415) or the answer without it, on the delete and on a method the spec does not list', () => {
    const state = createRunState({ contract });
    state.declare({ method: 'DELETE', path: UNKNOWN }, 'missing');
    for (const status of [400, 413, 415]) {
      expect(judgeExchange({ request: { method: 'DELETE', path: UNKNOWN, credential: 'full', content: true }, response: refusal(status) }, state).map((v) => v.rule), String(status)).toEqual([]);
      expect(judgeExchange({ request: { method: 'POST', path: ENV, credential: 'invalid', content: true }, response: refusal(status) }, state).map((v) => v.rule), String(status)).toEqual([]);
    }
    expect(judgeExchange({ request: { method: 'DELETE', path: UNKNOWN, credential: 'full', content: true }, response: refusal(404) }, state)).toEqual([]);
  });

  it('allows none of those refusals to the same request without content, and no success where the request without content gets none', () => {
    const state = createRunState({ contract });
    state.declare({ method: 'DELETE', path: UNKNOWN }, 'missing');
    expect(judgeExchange({ request: { method: 'DELETE', path: UNKNOWN, credential: 'full' }, response: refusal(415) }, state)).not.toEqual([]);
    expect(judgeExchange({ request: { method: 'DELETE', path: UNKNOWN, credential: 'full', content: true }, response: { status: 200, headers: {}, body: '' } }, state).map((v) => v.rule)).toEqual(['resource-missing']);
  });
});
