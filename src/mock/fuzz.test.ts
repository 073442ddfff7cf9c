import { afterAll, beforeAll, expect, it } from 'vitest';
import { seededRandom } from '../../test/seeded-random.ts';
import { loadContract } from '../contract/index.ts';
import { ADMIN_KEY, mockClient } from '../../test/http.ts';


const SEED = 20261122;
const PIECES = ['api', 'admin', 'environments', 'project', 'auth', 'oidc', 'settings', 'service-account', 'token', 'default', '1', '2', '', '..', '.', '%', '%2F', '%00', '%ZZ', '%E0%A4%A', '%C3%A9', '~', '{id}', 'a'.repeat(500), ';x=1', '?q', '#f'];
const METHODS = ['GET', 'DELETE', 'POST', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'];
const KEYS = [ADMIN_KEY, 'mock-viewer-key', 'Bearer mock-admin-key', 'wrong', undefined];

let client: Awaited<ReturnType<typeof mockClient>>;
let templates: string[];
beforeAll(async () => {
  const contract = await loadContract({ validate: false });
  templates = contract.operations.map((o) => o.path);
  client = await mockClient({ contract });
});
afterAll(() => client.close());

it(`never answers 5xx to 600 random requests (seed ${SEED}), and keeps serving`, async () => {
  const next = seededRandom(SEED);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const failures: string[] = [];
  for (let i = 0; i < 600; i++) {
    // Half the paths are the spec's own templates with hostile ids, half are random segments.
    const path =
      next() < 0.5
        ? pick(templates).replace(/\{[^}]+\}/g, () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(PIECES)).join(''))
        : '/' + Array.from({ length: 1 + Math.floor(next() * 7) }, () => pick(PIECES)).join('/');
    const method = pick(METHODS);
    const answer = await client.call(method, path, pick(KEYS));
    // Every answer the mock gives passes its self-check (FLAG_ADMIN_MOCK_SELF_CHECK=1), else it is a 500.
    if (answer.status >= 500) failures.push(`${method} ${path} -> ${answer.status} ${answer.text}`);
  }
  expect(failures).toEqual([]);
  expect((await client.call('GET', '/api/admin/auth/oidc/settings', ADMIN_KEY)).status).toBe(200);
});
