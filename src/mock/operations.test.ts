import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, VIEWER_KEY, mockClient, paths } from '../../test/http.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let client: Awaited<ReturnType<typeof mockClient>>;
beforeAll(async () => (client = await mockClient()));
afterAll(() => client.close());

describe('getProjectEnvironments', () => {
  it('returns only the environments enabled in the project, in sort order', async () => {
    const answer = await client.call('GET', paths.environments('default'), ADMIN_KEY);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.json.version).toBe(1);
    expect(answer.json.environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production']);
    expect(answer.json.environments.every((e: { enabled: boolean }) => e.enabled)).toBe(true);
    const production = answer.json.environments[1];
    expect(production).toMatchObject({ type: 'production', protected: true, sortOrder: 200, projectApiTokenCount: 1, projectEnabledToggleCount: 6 });
    expect(production.defaultStrategy.constraints[0]).toEqual({ contextName: 'userId', operator: 'IN', values: ['1024', '2048'], inverted: false, caseInsensitive: false });
    expect(production.defaultStrategy.variants).toHaveLength(2);
    expect(production.defaultStrategy.segments).toEqual([1, 3]);
  });

  it("answers each project with its own configuration", async () => {
    const answer = await client.call('GET', paths.environments('mobile-app'), ADMIN_KEY);
    expect(answer.json.environments.map((e: { name: string }) => e.name)).toEqual(['staging', 'production']);
  });

  it('does not return an environment that exists but is not enabled in the project', async () => {
    const names = (await client.call('GET', paths.environments('default'), ADMIN_KEY)).json.environments.map((e: { name: string }) => e.name);
    expect(names).not.toContain('staging');
    expect(names).not.toContain('sandbox');
  });

  it('returns 404 NotFoundError for an unknown project', async () => {
    const answer = await client.call('GET', paths.environments('no-such-project'), ADMIN_KEY);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.json).toEqual({ id: expect.stringMatching(UUID), name: 'NotFoundError', message: 'Project "no-such-project" does not exist.' });
  });

  it('gives every error a fresh id', async () => {
    const first = await client.call('GET', paths.environments('x'), ADMIN_KEY);
    const second = await client.call('GET', paths.environments('x'), ADMIN_KEY);
    expect(first.json.id).not.toBe(second.json.id);
  });
});

describe('getOidcSettings', () => {
  it('returns every OIDC setting of the default state', async () => {
    const answer = await client.call('GET', paths.oidc(), ADMIN_KEY);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(Object.keys(answer.json).sort()).toEqual(
      ['acrValues', 'addGroupsScope', 'autoCreate', 'clientId', 'defaultRootRole', 'defaultRootRoleId', 'discoverUrl', 'emailDomains', 'enableGroupSyncing', 'enableSingleSignOut', 'enabled', 'groupJsonPath', 'idTokenSigningAlgorithm', 'secret'],
    );
    expect(answer.json).toMatchObject({ enabled: true, defaultRootRole: 'Editor', idTokenSigningAlgorithm: 'RS256' });
  });

  it('ignores a query string', async () => {
    expect((await client.call('GET', `${paths.oidc()}?x=1`, ADMIN_KEY)).status).toBe(200);
  });
});

describe('auth', () => {
  const cases = [
    ['GET', paths.environments('default'), 200],
    ['GET', paths.oidc(), 403],
    ['DELETE', paths.token('1', '1'), 403],
  ] as const;

  it.each(cases)('%s %s answers 401 AuthenticationRequired without a key', async (method, path) => {
    const answer = await client.call(method, path);
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ name: 'AuthenticationRequired', id: expect.stringMatching(UUID) });
  });

  it.each(cases)('%s %s answers 401 AuthenticationRequired given an unknown key', async (method, path) => {
    const answer = await client.call(method, path, 'not-a-key');
    expect(answer.status).toBe(401);
    expect(answer.json.name).toBe('AuthenticationRequired');
    expect(answer.text).not.toContain('not-a-key');
  });

  it.each(cases)('%s %s answers %i to the viewer key', async (method, path, status) => {
    const answer = await client.call(method, path, VIEWER_KEY);
    expect(answer.status).toBe(status);
    if (status === 403) expect(answer.json).toMatchObject({ name: 'NoAccessError' });
  });

  it('checks auth before looking the resource up', async () => {
    expect((await client.call('GET', paths.environments('no-such-project'))).status).toBe(401);
    expect((await client.call('DELETE', paths.token('9', '9'), VIEWER_KEY)).status).toBe(403);
  });

  it('accepts the key as a Bearer token too', async () => {
    expect((await client.call('GET', paths.oidc(), `Bearer ${ADMIN_KEY}`)).status).toBe(200);
    expect((await client.call('GET', paths.oidc(), `bearer ${VIEWER_KEY}`)).status).toBe(403);
  });

  it('answers 401 to an empty Authorization header', async () => {
    expect((await client.call('GET', paths.oidc(), '')).status).toBe(401);
  });
});

describe('deleteServiceAccountToken', () => {
  let tokens: Awaited<ReturnType<typeof mockClient>>;
  beforeEach(async () => (tokens = await mockClient()));
  afterEach(() => tokens.close());

  it('deletes a token: 200 with no body, and the token is gone', async () => {
    const answer = await tokens.call('DELETE', paths.token('1', '2'), ADMIN_KEY);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    expect(answer.headers.get('content-type')).toBeNull();
    const account = tokens.mock.store.snapshot().serviceAccounts.find((a) => a.id === '1');
    expect(account?.tokens.map((t) => t.id)).toEqual(['1', '3']);
  });

  it('returns 404 given a token already deleted', async () => {
    await tokens.call('DELETE', paths.token('1', '2'), ADMIN_KEY);
    const again = await tokens.call('DELETE', paths.token('1', '2'), ADMIN_KEY);
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ name: 'NotFoundError', message: 'Service account "1" has no token "2".' });
  });

  it("returns 404 for a token of another service account, and deletes nothing", async () => {
    const before = tokens.mock.store.snapshot();
    expect((await tokens.call('DELETE', paths.token('1', '4'), ADMIN_KEY)).status).toBe(404);
    expect(tokens.mock.store.snapshot()).toEqual(before);
    expect((await tokens.call('DELETE', paths.token('2', '4'), ADMIN_KEY)).status).toBe(200);
  });

  it('returns 404 for an unknown token or an unknown service account', async () => {
    expect((await tokens.call('DELETE', paths.token('1', '99'), ADMIN_KEY)).status).toBe(404);
    expect((await tokens.call('DELETE', paths.token('99', '1'), ADMIN_KEY)).status).toBe(404);
  });

  it('lets exactly one of many concurrent deletes of one token succeed', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => tokens.call('DELETE', paths.token('2', '5'), ADMIN_KEY)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 404)).toHaveLength(19);
  });

  it('keeps a token when the key lacks the permission', async () => {
    expect((await tokens.call('DELETE', paths.token('1', '1'), VIEWER_KEY)).status).toBe(403);
    expect((await tokens.call('DELETE', paths.token('1', '1'), ADMIN_KEY)).status).toBe(200);
  });

  it('starts each mock from its own copy of the fixtures', async () => {
    await tokens.call('DELETE', paths.token('1', '1'), ADMIN_KEY);
    const other = await mockClient();
    try {
      expect((await other.call('DELETE', paths.token('1', '1'), ADMIN_KEY)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
