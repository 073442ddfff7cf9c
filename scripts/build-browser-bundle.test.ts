import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/index.ts';
import { DEFAULT_FIXTURES_FILE } from '../src/mock/index.ts';
import { BROWSER_BUNDLE_NAME } from './build-browser-bundle.ts';

const SCRIPT = fileURLToPath(new URL('./build-browser-bundle.ts', import.meta.url));
let outDir: string;
let stdout: string;
beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'flag-admin-bundle-'));
  ({ stdout } = await promisify(execFile)(process.execPath, [SCRIPT, outDir]));
}, 60_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('npm run build:browser', () => {
  it('writes the values file: the spec with no $ref left, and the default fixtures', async () => {
    const values = JSON.parse(readFileSync(join(outDir, `${BROWSER_BUNDLE_NAME}.json`), 'utf8'));
    const contract = await loadContract({ validate: false, lazyValidators: true });
    expect(JSON.stringify(values.spec)).not.toContain('"$ref"');
    expect(values.spec).toEqual(contract.document);
    const { $schema, ...fixtures } = JSON.parse(readFileSync(DEFAULT_FIXTURES_FILE, 'utf8'));
    expect($schema).toBeTypeOf('string');
    expect(values.fixtures).toEqual(fixtures);
  });

  it('writes one ES module exporting what a page needs to run the mock, and says where', () => {
    const script = readFileSync(join(outDir, `${BROWSER_BUNDLE_NAME}.js`), 'utf8');
    expect(script).toMatch(/export\s*\{[^}]*\bcreateMockHandler\b/);
    expect(script).toMatch(/export\s*\{[^}]*\bcreateContract\b/);
    expect(script).not.toMatch(/\bfrom\s*["']node:|\brequire\(["']node:/);
    expect(stdout).toContain(join(outDir, BROWSER_BUNDLE_NAME));
  });
});
