import type { Contract } from '../../contract/neutral.ts';
import { DEFAULT_FIXTURES } from './default-fixtures.ts';
import type { NewId } from './errors.ts';
import { checkFixtures } from './fixture-check.ts';
import { createHandle } from './handle.ts';
import { withSelfCheck } from './self-check.ts';
import type { MockState } from './state.ts';
import { createStore, type Store } from './store.ts';
import type { Handle } from './types.ts';

export interface CreateMockOptions {
  contract: Contract;
  /**
   * The initial state as a value, checked like a fixture file (a bad one throws naming the
   * JSON pointer). The node entry also takes a file path here.
   * @default the embedded fixtures/default.json
   * @example createMock({ contract, fixtures: { ...state, apiKeys: [{ key: 'k', permissions: ['*'] }] } })
   */
  fixtures?: MockState;
  /**
   * Check every response against the spec before it is sent (a violation becomes a 500 and a
   * logged MockSelfCheckError).
   * @default false here; the node entry defaults to process.env.FLAG_ADMIN_MOCK_SELF_CHECK === '1'
   */
  selfCheck?: boolean;
  /** Makes error ids; inject one to pin them. @default crypto.randomUUID */
  newId?: NewId;
}

export interface Mock {
  handle: Handle;
  store: Store;
}

/** The socket-free core over one Store: `handle(request) -> response`, synchronous. */
export function createMock(options: CreateMockOptions): Mock {
  const { contract, selfCheck = false } = options;
  // The embedded default is checked by the test suite (fixtures.test.ts), not at every start:
  // compiling the fixture schema was the largest part of the mock's start-up (bench/RESULTS.md).
  const state = options.fixtures === undefined ? DEFAULT_FIXTURES : checkFixtures(contract, options.fixtures, '(fixtures object)');
  const store = createStore(state);
  const handle = createHandle({ contract, store, newId: options.newId });
  return { handle: selfCheck ? withSelfCheck(contract, handle) : handle, store };
}
