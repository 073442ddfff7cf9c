import { afterAll, beforeAll, expect, it } from 'vitest';
import { seededRandom } from '../../../test/seeded-random.ts';
import { ADMIN_KEY, mockClient } from '../../../test/http.ts';


const SEED = 20261123;
const PATHS = ['/api/admin/environments/project/default', '/api/admin/auth/oidc/settings', '/api/admin/service-account/1/token/2', '/__mock/state', '/__mock/reset', '/__mock/journal?status=2000', '/__mock/journal?since=x&operationId=y', '/__mock/rules', '/__mock/sessions', '/__mock/openapi.json', '/__mock/', '/__mock/%ZZ'];
const PREFERS = [undefined, 'code=200', 'code=404', 'code=999', 'code=', 'example=oidcDisabled', 'example=', 'example="x y"', 'delay=0', 'delay=1', 'delay=1e9', 'code=403, delay=2', 'return=minimal', ';;,,=', 'code=400;x=1'];
const SESSIONS = [undefined, '', 'a', 'default', 'x'.repeat(65), 'bad name', 'ü'];
const BODIES = [undefined, '', '{', 'null', '[]', '{"operationId":"getOidcSettings","code":400}', '{"operationId":"getOidcSettings"}', '{"operationId":"nope","delay":-1}', '{"apiKeys":[]}', JSON.stringify({ operationId: 'deleteServiceAccountToken', example: 'x', count: 1 })];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

let client: Awaited<ReturnType<typeof mockClient>>;
beforeAll(async () => (client = await mockClient()));
afterAll(() => client.close());

it(`never answers 5xx to 400 random requests at the layers (seed ${SEED}), and keeps serving`, async () => {
  const next = seededRandom(SEED);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const failures: string[] = [];
  for (let i = 0; i < 400; i++) {
    const [method, path, prefer, session, body] = [pick(METHODS), pick(PATHS), pick(PREFERS), pick(SESSIONS), pick(BODIES)];
    const headers: Record<string, string> = {};
    if (prefer !== undefined) headers.prefer = prefer;
    if (session !== undefined) headers['x-mock-session'] = encodeURIComponent(session) === session ? session : 'invalid%';
    if (next() < 0.3) Object.assign(headers, { origin: 'http://localhost:8000', 'access-control-request-method': pick(METHODS) });
    const answer = await client.call(method, path, next() < 0.8 ? ADMIN_KEY : undefined, headers, method === 'GET' || method === 'OPTIONS' ? undefined : body);
    if (answer.status >= 500) failures.push(`${method} ${path} ${JSON.stringify(headers)} ${body} -> ${answer.status} ${answer.text}`);
  }
  expect(failures).toEqual([]);
  await client.call('DELETE', '/__mock/rules');
  expect((await client.call('GET', '/api/admin/auth/oidc/settings', ADMIN_KEY)).status).toBe(200);
});
