import { loadContract, type Contract } from '../../contract/index.ts';
import type { Store } from '../core/store.ts';
import { createMock, type CreateMockOptions } from './node-create-mock.ts';
import { withNodeDocs } from './node-docs.ts';
import { serveHandler, type RunningServer, type ServeOptions } from './node-server.ts';

export interface StartMockOptions extends Omit<CreateMockOptions, 'contract'>, ServeOptions {
  /** A contract already loaded; by default the kit's spec is loaded (without re-validating it). */
  contract?: Contract;
}

export interface RunningMock extends RunningServer {
  store: Store;
}

/**
 * Starts the stateful mock over HTTP.
 * @example const mock = await startMock({ port: 0 }); await fetch(`${mock.url}/api/admin/...`); await mock.close();
 */
export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const contract = options.contract ?? (await loadContract({ validate: false, lazyValidators: true }));
  const { handle, store } = createMock({ ...options, contract });
  const server = await serveHandler(withNodeDocs(handle, contract, options.fixtures), options);
  return { ...server, store };
}
