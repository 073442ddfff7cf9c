// The runtime-neutral part of src/contract (no node:* module, no swagger-parser): what the mock
// core and a browser bundle import. index.ts adds loadContract, which reads files.
export { ContractError } from './contract-error.ts';
export { createContract, type Contract, type CreateContractOptions } from './create-contract.ts';
export { dereferenceLocal } from './dereference-local.ts';
export { responseFor, type Operation, type ResponseContract } from './operation.ts';
export { decodedOrAsIs, decodePathParams, type DecodedParams, type RouteMatch } from './route-matcher.ts';
export { closeSchema, compileValidator, createAjv, type JsonSchema, type SchemaViolation, type Validate } from './schema-validator.ts';
export { pointerOf, pointerTokens, resolvePointer } from './json-pointer.ts';
export { REDACTED, pointsIntoSecret, redactSecrets } from './secrets.ts';
export { presentedKey } from './presented-key.ts';
export { mediaTypeMatches, parseMediaType, type MediaType } from './media-type.ts';
export type * from './types.gen.ts';
