import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pointerOf, resolvePointer } from '../contract/json-pointer.ts';
import { writtenFileAt, type AuthoredPlace, type WrittenFile } from './authored-place.ts';
import { dereferencedComponentRefs } from './dereference-internal.ts';
import { place } from './report-format.ts';
import { SpecReadError, type SpecSource } from './spec-source.ts';

/**
 * The source's document with its `$ref`s resolved by swagger-parser, on a copy so the parsed
 * source stays as written: `bundle` pulls other files in as internal `$ref`s, `dereference`
 * replaces every `$ref` by its target (in a document whose $refs all name components, by
 * dereference-internal.ts, to the same result). A `$ref` that does not resolve is the reader's error,
 * named where it is written.
 */
export async function resolveRefs(source: SpecSource, how: 'bundle' | 'dereference'): Promise<unknown> {
  // A document whose $refs all name components is copied and dereferenced in one walk
  // (dereference-internal.ts); swagger-parser's parse, which resolves nothing, still refuses what
  // its dereference would (a version it does not read, no paths).
  const dereferenced = how === 'dereference' ? dereferencedComponentRefs(source.document) : undefined;
  const copy = dereferenced ?? structuredClone(source.document);
  // Loaded when a verb needs it: lint of a one-file document never does.
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  try {
    return await asOpenApi31ForSwaggerParser(copy, (document) =>
      dereferenced ? new SwaggerParser().parse(source.absolutePath, document as never, {}) : how === 'dereference' ? SwaggerParser.dereference(source.absolutePath, document as never, {}) : SwaggerParser.bundle(source.absolutePath, document as never, {}),
    );
  } catch (error) {
    const unresolved = firstUnresolvedRef(source);
    if (unresolved) throw new SpecReadError(`${place(unresolved)}: ${unresolved.message}`);
    throw new SpecReadError(`${source.file}: expected every $ref to resolve, got ${String((error as Error).message).split('\n')[0]}`);
  }
}

/**
 * Runs swagger-parser (13.1, the newest) on a 3.2 document: it refuses any `openapi` but 3.0.0-3.0.4
 * and 3.1.0-3.1.2 before resolving anything, though its `$ref` resolution does not depend on the
 * version, and 3.2 references work as 3.1's do (OAS 3.2.0 §4.8.23 Reference Object, §4.8.24.3
 * Schema Object `$ref`). The document is handed over as 3.1.2 and its own version put back.
 */
export async function asOpenApi31ForSwaggerParser<T>(document: Record<string, unknown>, run: (document: Record<string, unknown>) => Promise<T>): Promise<T> {
  const version = document.openapi;
  if (typeof version !== 'string' || !/^3\.2\./.test(version)) return run(document);
  document.openapi = '3.1.2';
  const result = await run(document);
  document.openapi = version;
  if (result && typeof result === 'object') (result as Record<string, unknown>).openapi = version;
  return result;
}

/**
 * The first `$ref` that does not resolve, in the order a reader meets them: the spec from the
 * top, and each file it refers to where it is first referred to. swagger-parser's error names
 * only the target (`Missing $ref pointer "#/Petz"`), not the file and line of the `$ref`.
 * URLs are not fetched, so not judged.
 */
export function firstUnresolvedRef(source: SpecSource): UnresolvedRef | undefined {
  const root: WrittenFile = { file: source.file, absolutePath: source.absolutePath, document: source.document, positionOf: source.positionOf };
  const files = new Map<string, WrittenFile | { error: string }>([[source.absolutePath, root]]);
  const visited = new Set<string>();
  const check = (written: WrittenFile): UnresolvedRef | undefined => {
    if (visited.has(written.absolutePath)) return undefined;
    visited.add(written.absolutePath);
    // One token stack for the whole walk (a copy per node cost a third of a second on GitHub's 13 MB).
    const tokens: string[] = [];
    const walk = (node: unknown): UnresolvedRef | undefined => {
      if (node === null || typeof node !== 'object') return undefined;
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === 'string' && !/^[a-z][a-z\d+.-]*:/i.test(ref)) {
        const problem = checkRef(ref);
        if (typeof problem === 'object') return problem.inside;
        if (problem) {
          const pointer = pointerOf([...tokens, '$ref']);
          return { file: written.file, pointer, ...written.positionOf(pointer), message: `expected $ref ${JSON.stringify(ref)} to resolve, got ${problem}` };
        }
      }
      for (const key in node) {
        const value = (node as Record<string, unknown>)[key];
        if (value === null || typeof value !== 'object') continue;
        tokens.push(key);
        const found = walk(value);
        tokens.pop();
        if (found) return found;
      }
      return undefined;
    };
    /** Why the ref does not resolve; or the first one inside the file it refers to that does not. */
    const resolvesHere = new Set<string>();
    const checkRef = (ref: string): string | { inside: UnresolvedRef } | undefined => {
      // A fragment of this file met before (GitHub's document has ~40,000 of them) resolved then.
      if (resolvesHere.has(ref)) return undefined;
      const hash = ref.indexOf('#');
      const path = hash < 0 ? ref : ref.slice(0, hash);
      const fragment = hash < 0 ? '' : decodeURIComponent(ref.slice(hash + 1));
      let target: WrittenFile | { error: string } = written;
      if (path !== '') {
        const absolutePath = resolve(dirname(written.absolutePath), decodeURIComponent(path));
        if (!files.has(absolutePath)) files.set(absolutePath, readWritten(source, absolutePath));
        target = files.get(absolutePath)!;
      }
      if ('error' in target) return target.error;
      if (fragment !== '' && resolvePointer(target.document, fragment) === undefined) return `nothing at #${fragment} in ${target.file}`;
      if (target === written) {
        resolvesHere.add(ref);
        return undefined;
      }
      const inside = check(target);
      return inside === undefined ? undefined : { inside };
    };
    return walk(written.document);
  };
  return check(root);
}

/** A `$ref` that does not resolve: where it is written, and why. */
export interface UnresolvedRef extends AuthoredPlace {
  message: string;
}

function readWritten(source: SpecSource, absolutePath: string): WrittenFile | { error: string } {
  try {
    return writtenFileAt(source, absolutePath, readFileSync(absolutePath, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { error: code ? `a file it cannot read (${code})` : (error as Error).message };
  }
}
