import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_FILE, loadContract } from './load-contract.ts';
import { PARSED_SPEC_FILE, readParsedSpec, sha256Of, type ParsedSpec } from './parsed-spec.ts';

describe('spec/openapi.parsed.json', () => {
  it('is spec/openapi.yaml as parsed today', async () => {
    const parsed = JSON.parse(await readFile(PARSED_SPEC_FILE, 'utf8')) as ParsedSpec;
    const stale = 'spec/openapi.parsed.json is stale: run `npm run gen:spec-json` and commit the result';
    expect(parsed.sha256, stale).toBe(sha256Of(await readFile(DEFAULT_SPEC_FILE)));
    const fromYaml = await loadContract({ validate: false, parsedSpec: false });
    expect(parsed.document, stale).toEqual(fromYaml.rawDocument);
  });

  it('gives the mock the same contract as swagger-parser does, refs resolved alike', async () => {
    const fromJson = await loadContract({ validate: false });
    const fromYaml = await loadContract({ validate: false, parsedSpec: false });
    expect(fromJson.document).toEqual(fromYaml.document);
    expect(fromJson.operations.map((o) => [o.operationId, o.method, o.path, o.authHeaders, [...o.responses.keys()]])).toEqual(
      fromYaml.operations.map((o) => [o.operationId, o.method, o.path, o.authHeaders, [...o.responses.keys()]]),
    );
    expect([...fromJson.secretProperties]).toEqual([...fromYaml.secretProperties]);
  });

  it('is not used for a spec whose text differs from the one it was made from', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flag-admin-parsed-'));
    try {
      const copy = join(dir, 'openapi.yaml');
      await copyFile(DEFAULT_SPEC_FILE, copy);
      expect(readParsedSpec(copy), 'another file, same text').toBeUndefined();
      expect(readParsedSpec(DEFAULT_SPEC_FILE)).toBeDefined();
      await writeFile(copy, `${await readFile(DEFAULT_SPEC_FILE, 'utf8')}\n# edited\n`);
      expect(readParsedSpec(copy)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});
