import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../contract/index.ts';
import { DEFAULT_FIXTURES } from './default-fixtures.ts';
import { createHandle } from './handle.ts';
import { createStore } from './store.ts';
import type { MockRequest } from './types.ts';

let contract: Contract;
beforeAll(async () => (contract = await loadContract({ validate: false })));
const get = (url: string): MockRequest => ({ method: 'GET', url, headers: { authorization: 'mock-admin-key' } });

describe('the contract core renders a read once per state change', () => {
  it('serves the same rendered answer until the state changes, then renders it again', () => {
    const store = createStore(DEFAULT_FIXTURES);
    const handle = createHandle({ contract, store });
    const first = handle(get('/api/admin/environments/project/default'));
    expect(handle(get('/api/admin/environments/project/default?again'))).toBe(first);
    // The same id spelt with percent-encoding is the same resource: the same answer, rendered anew.
    expect(handle(get('/api/admin/environments/project/%64efault'))).toEqual(first);
    expect(store.deleteToken('1', '1')).toBe(true);
    const after = handle(get('/api/admin/environments/project/default'));
    expect(after).not.toBe(first);
    expect(after).toEqual(first);
  });

  it('renders errors every time (each has a fresh id) and keeps auth ahead of the rendered answers', () => {
    const handle = createHandle({ contract, store: createStore(DEFAULT_FIXTURES) });
    const missing = [handle(get('/api/admin/environments/project/nope')), handle(get('/api/admin/environments/project/nope'))];
    expect(JSON.parse(missing[0]!.body!).id).not.toBe(JSON.parse(missing[1]!.body!).id);
    handle(get('/api/admin/auth/oidc/settings'));
    expect(handle({ method: 'GET', url: '/api/admin/auth/oidc/settings', headers: { authorization: 'mock-viewer-key' } }).status).toBe(403);
    expect(handle({ method: 'GET', url: '/api/admin/auth/oidc/settings', headers: {} }).status).toBe(401);
  });
});
