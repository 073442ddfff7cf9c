import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, mockClient, paths } from '../../../test/http.ts';

let client: Awaited<ReturnType<typeof mockClient>> | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});
const session = (name: string) => ({ 'x-mock-session': name });

describe('sessions (X-Mock-Session)', () => {
  it('gives each session its own copy of the state, made from the fixtures on first use', async () => {
    const { call } = (client = await mockClient());
    expect((await call('DELETE', paths.token('1', '1'), ADMIN_KEY, session('worker-1'))).status).toBe(200);
    expect((await call('DELETE', paths.token('1', '1'), ADMIN_KEY, session('worker-1'))).status).toBe(404);
    // Another worker, and the default session, still have the token.
    expect((await call('DELETE', paths.token('1', '1'), ADMIN_KEY, session('worker-2'))).status).toBe(200);
    expect((await call('DELETE', paths.token('1', '1'), ADMIN_KEY)).status).toBe(200);
    expect(client.mock.store.snapshot().serviceAccounts[0]!.tokens.map((t) => t.id)).toEqual(['2', '3']);
  });

  it('names the session that served an answer in X-Mock-Session', async () => {
    const { call } = (client = await mockClient());
    expect((await call('GET', paths.oidc(), ADMIN_KEY, session('worker-1'))).headers.get('x-mock-session')).toBe('worker-1');
    expect((await call('GET', paths.oidc(), ADMIN_KEY)).headers.get('x-mock-session')).toBeNull();
  });

  it('treats "default" and an empty header as the default session', async () => {
    const { call } = (client = await mockClient());
    await call('DELETE', paths.token('2', '4'), ADMIN_KEY, session('default'));
    expect((await call('DELETE', paths.token('2', '4'), ADMIN_KEY, session(''))).status).toBe(404);
  });

  it('keeps at most maxSessions named sessions, dropping the least recently used', async () => {
    const { call } = (client = await mockClient({ maxSessions: 2 }));
    for (const name of ['a', 'b']) await call('DELETE', paths.token('1', '1'), ADMIN_KEY, session(name));
    await call('GET', paths.oidc(), ADMIN_KEY, session('a')); // a is now the most recently used
    await call('GET', paths.oidc(), ADMIN_KEY, session('c')); // so b goes
    expect((await call('GET', '/__mock/sessions')).json).toEqual({ sessions: ['default', 'a', 'c'], maxSessions: 2 });
    expect((await call('DELETE', paths.token('1', '1'), ADMIN_KEY, session('a'))).status).toBe(404);
    // b starts again from the fixtures.
    expect((await call('DELETE', paths.token('1', '1'), ADMIN_KEY, session('b'))).status).toBe(200);
  });

  it('refuses a session name that cannot be one, with 400 and why', async () => {
    const { call } = (client = await mockClient());
    const answer = await call('GET', paths.oidc(), ADMIN_KEY, session('a b/c'));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ name: 'MockSessionError', message: expect.stringContaining('1 to 64 characters') });
  });
});
