import { ContractError } from './contract-error.ts';
import { escapePointerToken, resolvePointer } from './json-pointer.ts';
import type { JsonSchema } from './schema-validator.ts';

/**
 * A copy of an OpenAPI document with every local `$ref` (`#/...`) replaced by its target, the
 * same object for the same ref, as swagger-parser's dereference makes it; cycles stay cycles.
 * Siblings of a `$ref` (OAS 3.1 allows `description` and `summary` there) are kept on a copy.
 * A ref into another file cannot be resolved without a file system: it is refused.
 */
export function dereferenceLocal(document: JsonSchema, file: string): JsonSchema {
  const resolved = new Map<string, object>();

  const walk = (node: unknown, at: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${at}/${i}`));
    if (node === null || typeof node !== 'object') return node;
    const { $ref, ...siblings } = node as Record<string, unknown>;
    if (typeof $ref !== 'string') return copyObject(node as Record<string, unknown>, at);
    if (!$ref.startsWith('#')) {
      throw new ContractError('SPEC_REF', { file, pointer: `${at}/$ref`, expected: 'a local reference (#/...): a document given as a value is not read from files; bundle it first', got: JSON.stringify($ref) });
    }
    const target = resolveRef($ref, `${at}/$ref`);
    return Object.keys(siblings).length === 0 ? target : { ...(target as object), ...copyObject(siblings, at) };
  };

  const copyObject = (node: Record<string, unknown>, at: string): Record<string, unknown> => {
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) copy[key] = walk(value, `${at}/${escapePointerToken(key)}`);
    return copy;
  };

  const resolveRef = (ref: string, at: string): unknown => {
    const done = resolved.get(ref);
    if (done) return done;
    const target = resolvePointer(document, ref.slice(1));
    if (target === undefined) throw new ContractError('SPEC_REF', { file, pointer: at, expected: 'a reference to a part of this document', got: JSON.stringify(ref) });
    if (target === null || typeof target !== 'object') return target;
    // Registered before its content is walked, so a ref back into itself ends at this object.
    const placeholder: Record<string, unknown> | unknown[] = Array.isArray(target) ? [] : {};
    resolved.set(ref, placeholder);
    const content = walk(target, ref.slice(1));
    if (Array.isArray(placeholder)) placeholder.push(...(content as unknown[]));
    else Object.assign(placeholder, content);
    return placeholder;
  };

  return walk(document, '') as JsonSchema;
}
