import { responseFor, type Operation, type ResponseContract } from '../../contract/neutral.ts';
import type { NewId } from '../core/errors.ts';
import { excerpt } from '../core/fixture-check.ts';
import type { MockResponse } from '../core/types.ts';
import type { Forcing } from './prefer-header.ts';

/**
 * The answer a forcing asks for, built from the spec alone so it cannot break it: a status the
 * operation documents, the body of the spec's example for it (named, or the one example), and
 * for an error kind a fresh `id` (API §2.3: the id of the error instance). Or why not, naming
 * what the spec does have.
 */
export function forcedResponse(operation: Operation, forcing: Forcing, newId: NewId): { response: MockResponse } | { problem: string } {
  const picked = pickResponse(operation, forcing);
  if ('problem' in picked) return picked;
  const { status, documented, example } = picked;
  if (documented.mediaType === undefined) return { response: { status, headers: {}, body: undefined } };
  let body = example;
  if (documented.errorKind !== undefined) {
    const message = (example as { message?: unknown } | undefined)?.message;
    body = { ...(example as object | undefined), id: newId(), name: documented.errorKind, message: typeof message === 'string' ? message : documented.description };
  } else if (body === undefined) {
    return { problem: `${operation.operationId} has no example of its ${status} body in the spec to answer with` };
  }
  return { response: { status, headers: { 'content-type': documented.mediaType }, body: JSON.stringify(body) } };
}

function pickResponse(operation: Operation, forcing: Forcing): { status: number; documented: ResponseContract; example: unknown } | { problem: string } {
  const documentedCodes = [...operation.responses.keys()].join(', ');
  if (forcing.example !== undefined) {
    const candidates = [...operation.responses.values()].filter((r) => forcing.code === undefined || responseFor(operation, forcing.code) === r);
    const found = candidates.find((r) => r.examples.has(forcing.example!));
    if (!found) {
      const names = candidates.flatMap((r) => [...r.examples.keys()].map((name) => `${name} (${r.status})`));
      return { problem: `${operation.operationId} has no example named ${excerpt(forcing.example)}${forcing.code === undefined ? '' : ` for ${forcing.code}`}; it has ${names.length ? names.join(', ') : 'no named examples'}` };
    }
    const status = forcing.code ?? Number(found.status);
    if (!Number.isInteger(status)) return { problem: `the example ${excerpt(forcing.example)} belongs to ${found.status}; add code= to pick a status in that range` };
    return { status, documented: found, example: found.examples.get(forcing.example) };
  }
  const status = forcing.code!;
  const documented = responseFor(operation, status);
  if (!documented) return { problem: `${operation.operationId} does not document ${status}; it documents ${documentedCodes}` };
  return { status, documented, example: documented.example };
}
