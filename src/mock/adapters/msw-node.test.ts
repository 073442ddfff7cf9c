import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleRequest } from '../../../test/example-requests.ts';
import { ADMIN_KEY } from '../../../test/http.ts';
import { loadContract, type Contract } from '../../contract/index.ts';
import { createMockHandler } from '../index.ts';

// The README's "Mount it in MSW" for Node, as written there: MSW intercepts the app's fetch and
// hands the Request to the mock's Fetch handler. A closed loopback port: nothing listens there,
// so an answer can only have come from MSW.
const API = 'http://127.0.0.1:1';
const mock = createMockHandler();
const server = setupServer(http.all(`${API}/api/admin/*`, ({ request }) => mock(request)));

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract({ validate: false, lazyValidators: true });
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => server.close());

describe('the mock mounted in MSW setupServer', () => {
  it('answers a token delete 200, and the same delete again 404: the state lives on between requests', async () => {
    const { method, path } = exampleRequest(contract, contract.operation('deleteServiceAccountToken'));
    const del = () => fetch(API + path, { method, headers: { authorization: ADMIN_KEY } });
    const first = await del();
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('');
    const again = await del();
    expect(again.status).toBe(404);
    expect(((await again.json()) as { name: string }).name).toBe('NotFoundError');
  });

  it('answers the reads as the server does, auth included', async () => {
    const { method, path } = exampleRequest(contract, contract.operation('getProjectEnvironments'));
    const read = await fetch(API + path, { method, headers: { authorization: ADMIN_KEY } });
    expect(read.status).toBe(200);
    expect(contract.operation('getProjectEnvironments').responses.get('200')!.validate(await read.json())).toEqual([]);
    const noKey = await fetch(API + path, { method });
    expect(noKey.status).toBe(401);
  });
});
