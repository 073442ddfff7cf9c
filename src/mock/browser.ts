// The runtime-neutral entry of the mock: no node:* module, no file system, no `process`. What a
// browser page, a service worker (MSW's setupWorker) or any Fetch-based host imports. The spec
// and the fixtures come in as values (createContract(document), `fixtures: state`).
// A test bundles this file for a browser with esbuild and fails on any Node import.
export { ContractError, createContract, type Contract, type CreateContractOptions } from '../contract/neutral.ts';
export { createMock, type CreateMockOptions, type Mock } from './core/create-mock.ts';
export { DEFAULT_FIXTURES } from './core/default-fixtures.ts';
export { checkFixtures } from './core/fixture-check.ts';
export { createHandle, type CreateHandleOptions } from './core/handle.ts';
export { operationHandlers } from './core/operations/index.ts';
export { MockSelfCheckError, withSelfCheck } from './core/self-check.ts';
export type { MockState } from './core/state.ts';
export type { Store } from './core/store.ts';
export type { Handle, MockHandle, MockRequest, MockResponse } from './core/types.ts';
export { createMockHandler, type MockHandlerOptions } from './adapters/create-mock-handler.ts';
export { toFetchHandler, type FetchContext, type FetchHandler } from './adapters/fetch-handler.ts';
export { createMockApp, DEFAULT_MAX_SESSIONS, type MockApp, type MockAppOptions } from './layers/mock-app.ts';
export { CONTROL_API_DOCUMENT, CONTROL_API_PREFIX } from './layers/control-api-document.ts';
export { CONTROL_TOKEN_HEADER } from './layers/control.ts';
export { MAX_DELAY_MS } from './layers/prefer-header.ts';
export { DEFAULT_SESSION, SESSION_HEADER, type Session, type Sessions } from './layers/sessions.ts';
export type { StickyRule } from './layers/sticky-rules.ts';
export type { Journal, JournalEntry } from './layers/journal.ts';
export { createRequestFacts, type RequestFacts } from './layers/request-facts.ts';
