import { createRedactor } from '../../../conformance/report/secret-redactor.ts';
import { loadContract, type Contract } from '../../contract/index.ts';
import type { Store } from '../core/store.ts';
import { createMockApp, type MockApp, type MockAppOptions } from '../layers/mock-app.ts';
import { DEFAULT_SESSION } from '../layers/sessions.ts';
import { selfCheckFromEnv } from './node-create-mock.ts';
import { nodeDocsOptions } from './node-docs.ts';
import { loadFixtures, nodeFixtureLabels, type FixtureSource } from './node-fixture-files.ts';
import { DEFAULT_HOST, serveHandler, type RunningServer, type ServeOptions } from './node-server.ts';

export interface StartMockOptions extends Omit<MockAppOptions, 'contract' | 'fixtures' | 'fixtureLabels'>, ServeOptions {
  /** A contract already loaded; by default the kit's spec is loaded (without re-validating it). */
  contract?: Contract;
  /**
   * The initial state: a JSON file or a state value.
   * @default fixtures/default.json
   */
  fixtures?: FixtureSource;
}

export interface RunningMock extends RunningServer {
  /** The default session's Store (a reset or a replaced state gives it a new one). */
  readonly store: Store;
  /** The layers' state: sessions, journal; `setFixtures` serves new fixtures. */
  app: MockApp;
  contract: Contract;
}

/**
 * Starts the stateful mock over HTTP. The fixtures are checked before it listens.
 * @default selfCheck: process.env.FLAG_ADMIN_MOCK_SELF_CHECK === '1'
 * @example const mock = await startMock({ port: 0 }); await fetch(`${mock.url}/api/admin/...`); await mock.close();
 */
export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const contract = options.contract ?? (await loadContract({ validate: false, lazyValidators: true }));
  const { fixtures, selfCheck = selfCheckFromEnv(), ...rest } = options;
  // The bound host is a name clients use on purpose.
  const allowedHosts = [...(options.allowedHosts ?? []), options.host ?? DEFAULT_HOST];
  const app = createMockApp({ redactor: createRedactor, ...rest, allowedHosts, contract, selfCheck, fixtures: fixtures === undefined ? undefined : loadFixtures(contract, fixtures), fixtureLabels: nodeFixtureLabels(contract), docs: options.docs ?? nodeDocsOptions(contract, fixtures) });
  const server = await serveHandler(app.handle, options);
  return {
    ...server,
    get store() {
      return app.sessions.get(DEFAULT_SESSION).store;
    },
    app,
    contract,
  };
}
