import type { Contract, Operation } from '../src/contract/index.ts';

/** A request a client would send for an operation: its method and its path with the spec's examples. */
export interface ExampleRequest {
  operationId: string;
  method: string;
  path: string;
}

/**
 * Fills each path parameter with the `example` the spec gives it, so tests call the resources the
 * spec itself shows (project `default`, token 2 of service account 1) without copying them here.
 */
export function exampleRequest(contract: Contract, operation: Operation): ExampleRequest {
  const item = (contract.document.paths as Record<string, Record<string, { parameters?: { name: string; in: string; example?: unknown }[] }>>)[operation.path];
  const parameters = item?.[operation.method.toLowerCase()]?.parameters ?? [];
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const example = parameters.find((p) => p.in === 'path' && p.name === name)?.example;
    if (example === undefined) throw new Error(`${operation.operationId}: the spec gives path parameter ${name} no example`);
    return encodeURIComponent(String(example));
  });
  return { operationId: operation.operationId, method: operation.method, path };
}

export function exampleRequests(contract: Contract): ExampleRequest[] {
  return contract.operations.map((operation) => exampleRequest(contract, operation));
}
