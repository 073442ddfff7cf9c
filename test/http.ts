import { afterEach } from 'vitest';
import { startMock, type RunningMock, type StartMockOptions } from '../src/mock/index.ts';
import { SESSION_HEADER } from '../src/mock/layers/sessions.ts';

export const ADMIN_KEY = 'mock-admin-key';
export const VIEWER_KEY = 'mock-viewer-key';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when empty. */
  json: any;
}

/** A mock on a free port with helpers to call it as a client would. */
export async function mockClient(options: StartMockOptions = {}) {
  const mock: RunningMock = await startMock({ port: 0, onResponse: undefined, ...options });
  const call = async (method: string, path: string, key?: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> => {
    const response = await fetch(mock.url + path, { method, headers: { ...(key === undefined ? {} : { authorization: key }), ...headers }, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
  };
  return { mock, call, close: () => mock.close() };
}

export type MockClient = Awaited<ReturnType<typeof mockClient>>;

/**
 * The set-up mock tests share: `start(options)` runs a mock client that is closed after each test
 * (so a failing test never leaks a listener), `client` is the one running.
 */
export function useMockClient(): { start(options?: StartMockOptions): Promise<MockClient>; readonly client: MockClient } {
  let client: MockClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  return {
    start: async (options = {}) => (client = await mockClient(options)),
    get client(): MockClient {
      if (!client) throw new Error('useMockClient: start() a mock first');
      return client;
    },
  };
}

/** The headers that put a request in the mock's session `name`. */
export const sessionHeader = (name: string) => ({ [SESSION_HEADER]: name });

export const paths = {
  environments: (projectId: string) => `/api/admin/environments/project/${projectId}`,
  oidc: () => '/api/admin/auth/oidc/settings',
  token: (accountId: string, tokenId: string) => `/api/admin/service-account/${accountId}/token/${tokenId}`,
};
