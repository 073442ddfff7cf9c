import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { getLineColLocation, parseYaml, Source } from '@redocly/openapi-core';
import type { JsonSchema } from '../contract/index.ts';
import { pointerOf, pointerTokens, resolvePointer } from '../contract/json-pointer.ts';

/** A line and column in a file, both counted from 1 (as editors and CI annotations count). */
export interface Position {
  line: number;
  column: number;
}

/** A spec as read from disk or stdin: its text, the parsed document, and where each pointer sits. */
export interface SpecSource {
  /** The name to print: the path as given, or `<stdin>`. */
  file: string;
  /** Where `$ref`s to other files are resolved from. */
  absolutePath: string;
  text: string;
  document: JsonSchema;
  /** Where the value at `pointer` is written; the nearest written parent when it is not there. */
  positionOf(pointer: string, options?: { onKey?: boolean }): Position;
}

/** A spec (or other input) that cannot be read or parsed; the CLI prints it and exits 2. */
export class SpecReadError extends Error {
  override name = 'SpecReadError';
}

export const STDIN = '-';

/** Reads a spec file, or stdin for `-`, and parses it as YAML (JSON is YAML too). */
export async function readSpecSource(file: string, stdin: () => Promise<string> = readStdin): Promise<SpecSource> {
  let text: string;
  try {
    text = file === STDIN ? await stdin() : await readFile(file, 'utf8');
  } catch (error) {
    throw new SpecReadError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const name = file === STDIN ? '<stdin>' : file;
  return specSourceFromText(name, file === STDIN ? resolve('stdin.yaml') : resolve(file), text);
}

export function specSourceFromText(file: string, absolutePath: string, text: string): SpecSource {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    const mark = (error as { mark?: { line: number; column: number } }).mark;
    const where = mark ? `${file}:${mark.line + 1}:${mark.column + 1}` : file;
    throw new SpecReadError(`${where}: expected a YAML or JSON document, got a syntax error: ${String((error as Error).message).split('\n')[0]}`);
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) {
    throw new SpecReadError(`${file}: expected an OpenAPI document (a YAML or JSON object), got ${document === null || document === undefined ? 'an empty file' : JSON.stringify(document).slice(0, 40)}`);
  }
  // Redocly's YAML AST locates pointers in the text it was parsed from (its codeframes module).
  const source = new Source(absolutePath, text);
  return {
    file,
    absolutePath,
    text,
    document: document as JsonSchema,
    positionOf(pointer, options = {}) {
      const written = nearestWritten(document, pointer);
      const onKey = written === pointer ? (options.onKey ?? false) : false;
      const { start } = getLineColLocation({ source, pointer: `#${written}`, reportOnKey: onKey });
      return { line: start.line, column: start.col };
    },
  };
}

/** The pointer itself when it leads to a value, else its nearest parent that does. */
function nearestWritten(document: unknown, pointer: string): string {
  const tokens = pointerTokens(pointer);
  while (tokens.length > 0 && resolvePointer(document, pointerOf(tokens)) === undefined) tokens.pop();
  return pointerOf(tokens);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
