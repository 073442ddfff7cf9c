import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, mockClient, paths } from '../../../test/http.ts';
import type { StartMockOptions } from '../index.ts';

const APP = 'http://localhost:8000';
let client: Awaited<ReturnType<typeof mockClient>> | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});
const start = async (options: StartMockOptions = {}) => (client = await mockClient(options));

/** What a browser sends before a cross-origin call that carries Authorization. */
const preflight = (origin: string, method = 'GET') => ({ origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,x-mock-session' });

describe('CORS, on by default', () => {
  it('answers a preflight with 204 before auth and routing, reflecting the origin and allowing the auth and mock headers', async () => {
    const { call } = await start();
    const answer = await call('OPTIONS', paths.token('1', '1'), undefined, preflight(APP, 'DELETE'));
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
    expect(answer.headers.get('access-control-allow-methods')).toBe('DELETE');
    const allowed = answer.headers.get('access-control-allow-headers')!.split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'prefer', 'x-mock-session', 'content-type']));
    expect(answer.headers.get('vary')).toContain('Origin');
  });

  it('adds Allow-Origin to the answer of a cross-origin call, and exposes the mock headers', async () => {
    const { call } = await start();
    const answer = await call('GET', paths.environments('default'), ADMIN_KEY, { origin: APP });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
    expect(answer.headers.get('access-control-expose-headers')).toContain('x-mock-session');
    const denied = await call('GET', paths.oidc(), undefined, { origin: APP });
    expect([denied.status, denied.headers.get('access-control-allow-origin')]).toEqual([401, APP]);
  });

  it('leaves a request without Origin untouched', async () => {
    const { call } = await start();
    const answer = await call('GET', paths.environments('default'), ADMIN_KEY);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('vary')).toBeNull();
  });

  it('still answers 405 to an OPTIONS that is not a preflight', async () => {
    const { call } = await start();
    expect((await call('OPTIONS', paths.oidc(), ADMIN_KEY, { origin: APP })).status).toBe(405);
  });

  it('with origins listed, serves those and refuses the others', async () => {
    const { call } = await start({ cors: { origins: [APP] } });
    expect((await call('OPTIONS', paths.oidc(), undefined, preflight(APP))).status).toBe(204);
    const other = await call('OPTIONS', paths.oidc(), undefined, preflight('http://evil.test'));
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.text).toContain('http://evil.test is not one the mock allows');
    const read = await call('GET', paths.oidc(), ADMIN_KEY, { origin: 'http://evil.test' });
    expect([read.status, read.headers.get('access-control-allow-origin')]).toEqual([200, null]);
  });

  it('turned off, answers a preflight 405 like any OPTIONS and adds no header', async () => {
    const { call } = await start({ cors: false });
    const answer = await call('OPTIONS', paths.oidc(), undefined, preflight(APP));
    expect([answer.status, answer.headers.get('access-control-allow-origin')]).toEqual([405, null]);
    expect((await call('GET', paths.oidc(), ADMIN_KEY, { origin: APP })).headers.get('access-control-allow-origin')).toBeNull();
  });
});
