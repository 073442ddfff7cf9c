export { ContractError } from './contract-error.ts';
export { readJsonFile } from './read-json-file.ts';
export { DEFAULT_SPEC_FILE, loadContract, type Contract, type LoadContractOptions } from './load-contract.ts';
export { responseFor, type Operation, type ResponseContract } from './operation.ts';
export { decodePathParams, type DecodedParams, type RouteMatch } from './route-matcher.ts';
export { closeSchema, compileValidator, createAjv, type JsonSchema, type SchemaViolation, type Validate } from './schema-validator.ts';
export { pointerOf, pointerTokens, resolvePointer } from './json-pointer.ts';
export { REDACTED, pointsIntoSecret, redactSecrets } from './secrets.ts';
export type * from './types.gen.ts';
