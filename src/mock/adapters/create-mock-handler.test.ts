import { describe, expect, it } from 'vitest';
import { ContractError } from '../../contract/index.ts';
import { createMockHandler, DEFAULT_FIXTURES, type MockState } from '../index.ts';

const BASE = 'http://mock.test';
const ADMIN = { authorization: 'mock-admin-key' };

describe('createMockHandler: the mock as a Fetch handler, no server', () => {
  it('reads the environments of a project', async () => {
    const handler = createMockHandler();
    const response = await handler(new Request(`${BASE}/api/admin/environments/project/default`, { headers: ADMIN }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(((await response.json()) as { environments: { name: string }[] }).environments.map((e) => e.name)).toEqual(['development', 'production']);
  });

  it('keeps state between calls: a delete answers 200 with no body, then 404', async () => {
    const handler = createMockHandler();
    const remove = () => handler(new Request(`${BASE}/api/admin/service-account/1/token/2`, { method: 'DELETE', headers: ADMIN }));
    const first = await remove();
    expect([first.status, await first.text()]).toEqual([200, '']);
    const second = await remove();
    expect(second.status).toBe(404);
    expect(await second.json()).toMatchObject({ name: 'NotFoundError', message: 'Service account "1" has no token "2".' });
  });

  it('gives each handler its own state', async () => {
    const remove = (handler: ReturnType<typeof createMockHandler>) => handler(new Request(`${BASE}/api/admin/service-account/2/token/4`, { method: 'DELETE', headers: ADMIN }));
    const one = createMockHandler();
    await remove(one);
    expect((await remove(createMockHandler())).status).toBe(200);
  });

  it('answers errors as the server does: 401 without a key, 405 with Allow, ids still percent-encoded', async () => {
    const handler = createMockHandler();
    expect((await handler(new Request(`${BASE}/api/admin/auth/oidc/settings`))).status).toBe(401);
    const post = await handler(new Request(`${BASE}/api/admin/auth/oidc/settings`, { method: 'POST', headers: ADMIN, body: '{}' }));
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const encoded = await handler(new Request(`${BASE}/api/admin/environments/project/a%2Fb`, { headers: ADMIN }));
    expect(((await encoded.json()) as { message: string }).message).toBe('Project "a/b" does not exist.');
  });

  it('serves a state given as a value, and refuses a bad one naming its pointer', async () => {
    const state: MockState = { ...structuredClone(DEFAULT_FIXTURES), apiKeys: [{ key: 'only-key', permissions: ['getOidcSettings'] }] };
    const handler = createMockHandler({ fixtures: state });
    expect((await handler(new Request(`${BASE}/api/admin/auth/oidc/settings`, { headers: { authorization: 'only-key' } }))).status).toBe(200);
    expect((await handler(new Request(`${BASE}/api/admin/auth/oidc/settings`, { headers: ADMIN }))).status).toBe(401);
    const bad = createMockHandler({ fixtures: { ...state, projects: 'none' } as unknown as MockState });
    const error = await bad(new Request(`${BASE}/api/admin/auth/oidc/settings`)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).pointer).toBe('/projects');
  });
});
