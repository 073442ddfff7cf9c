import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../contract/index.ts';
import { createHandle, createStore, loadFixtures, operationHandlers } from './testing.ts';
import { serveHandler, withSelfCheck, type RunningServer } from './index.ts';
import type { DispatchedHandler } from './core/operations/index.ts';

let contract: Contract;
let server: RunningServer | undefined;
beforeAll(async () => (contract = await loadContract({ validate: false })));
afterEach(() => server?.close());

async function serveBroken(overrides: Record<string, DispatchedHandler>) {
  const handle = createHandle({ contract, store: createStore(loadFixtures(contract)), handlers: { ...operationHandlers, ...overrides } });
  const errors: unknown[] = [];
  server = await serveHandler(withSelfCheck(contract, handle), { port: 0, onError: (e) => errors.push(e) });
  const response = await fetch(`${server.url}/api/admin/auth/oidc/settings`, { headers: { authorization: 'mock-admin-key' } });
  return { status: response.status, body: (await response.json()) as { name: string; message: string; clientId: string }, errors };
}

describe('the self-check', () => {
  it('turns a response that breaks the spec into a 500 naming the violation', async () => {
    const { status, body, errors } = await serveBroken({ getOidcSettings: () => ({ status: 200, body: { defaultRootRole: 'Owner' } }) });
    expect(status).toBe(500);
    expect(body.name).toBe('MockInternalError');
    expect(body.message).toContain('/defaultRootRole: must be one of ["Viewer","Editor","Admin"] (/components/schemas/OidcSettings/properties/defaultRootRole/enum)');
    expect(errors).toHaveLength(1);
  });

  it('catches a status the spec does not document', async () => {
    const { status, body } = await serveBroken({ getOidcSettings: () => ({ status: 404, error: 'gone' }) });
    expect(status).toBe(500);
    expect(body.message).toContain('status 404 is not documented for getOidcSettings');
  });

  it('lets a conforming response through unchanged', async () => {
    const { status, body } = await serveBroken({});
    expect(status).toBe(200);
    expect(body.clientId).toBe('flag-admin');
  });
});
