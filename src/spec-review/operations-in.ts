import { pointerOf } from '../contract/json-pointer.ts';
import { HTTP_METHODS } from '../contract/operation.ts';
import type { JsonSchema } from '../contract/index.ts';

/** An operation where it is written: under `paths`, `webhooks`, a callback, or a reusable path item. */
export interface OperationIn {
  /** How a reader names it: `GET /pets`, `POST webhook newPet`, `POST callback onEvent {$request.body#/url}`. */
  name: string;
  /** `call`: one the API serves (under `paths`, or a reusable path item); else one it sends. */
  kind: 'call' | 'webhook' | 'callback';
  method: (typeof HTTP_METHODS)[number];
  pointer: string;
  operation: JsonSchema;
}

const isObject = (value: unknown): value is JsonSchema => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Every operation of an authored document, each once at the place it is written (OAS 3.1 §4.8.1:
 * `paths`, `webhooks`, `components.pathItems`; §4.8.18 callbacks, in operations and in
 * `components.callbacks`). A path item that is a `$ref` is visited where its target is written.
 * Read defensively: lint runs this on documents that failed the structure check.
 */
export function operationsIn(document: JsonSchema): OperationIn[] {
  const found: OperationIn[] = [];
  const pathItem = (item: unknown, tokens: string[], label: string, kind: OperationIn['kind']): void => {
    if (!isObject(item)) return;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const at = [...tokens, method];
      found.push({ name: `${method.toUpperCase()} ${label}`, kind, method, pointer: pointerOf(at), operation });
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
