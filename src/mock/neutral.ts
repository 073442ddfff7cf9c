// The runtime-neutral exports of the mock (no node:* module, no file system, no `process`),
// shared by the browser entry (./browser.ts) and the Node entry (./index.ts). Ajv is not among
// its static imports: ./browser.ts bundles it, Node loads it on the first compile.
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
export { DEFAULT_MAX_RULES, MAX_RULE_COUNT, type StickyRule } from './layers/sticky-rules.ts';
export { createJournal, ENTRY_VERDICTS, type EntryVerdict, type Journal, type JournalEntry, type JournalFinding, type Judged } from './layers/journal.ts';
export { createRequestFacts, type RequestFacts } from './layers/request-facts.ts';
