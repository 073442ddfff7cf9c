import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pointerOf, pointerTokens } from '../contract/json-pointer.ts';
import { parseText, type Position, type SpecSource } from './spec-source.ts';

/** A place as written: the file (named as the user named the spec), the pointer in it, its line:column. */
export interface AuthoredPlace extends Position {
  file: string;
  pointer: string;
}

export interface WrittenFile {
  /** The name to print. */
  file: string;
  absolutePath: string;
  document: unknown;
  positionOf: SpecSource['positionOf'];
}

/**
 * Maps pointers into the dereferenced spec onto the places they were written. Where the walk
 * passes a `$ref` it continues at its target, in this file or in another one (`schemas.yaml#/Pet`):
 * a change inside a schema kept in another file is reported in that file, at its line, not at the
 * `$ref` that pulled it in. A file that cannot be read again (gone since the dereference) leaves
 * the `$ref` itself as the place.
 */
export function authoredPlaces(source: SpecSource): (dereferencedPointer: string, options?: { onKey?: boolean }) => AuthoredPlace {
  const root: WrittenFile = { file: source.file, absolutePath: source.absolutePath, document: source.document, positionOf: source.positionOf };
  const files = new Map<string, WrittenFile | undefined>([[source.absolutePath, root]]);
  const fileAt = (absolutePath: string): WrittenFile | undefined => {
    if (!files.has(absolutePath)) files.set(absolutePath, readWritten(source, absolutePath));
    return files.get(absolutePath);
  };

  const followRefs = (at: { in: WrittenFile; tokens: string[]; node: unknown }) => {
    const seen = new Set<unknown>();
    while (at.node && typeof at.node === 'object' && typeof (at.node as { $ref?: unknown }).$ref === 'string' && !seen.has(at.node)) {
      seen.add(at.node);
      const ref = (at.node as { $ref: string }).$ref;
      const hash = ref.indexOf('#');
      const target = hash === 0 ? at.in : /^[a-z][a-z\d+.-]*:/i.test(ref) ? undefined : fileAt(resolve(dirname(at.in.absolutePath), decodeURIComponent(hash < 0 ? ref : ref.slice(0, hash))));
      if (!target) break;
      const tokens = hash < 0 ? [] : pointerTokens(decodeURIComponent(ref.slice(hash + 1)));
      at = { in: target, tokens, node: tokens.reduce<unknown>((n, t) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[t] : undefined), target.document) };
    }
    return at;
  };

  return (dereferencedPointer, options) => {
    let at: { in: WrittenFile; tokens: string[]; node: unknown } = { in: root, tokens: [], node: root.document };
    for (const token of pointerTokens(dereferencedPointer)) {
      at = followRefs(at);
      if (at.node === null || typeof at.node !== 'object') return placeOf(at.in, [...at.tokens, token], options);
      at = { in: at.in, tokens: [...at.tokens, token], node: (at.node as Record<string, unknown>)[token] };
    }
    at = followRefs(at);
    return placeOf(at.in, at.tokens, options);
  };
}

function placeOf(written: WrittenFile, tokens: string[], options?: { onKey?: boolean }): AuthoredPlace {
  const pointer = pointerOf(tokens);
  return { file: written.file, pointer, ...written.positionOf(pointer, options) };
}

function readWritten(source: SpecSource, absolutePath: string): WrittenFile | undefined {
  try {
    return writtenFileAt(source, absolutePath, readFileSync(absolutePath, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A file the spec `$ref`s, parsed, named from where the user named the spec: `specs/api.yaml` refers to `specs/schemas.yaml`. */
export function writtenFileAt(source: SpecSource, absolutePath: string, text: string): WrittenFile {
  const file = source.file === '<stdin>' ? relative(process.cwd(), absolutePath) : join(dirname(source.file), relative(dirname(source.absolutePath), absolutePath));
  return { file, absolutePath, ...parseText(file, text) };
}
