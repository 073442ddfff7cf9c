import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContractError } from './contract-error.ts';
import { readJsonFile } from './read-json-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'read-json-file-'));
const KEY = 'sk-live-0123456789';
function attempt(text: string): ContractError {
  const file = join(dir, 'f.json');
  writeFileSync(file, text);
  try {
    readJsonFile(file, { kind: 'CONFIG', what: 'a readable JSON config file', maxBytes: 2 ** 20 });
  } catch (error) {
    return error as ContractError;
  }
  throw new Error('no error');
}

describe('readJsonFile', () => {
  it.each([
    [`{\n  "apiKey": ${KEY}\n}`, ':2:13: expected a JSON value (a string in double quotes'],
    [`{"apiKey": "${KEY}" "x": 1}`, `:1:${KEY.length + 15}: expected ',' between two entries`],
    [`{"apiKey": "${KEY}",}`, `:1:${KEY.length + 15}: expected a property name in double quotes (JSON allows no trailing comma)`],
    [`{"apiKey": "${KEY}`, `:1:12: expected a closing double quote`],
    [`{"apiKey": "${KEY}\u0001"}`, ':1:12: expected no control character inside a string'],
    [`{"apiKey": "${KEY}"} // ${KEY}`, `:1:${KEY.length + 16}: expected no comment (JSON has none)`],
    ['', ':1:1: expected a value'],
  ])('names the line, the column and what was expected, never the text (%#)', (text, message) => {
    const error = attempt(text);
    expect(error).toBeInstanceOf(ContractError);
    expect(error.code).toBe('CONFIG_JSON');
    expect(error.message).toContain(`f.json${message}`);
    expect(error.message).toMatch(/, got a JSON syntax error \(the text is not shown: it may hold a key\)$/);
    expect(error.message).not.toContain(KEY.slice(0, 6));
  });

  it('names the file it cannot read', () => {
    expect(() => readJsonFile(join(dir, 'missing.json'), { kind: 'FIXTURE', what: 'a readable JSON fixture file', maxBytes: 2 ** 20 })).toThrow(/missing\.json: expected a readable JSON fixture file, got ENOENT$/);
  });
});
