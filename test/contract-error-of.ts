import { ContractError } from '../src/contract/contract-error.ts';

/** The ContractError `fn` throws; any other outcome fails the test. */
export function contractErrorOf(fn: () => unknown): ContractError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ContractError) return error;
    throw error;
  }
  throw new Error('expected a ContractError');
}
