import { pointerTokens } from '../../contract/json-pointer.ts';
import type { JsonSchema } from '../../contract/index.ts';
import { operationsIn } from '../operations-in.ts';

/** An operation of a document's `paths`, where it is written. */
export interface PathOperation {
  path: string;
  /** The method as sent (`GET`, `QUERY`, an `additionalOperations` key such as `LINK`). */
  method: string;
  /** Where the operation sits in its path item: `['get']`, `['additionalOperations', 'LINK']` (OAS 3.2.0 §4.8.9.1). */
  tokens: string[];
  operationId: string | undefined;
  /** `GET /pets/{petId}`, as the diff labels operations. */
  label: string;
}

/** One operation of OURS and the one of THEIRS that is the same call. */
export interface OperationPair {
  ours: PathOperation;
  theirs: PathOperation;
  /** How they were found: the same method and path template, or the same operationId. */
  by: 'path' | 'operationId';
}

/**
 * Pairs the operations of two documents: first by method and URL path template (the first
 * server's base path before the path, parameter names aside: `/a/{id}` is `/a/{key}`), then the
 * rest by operationId. Each operation is paired once.
 */
export function pairOperations(ours: JsonSchema, theirs: JsonSchema): { pairs: OperationPair[]; unmatched: PathOperation[] } {
  const theirOperations = pathOperations(theirs);
  const [ourBase, theirBase] = [basePath(ours), basePath(theirs)];
  const shapeOf = (op: PathOperation, base: string) => `${op.method} ${(base + op.path).replace(/\{[^}]*\}/g, '{}')}`;
  const byShape = new Map(theirOperations.map((op) => [shapeOf(op, theirBase), op]));
  const byId = new Map(theirOperations.filter((op) => op.operationId !== undefined).map((op) => [op.operationId!, op]));
  const taken = new Set<PathOperation>();
  const pairs: OperationPair[] = [];
  const rest: PathOperation[] = [];
  const ourOperations = pathOperations(ours);
  for (const op of ourOperations) {
    const same = byShape.get(shapeOf(op, ourBase));
    if (same) {
      pairs.push({ ours: op, theirs: same, by: 'path' });
      taken.add(same);
    } else {
      rest.push(op);
    }
  }
  const unmatched: PathOperation[] = [];
  for (const op of rest) {
    const same = op.operationId === undefined ? undefined : byId.get(op.operationId);
    if (same && !taken.has(same)) {
      pairs.push({ ours: op, theirs: same, by: 'operationId' });
      taken.add(same);
    } else {
      unmatched.push(op);
    }
  }
  return { pairs, unmatched };
}

function pathOperations(document: JsonSchema): PathOperation[] {
  return operationsIn(document)
    // The calls a client makes; a callback under one is compared inside it, as the diff does.
    .filter((op) => op.kind === 'call' && op.pointer.startsWith('/paths/'))
    .map((op) => {
      const [, path, ...tokens] = pointerTokens(op.pointer) as [string, string, ...string[]];
      const method = op.name.slice(0, op.name.indexOf(' '));
      return { path, method, tokens, operationId: typeof op.operation.operationId === 'string' ? op.operation.operationId : undefined, label: `${method} ${path}` };
    });
}

/**
 * The path of the first server's URL, where paths are appended (OAS 3.1 §4.8.1.1), its variables
 * at their defaults: `https://flags.test/api` gives `/api`, and `/api/admin/x` in a document
 * with no base is `/admin/x` under it. No server, or one at a root, gives ''.
 */
function basePath(document: JsonSchema): string {
  const server = Array.isArray(document.servers) ? (document.servers[0] as JsonSchema | undefined) : undefined;
  if (!server || typeof server.url !== 'string') return '';
  const variables = (server.variables ?? {}) as Record<string, JsonSchema>;
  const url = server.url.replace(/\{([^}]*)\}/g, (_, name: string) => String(variables[name]?.default ?? ''));
  let path: string;
  try {
    path = new URL(url, 'http://relative.invalid').pathname;
  } catch {
    return '';
  }
  return path.replace(/\/+$/, '');
}
