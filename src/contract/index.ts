export * from './neutral.ts';
export { DEFAULT_SPEC_FILE, loadContract, type LoadContractOptions } from './load-contract.ts';
export { readJsonFile } from './read-json-file.ts';
