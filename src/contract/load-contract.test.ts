import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ContractError } from './contract-error.ts';
import { loadContract } from './load-contract.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flag-admin-broken-spec-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes `text` as a spec file in the temp dir and returns its path. */
async function specFile(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

/** A valid 3.1 document with one operation; `operation` replaces the operation's YAML. */
function specWith(operation = '      operationId: getThing\n      responses:\n        "200": {description: ok}\n', openapi = '3.1.0'): string {
  return `openapi: ${openapi}\ninfo: {title: t, version: "1"}\npaths:\n  /things/{id}:\n    parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n    get:\n${operation}`;
}

/** The ContractError loadContract rejects with. */
async function failureOf(file: string): Promise<ContractError> {
  const error: unknown = await loadContract({ specFile: file }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ContractError);
  return error as ContractError;
}

describe('loadContract on a broken spec', () => {
  test('loads the minimal document the broken ones below are made from', async () => {
    const contract = await loadContract({ specFile: await specFile('fine.yaml', specWith()) });
    expect(contract.operation('getThing').pathParams).toEqual(['id']);
  });

  test('rejects a file it cannot read, naming the file', async () => {
    const file = join(dir, 'missing.yaml');
    const error = await failureOf(file);
    expect(error.code).toBe('SPEC_UNREADABLE');
    expect(error.message).toContain(file);
  });

  test('rejects a YAML syntax error, naming the file', async () => {
    const file = await specFile('syntax.yaml', 'openapi: 3.1.0\ninfo: [unclosed\n');
    const error = await failureOf(file);
    expect(error.code).toBe('SPEC_UNREADABLE');
    expect(error.message).toMatch(new RegExp(`^${file}: expected a readable OpenAPI 3.1 document`));
  });

  test('rejects an OpenAPI 3.0 document, naming the pointer /openapi', async () => {
    const file = await specFile('v30.yaml', specWith(undefined, '3.0.3'));
    const error = await failureOf(file);
    expect(error.code).toBe('SPEC_VERSION');
    expect(error.message).toBe(`${file}#/openapi: expected an OpenAPI 3.1.x document, got "3.0.3"`);
  });

  test('rejects a spec without operationId, naming the pointer', async () => {
    const file = await specFile('no-operation-id.yaml', specWith('      responses:\n        "200": {description: ok}\n'));
    const error = await failureOf(file);
    expect(error.code).toBe('SPEC_OPERATION_ID');
    expect(error.pointer).toBe('/paths/~1things~1{id}/get/operationId');
    expect(error.message).toContain(`${file}#/paths/~1things~1{id}/get/operationId`);
  });

  test('rejects a document the OpenAPI 3.1 schema rejects, naming the pointer and what is missing', async () => {
    const file = await specFile('invalid.yaml', specWith('      operationId: getThing\n      responses:\n        "200": {content: {}}\n'));
    const error = await failureOf(file);
    expect(error.code).toBe('SPEC_INVALID');
    expect(error.pointer).toBe('/paths/~1things~1{id}/get/responses/200');
    expect(error.message).toContain(`${file}#/paths/~1things~1{id}/get/responses/200`);
    expect(error.message).toContain("must have required property 'description'");
  });

  test('rejects a response schema Ajv cannot compile, naming the authored schema', async () => {
    const operation = '      operationId: getThing\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: "#/components/schemas/Thing"}\n';
    const components = 'components:\n  schemas:\n    Thing: {type: object, properties: {name: {type: string, minLenght: 2}}}\n';
    const file = await specFile('bad-schema.yaml', specWith(operation) + components);
    const error = await failureOf(file);
    expect(error.code).toBe('SPEC_SCHEMA');
    expect(error.message).toContain(`${file}#/components/schemas/Thing`);
    expect(error.message).toContain('minLenght');
  });

  test('rejects a path template parameter that no parameter declares, naming the operation', async () => {
    const file = await specFile('undeclared.yaml', specWith().replace("    parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n", ''));
    const error = await failureOf(file);
    expect(error.code).toBe('SPEC_PATH_PARAMS');
    expect(error.message).toBe(`${file}#/paths/~1things~1{id}/get/parameters: expected path parameters ["id"] as in the path template, got []`);
  });
});
