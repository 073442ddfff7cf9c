import SwaggerParser from '@apidevtools/swagger-parser';
import { SpecReadError, type SpecSource } from './spec-source.ts';

/**
 * The source's document with its `$ref`s resolved by swagger-parser, on a copy so the parsed
 * source stays as written: `bundle` pulls other files in as internal `$ref`s, `dereference`
 * replaces every `$ref` by its target. A `$ref` that does not resolve is the reader's error.
 */
export async function resolveRefs(source: SpecSource, how: 'bundle' | 'dereference'): Promise<unknown> {
  const copy = structuredClone(source.document) as never;
  try {
    return how === 'dereference' ? await SwaggerParser.dereference(source.absolutePath, copy, {}) : await SwaggerParser.bundle(source.absolutePath, copy, {});
  } catch (error) {
    throw new SpecReadError(`${source.file}: expected every $ref to resolve, got ${String((error as Error).message).split('\n')[0]}`);
  }
}
