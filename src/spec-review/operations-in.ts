import { pointerOf } from '../contract/json-pointer.ts';
import { HTTP_METHODS } from '../contract/operation.ts';
import type { JsonSchema } from '../contract/index.ts';

/** An operation where it is written: under `paths`, `webhooks`, a callback, or a reusable path item. */
export interface OperationIn {
  /** How a reader names it: `GET /pets`, `POST webhook newPet`, `POST callback onEvent {$request.body#/url}`. */
  name: string;
  /** `call`: one the API serves (under `paths`, or a reusable path item); else one it sends. */
  kind: 'call' | 'webhook' | 'callback';
  /** The HTTP method: a fixed field's name (`get`, `query`), or an `additionalOperations` key as written (`LINK`). */
  method: string;
  pointer: string;
  operation: JsonSchema;
}

const isObject = (value: unknown): value is JsonSchema => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The Path Item's fixed fields that hold an operation: 3.1's eight methods and 3.2's `query` (OAS 3.2.0 §4.8.9.1). */
export const OPERATION_FIELDS: readonly string[] = [...HTTP_METHODS, 'query'];

/** An operation of one path item, where it sits in it. */
export interface PathItemOperation {
  /** The method as sent: a fixed field's name upper-cased (`GET`, `QUERY`), an `additionalOperations` key as written (`LINK`). */
  method: string;
  /** Its tokens below the path item: `['get']`, `['additionalOperations', 'LINK']`. */
  tokens: string[];
  operation: JsonSchema;
}

/**
 * Every operation of a Path Item: one per fixed method field, and in OAS 3.2 one per entry of
 * `additionalOperations` (§4.8.9.1: "the HTTP method with the same capitalization that is to be
 * sent in the request"; RFC 9110 §9.1: method names are case-sensitive). 3.2 forbids there the
 * methods that have a field of their own, so the two never name one method twice.
 */
export function pathItemOperations(item: unknown): PathItemOperation[] {
  if (!isObject(item)) return [];
  const found: PathItemOperation[] = [];
  for (const field of OPERATION_FIELDS) if (isObject(item[field])) found.push({ method: field.toUpperCase(), tokens: [field], operation: item[field] });
  if (isObject(item.additionalOperations)) {
    for (const [method, operation] of Object.entries(item.additionalOperations)) if (isObject(operation)) found.push({ method, tokens: ['additionalOperations', method], operation });
  }
  return found;
}

/**
 * Every operation of an authored document, each once at the place it is written, 3.2's `query` and
 * `additionalOperations` included (OAS 3.1 §4.8.1:
 * `paths`, `webhooks`, `components.pathItems`; §4.8.18 callbacks, in operations and in
 * `components.callbacks`). A path item that is a `$ref` is visited where its target is written.
 * Read defensively: lint runs this on documents that failed the structure check.
 */
export function operationsIn(document: JsonSchema): OperationIn[] {
  const found: OperationIn[] = [];
  const pathItem = (item: unknown, tokens: string[], label: string, kind: OperationIn['kind']): void => {
    for (const { method, tokens: within, operation } of pathItemOperations(item)) {
      const at = [...tokens, ...within];
      found.push({ name: `${method} ${label}`, kind, method: within.length === 1 ? within[0]! : method, pointer: pointerOf(at), operation });
      callbacks(operation.callbacks, [...at, 'callbacks']);
    }
  };
  const callbacks = (map: unknown, tokens: string[]): void => {
    if (!isObject(map)) return;
    for (const [name, callback] of Object.entries(map)) {
      if (!isObject(callback)) continue;
      for (const [expression, item] of Object.entries(callback)) pathItem(item, [...tokens, name, expression], `callback ${name} ${expression}`, 'callback');
    }
  };
  const pathItems = (map: unknown, tokens: string[], label: (key: string) => string, kind: OperationIn['kind']): void => {
    if (!isObject(map)) return;
    for (const [key, item] of Object.entries(map)) if (!key.startsWith('x-')) pathItem(item, [...tokens, key], label(key), kind);
  };
  pathItems(document.paths, ['paths'], (path) => path, 'call');
  pathItems(document.webhooks, ['webhooks'], (name) => `webhook ${name}`, 'webhook');
  const components = isObject(document.components) ? document.components : {};
  pathItems(components.pathItems, ['components', 'pathItems'], (name) => `path item ${name}`, 'call');
  callbacks(components.callbacks, ['components', 'callbacks']);
  return found;
}
