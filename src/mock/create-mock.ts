import type { Contract } from '../contract/index.ts';
import type { NewId } from './errors.ts';
import { loadFixtures, type FixtureSource } from './fixtures.ts';
import { createHandle } from './handle.ts';
import { withSelfCheck } from './self-check.ts';
import { createStore, type Store } from './store.ts';
import type { Handle } from './types.ts';

export interface CreateMockOptions {
  contract: Contract;
  /**
   * The initial state: a JSON file or a state value.
   * @default fixtures/default.json
   * @example createMock({ contract, fixtures: 'fixtures/empty-project.json' })
   */
  fixtures?: FixtureSource;
  /**
   * Check every response against the spec before it is sent (a violation becomes a 500 and a
   * logged MockSelfCheckError).
   * @default process.env.FLAG_ADMIN_MOCK_SELF_CHECK === '1' (set by the test suite)
   */
  selfCheck?: boolean;
  /** Makes error ids; inject one to pin them. @default crypto.randomUUID */
  newId?: NewId;
}

export interface Mock {
  handle: Handle;
  store: Store;
}

export function createMock(options: CreateMockOptions): Mock {
  const { contract, selfCheck = process.env.FLAG_ADMIN_MOCK_SELF_CHECK === '1' } = options;
  const store = createStore(loadFixtures(contract, options.fixtures));
  const handle = createHandle({ contract, store, newId: options.newId });
  return { handle: selfCheck ? withSelfCheck(contract, handle) : handle, store };
}
