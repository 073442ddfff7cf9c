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
