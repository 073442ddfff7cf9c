import { loadContract, type Contract } from '../../contract/index.ts';
import { createMockHandler as createCoreHandler, type MockHandlerOptions as CoreOptions } from './create-mock-handler.ts';
import type { FetchHandler } from './fetch-handler.ts';
import { selfCheckFromEnv } from './node-create-mock.ts';
import { loadFixtures, nodeFixtureLabels, type FixtureSource } from './node-fixture-files.ts';

export interface MockHandlerOptions extends Omit<CoreOptions, 'contract' | 'fixtures'> {
  /** A contract already loaded. @default the kit's spec, loaded on the first request */
  contract?: Contract;
  /** The initial state: a JSON file or a state value. @default fixtures/default.json */
  fixtures?: FixtureSource;
}

/**
 * createMockHandler for Node: the same Fetch handler, with the kit's spec loaded on first use
 * and fixtures from a file. A bad fixture rejects the first request's promise, naming the file.
 * @example const handler = createMockHandler(); const response = await handler(new Request('http://mock/api/admin/auth/oidc/settings'));
 */
export function createMockHandler(options: MockHandlerOptions = {}): FetchHandler {
  const { fixtures, selfCheck = selfCheckFromEnv(), ...rest } = options;
  const build = (contract: Contract) =>
    createCoreHandler({ ...rest, contract, selfCheck, fixtures: fixtures === undefined ? undefined : loadFixtures(contract, fixtures), fixtureLabels: nodeFixtureLabels(contract) });
  if (options.contract) return build(options.contract);
  let handler: Promise<FetchHandler> | undefined;
  return async (request, context) => (await (handler ??= loadContract({ validate: false, lazyValidators: true }).then(build)))(request, context);
}
