import { createMockApp, type MockAppOptions } from '../layers/mock-app.ts';
import { toFetchHandler, type FetchHandler } from './fetch-handler.ts';

export type MockHandlerOptions = MockAppOptions;

/**
 * The whole mock (CORS, control API, sessions, journal, forced answers) as a Fetch handler,
 * `(request: Request) => Promise<Response>`, for tests that want no server, MSW and service
 * workers. Runtime-neutral: give it a contract made with createContract (or loadContract in
 * Node) and, optionally, a state value.
 * @example
 * const handler = createMockHandler({ contract });
 * const response = await handler(new Request('http://mock/api/admin/auth/oidc/settings', { headers: { authorization: 'mock-admin-key' } }));
 */
export function createMockHandler(options: MockHandlerOptions): FetchHandler {
  return toFetchHandler(createMockApp(options).handle);
}
