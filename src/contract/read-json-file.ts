import { createRequire } from 'node:module';
import type { ParseError, ParseErrorCode, parse as jsoncParse, printParseErrorCode as jsoncPrintParseErrorCode } from 'jsonc-parser';
import { ContractError } from './contract-error.ts';

/**
 * What was expected where a JSON text breaks, by jsonc-parser's error code. JSON.parse's own
 * message cannot be shown: V8 quotes the text around the error (`Unexpected token 's',
 * ..."apiKey": secret-abc"...`), and a fixture or config file may hold a key there.
 */
const EXPECTED: Readonly<Record<string, string>> = {
  InvalidSymbol: 'a JSON value (a string in double quotes, a number, an object, an array, true, false or null), or the end of the text',
  InvalidNumberFormat: 'a well-formed number',
  UnexpectedEndOfNumber: 'the digits of a number',
  PropertyNameExpected: 'a property name in double quotes (JSON allows no trailing comma)',
  ValueExpected: 'a value (JSON allows no trailing comma, and the text must not be empty)',
  ColonExpected: "':' after the property name",
  CommaExpected: "',' between two entries",
  CloseBraceExpected: "'}' closing the object",
  CloseBracketExpected: "']' closing the array",
  EndOfFileExpected: 'the end of the text after the JSON value',
  InvalidCommentToken: 'no comment (JSON has none)',
  UnexpectedEndOfComment: 'no comment (JSON has none)',
  UnexpectedEndOfString: 'a closing double quote',
  InvalidUnicode: 'a \\u escape with four hexadecimal digits',
  InvalidEscapeCharacter: 'a JSON escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)',
  InvalidCharacter: 'no control character inside a string (escape it, e.g. \\n)',
};

/**
 * Reads and parses a JSON file (a fixture, a `--config`). A file that cannot be read or parsed
 * is a ContractError `${kind}_UNREADABLE` / `${kind}_JSON` naming the file, the line and column
 * and what was expected there, never quoting the file's text. The size is checked before
 * reading (`${kind}_TOO_LARGE`), and only a regular file is read, so a wrong path to a huge
 * file or a device that never ends (/dev/zero) is refused at once rather than read until the
 * process runs out of memory.
 * @example readJsonFile('check.json', { kind: 'CONFIG', what: 'a readable JSON config file', maxBytes: 2 ** 20 })
 */
export function readJsonFile(file: string, { kind, what, maxBytes }: { kind: string; what: string; maxBytes: number }): unknown {
  let text: string;
  try {
    // The CommonJS module: an ESM import of node:fs builds its whole namespace (fs/promises with readline, watchers).
    const { readFileSync, statSync } = process.getBuiltinModule('node:fs');
    const stats = statSync(file);
    if (!stats.isFile()) throw new ContractError(`${kind}_UNREADABLE`, { file, expected: 'a regular JSON file', got: 'something else (a folder, a device or a pipe)' });
    if (stats.size > maxBytes) throw new ContractError(`${kind}_TOO_LARGE`, { file, expected: `a file of at most ${formatMiB(maxBytes)}`, got: formatMiB(stats.size) });
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof ContractError) throw error;
    throw new ContractError(`${kind}_UNREADABLE`, { file, expected: what, got: (error as NodeJS.ErrnoException).code ?? 'an error reading it' });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw syntaxError(file, text, kind);
  }
}

/**
 * jsonc-parser, required when a text fails JSON.parse: every `flag-admin check` and mock start
 * reads JSON files that parse, and its six modules were ~5-10 ms of a check's CPU (bench/run.ts,
 * conformance). Its package's "main" is a CommonJS build.
 */
function jsoncParser(): { parse: typeof jsoncParse; printParseErrorCode: typeof jsoncPrintParseErrorCode } {
  return createRequire(import.meta.url)('jsonc-parser') as { parse: typeof jsoncParse; printParseErrorCode: typeof jsoncPrintParseErrorCode };
}

function syntaxError(file: string, text: string, kind: string): ContractError {
  const { parse, printParseErrorCode } = jsoncParser();
  const errors: ParseError[] = [];
  parse(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  const [first] = errors;
  const got = 'a JSON syntax error (the text is not shown: it may hold a key)';
  if (!first) return new ContractError(`${kind}_JSON`, { file, expected: 'valid JSON', got });
  const { line, column } = lineAndColumn(text, first.offset);
  const name = printParseErrorCode(first.error as ParseErrorCode);
  return new ContractError(`${kind}_JSON`, { file: `${file}:${line}:${column}`, expected: EXPECTED[name] ?? `valid JSON (${name})`, got });
}

/** 1-based line and column (in characters) of an offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

function formatMiB(bytes: number): string {
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(0)} MiB` : `${bytes} bytes`;
}
