import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/index.ts';
import { allowedAnswers, createRunState, credentialOf, judgeExchange } from './index.ts';

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
