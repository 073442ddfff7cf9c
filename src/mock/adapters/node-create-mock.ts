import type { Contract } from '../../contract/index.ts';
import { createMock as createCoreMock, type CreateMockOptions as CoreOptions, type Mock } from '../core/create-mock.ts';
import { loadFixtures, type FixtureSource } from './node-fixture-files.ts';

export interface CreateMockOptions extends Omit<CoreOptions, 'fixtures' | 'selfCheck'> {
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
}

/** The node default of `selfCheck`: on under the test suite (vitest.config.ts sets the variable). */
export function selfCheckFromEnv(): boolean {
  return process.env.FLAG_ADMIN_MOCK_SELF_CHECK === '1';
}

/** createMock of the core, taking fixtures from a file as well (node only). */
export function createMock(options: CreateMockOptions): Mock {
  const { fixtures, selfCheck = selfCheckFromEnv(), ...rest } = options;
  return createCoreMock({ ...rest, selfCheck, fixtures: fixtures === undefined ? undefined : loadFixtures(options.contract, fixtures) });
}
