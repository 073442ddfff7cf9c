import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createContract } from './create-contract.ts';
import { DEFAULT_SPEC_FILE, loadContract } from './load-contract.ts';
import { readParsedSpec } from './parsed-spec.ts';
import { PRECOMPILED_VALIDATORS_FILE, precompiledValidatorsSource, readPrecompiledValidators } from './precompiled-validators.ts';

/** Bodies that pass and break each response schema in different ways: its examples, and each of them altered. */
function bodiesFor(example: unknown): unknown[] {
  const bodies: unknown[] = [null, 0, 'text', [], {}, { unlisted: true }];
  if (example === undefined) return bodies;
  bodies.push(example);
  if (example && typeof example === 'object' && !Array.isArray(example)) {
    const object = example as Record<string, unknown>;
    bodies.push({ ...object, unlisted: 1 });
    for (const name of Object.keys(object)) {
      const { [name]: _dropped, ...without } = object;
      bodies.push(without, { ...object, [name]: null }, { ...object, [name]: 'x'.repeat(300) }, { ...object, [name]: [object[name], object[name]] });
    }
  }
  return bodies;
}

describe('spec/openapi.validators.cjs', () => {
  it('is what Ajv generates from spec/openapi.yaml today', async () => {
    const parsed = readParsedSpec(DEFAULT_SPEC_FILE);
    expect(parsed, 'spec/openapi.parsed.json is stale: run `npm run gen:spec-json`').toBeDefined();
    expect(await readFile(PRECOMPILED_VALIDATORS_FILE, 'utf8'), 'spec/openapi.validators.cjs is stale: run `npm run gen:spec-json` and commit the result').toBe(precompiledValidatorsSource(parsed!));
  });

  it('judges every body as the validators Ajv compiles at run time do: same violations, same pointers', async () => {
    const ahead = await loadContract({ validate: false });
    const compiled = createContract(readParsedSpec(DEFAULT_SPEC_FILE)!.document, { specFile: DEFAULT_SPEC_FILE, validateSchemas: false });
    let judged = 0;
    for (const operation of ahead.operations) {
      for (const [status, response] of operation.responses) {
        const twin = compiled.operation(operation.operationId).responses.get(status)!;
        for (const body of [...bodiesFor(response.example), ...[...response.examples.values()].flatMap(bodiesFor)]) {
          expect(response.validate(body), `${operation.operationId} ${status}`).toEqual(twin.validate(body));
          expect(response.validateStrict(body), `${operation.operationId} ${status}, closed`).toEqual(twin.validateStrict(body));
          if (response.schema && twin.validate(body).length > 0) judged++;
        }
      }
    }
    // The comparison saw violations, not only bodies that pass.
    expect(judged).toBeGreaterThan(20);
  });

  it('gives no validator for a spec text other than the one it was made from', () => {
    const sha256 = readParsedSpec(DEFAULT_SPEC_FILE)!.sha256;
    expect(readPrecompiledValidators(sha256)('/paths/~1api~1admin~1environments~1project~1{projectId}/get/responses/200/content/application~1json/schema')).toBeDefined();
    expect(readPrecompiledValidators('0'.repeat(64))('/paths/~1api~1admin~1environments~1project~1{projectId}/get/responses/200/content/application~1json/schema')).toBeUndefined();
  });
});
