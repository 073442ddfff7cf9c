import type { Contract } from '../../contract/neutral.ts';
import type { MockResponse } from './types.ts';

/**
 * Error kinds by status, read from the spec: each documented error response fixes its `name`
 * (API §7). The mock never types a kind the spec already holds.
 */
export function errorKindsByStatus(contract: Contract): ReadonlyMap<number, string> {
  const kinds = new Map<number, string>();
  for (const operation of contract.operations) {
    for (const response of operation.responses.values()) {
      if (response.errorKind && /^\d{3}$/.test(response.status)) kinds.set(Number(response.status), response.errorKind);
    }
  }
  return kinds;
}

/**
 * Kinds of the mock's own answers to requests outside the spec (a method the spec does not list
 * for a path). The error body shape is still the spec's `{id, name, message}`.
 */
export const MOCK_ERROR_KINDS = { 405: 'MethodNotAllowedError', 500: 'MockInternalError' } as const;

export type NewId = () => string;
// Web Crypto: in Node, browsers (secure contexts) and service workers alike.
export const randomIds: NewId = () => crypto.randomUUID();

export function errorResponse(status: number, name: string, message: string, newId: NewId, headers: Record<string, string> = {}): MockResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ id: newId(), name, message }),
  };
}

/** A request body over the adapter's limit: whoever reads the body answers 413. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}
