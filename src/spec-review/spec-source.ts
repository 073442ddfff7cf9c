import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { JsonSchema } from '../contract/index.ts';
import { pointerOf, pointerTokens, resolvePointer } from '../contract/json-pointer.ts';
import { OPENAPI_LINES_READ, openApiLineOf, type OpenApiLine } from './openapi-line.ts';
import { jsonPositions } from './json-positions.ts';

/** A line and column in a file, both counted from 1 (as editors and CI annotations count). */
export interface Position {
  line: number;
  column: number;
  /**
   * Set for a document written on one line (JSON as most servers publish it): there a
   * line:column such as `1:660518` says nothing a reader can use, so reports give the JSON pointer alone.
   */
  pointerOnly?: true;
}

/** A spec as read from disk or stdin: its text, the parsed document, and where each pointer sits. */
export interface SpecSource {
  /** The name to print: the path as given, or `<stdin>`. */
  file: string;
  /** Where `$ref`s to other files are resolved from. */
  absolutePath: string;
  text: string;
  /** The document as written, in its own line's terms (a 3.0 document is not rewritten here). */
  document: JsonSchema;
  openapi: OpenApiLine;
  /** Whether the text was JSON, read with JSON.parse (what any JSON parser makes of it). */
  json: boolean;
  /** Where the value at `pointer` is written; the nearest written parent when it is not there. */
  positionOf(pointer: string, options?: { onKey?: boolean }): Position;
}

/** A spec (or other input) that cannot be read or parsed; the CLI prints it and exits 2. */
export class SpecReadError extends Error {
  override name = 'SpecReadError';
}

export const STDIN = '-';

/** How a text is read besides JSON.parse and the `yaml` package. */
export interface ReadOptions {
  /**
   * Parses a YAML text, instead of the `yaml` package, whose tree is then built only when a
   * position is asked for: lint hands Redocly's parser here, so the text is parsed once, the way
   * Redocly reads it. A text it throws on is read by the `yaml` package, which names the error.
   */
  parseYaml?: (text: string, absolutePath: string) => unknown;
}

/** Reads a spec file, or stdin for `-`, and parses it as YAML (JSON is YAML too). */
export async function readSpecSource(file: string, stdin: () => Promise<string> = readStdin, options: ReadOptions = {}): Promise<SpecSource> {
  let text: string;
  try {
    text = file === STDIN ? await stdin() : await readFile(file, 'utf8');
  } catch (error) {
    throw new SpecReadError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const name = file === STDIN ? '<stdin>' : file;
  return specSourceFromText(name, file === STDIN ? resolve('stdin.yaml') : resolve(file), text, options);
}

export function specSourceFromText(file: string, absolutePath: string, text: string, options: ReadOptions = {}): SpecSource {
  const { document, positionOf, json } = parseText(file, text, options.parseYaml && ((yaml) => options.parseYaml!(yaml, absolutePath)));
  if (!document || typeof document !== 'object' || Array.isArray(document)) {
    throw new SpecReadError(`${file}: expected an OpenAPI document (a YAML or JSON object), got ${document === null || document === undefined ? 'an empty file' : JSON.stringify(document).slice(0, 40)}`);
  }
  const version = openApiLineOf(document as JsonSchema);
  if (!('line' in version)) {
    const { line, column } = positionOf(version.pointer);
    throw new SpecReadError(`${file}:${line}:${column} #${version.pointer}: expected an ${OPENAPI_LINES_READ} document, got ${version.got}`);
  }
  return { file, absolutePath, text, document: document as JsonSchema, openapi: version.line, json, positionOf };
}

/** A YAML or JSON text parsed, with where each pointer sits: a spec, or a file a spec's `$ref`s point into. */
export function parseText(file: string, text: string, parseYaml?: (text: string) => unknown): { document: unknown; json: boolean; positionOf: SpecSource['positionOf'] } {
  // The `yaml` package keeps each node's offset, which maps a JSON pointer to line:column. Its
  // parse is the slow part of reading (~0.3 s for a 750 KB document): a JSON text is read with
  // JSON.parse (last of duplicate names wins, as RFC 8259 §4 leaves to parsers) and its places
  // are found by scanning its text when asked for (json-positions.ts). Anything else, and JSON
  // with a syntax error, goes through `yaml`, which says where the error is.
  let tree: { parsed: ReturnType<typeof parseDocument>; lineCounter: LineCounter } | undefined;
  const parseTree = () => {
    const lineCounter = new LineCounter();
    return (tree ??= { parsed: parseDocument(text, { lineCounter, uniqueKeys: true }), lineCounter });
  };
  let document = /^\s*\{/.test(text) ? parseJson(text) : undefined;
  const json = document !== undefined;
  if (document === undefined && parseYaml) document = parseOrUndefined(parseYaml, text);
  if (document === undefined) {
    const { parsed } = parseTree();
    const error = parsed.errors[0];
    if (error) {
      const where = error.linePos ? `${file}:${error.linePos[0].line}:${error.linePos[0].col}` : file;
      // The yaml package ends its first line with " at line L, column C:" and puts an excerpt after
      // it; the place is already in front, and the excerpt is not shown (it may hold a key).
      const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      throw new SpecReadError(`${where}: expected a YAML or JSON document, got a syntax error: ${reason}`);
    }
    document = parsed.toJS({ maxAliasCount: 1000 });
  }
  let places: ReturnType<typeof jsonPositions> | undefined;
  const oneLine = json && !text.trimEnd().includes('\n');
  const positionOf: SpecSource['positionOf'] = (pointer, options = {}) => {
    const written = nearestWritten(document, pointer);
    if (json) {
      // Found by scanning the text, no tree built (json-positions.ts); a document written on one
      // line is placed by its pointer alone (a column of 660,518 helps nobody).
      places ??= jsonPositions(text);
      const { place } = places.placeOf(pointerTokens(written));
      const offset = (options.onKey && written === pointer ? place.key : undefined) ?? place.value;
      return { ...places.lineColumn(offset), ...(oneLine ? { pointerOnly: true as const } : {}) };
    }
    const { parsed, lineCounter } = parseTree();
    const { node, key } = nodeAt(parsed.contents, pointerTokens(written));
    const offset = (options.onKey && written === pointer ? key?.range?.[0] : undefined) ?? node?.range?.[0] ?? 0;
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  return { document, json, positionOf };
}

function parseOrUndefined(parse: (text: string) => unknown, text: string): unknown {
  try {
    return parse(text) ?? undefined;
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The YAML node at the tokens, and the key node it is written under (for maps). */
function nodeAt(root: unknown, tokens: string[]): { node: Node | undefined; key: Node | undefined } {
  let node = root as Node | undefined;
  let key: Node | undefined;
  for (const token of tokens) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && String(isScalar(item.key) ? item.key.value : item.key) === token);
      key = pair?.key as Node | undefined;
      node = pair?.value as Node | undefined;
    } else if (isSeq(node)) {
      key = undefined;
      node = node.items[Number(token)] as Node | undefined;
    } else {
      break;
    }
  }
  return { node, key };
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
