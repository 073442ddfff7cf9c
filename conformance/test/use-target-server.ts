import { afterEach, beforeAll } from 'vitest';
import { loadContract, type Contract } from '../../src/contract/index.ts';
import type { RunningServer } from '../../src/mock/index.ts';

export interface TargetServer {
  /** The contract, loaded once before the file's tests (unvalidated: the spec's own tests validate it). */
  readonly contract: Contract;
  /** The target a test started; closed (if set) after each test, so a failing test never leaks a listener. */
  server: RunningServer | undefined;
}

/** Registers the set-up most conformance tests share: the contract loaded in beforeAll, one target server closed after each test. */
export function useTargetServer(): TargetServer {
  let contract: Contract | undefined;
  const state: TargetServer = {
    get contract(): Contract {
      if (!contract) throw new Error('useTargetServer: the contract is loaded in beforeAll; read it inside a test or hook');
      return contract;
    },
    server: undefined,
  };
  beforeAll(async () => {
    contract = await loadContract({ validate: false });
  });
  afterEach(async () => {
    await state.server?.close();
    state.server = undefined;
  });
  return state;
}
