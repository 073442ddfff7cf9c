import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type JsonSchema } from '../contract/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = fileURLToPath(new URL('./browser.ts', import.meta.url));

/** Every source file of the folders that must stay runtime-neutral. */
function neutralSources(): string[] {
  return ['src/mock/core', 'src/mock/layers'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => join(dir, f)),
  );
}

let bundle: { text: string; inputs: string[] };
beforeAll(async () => {
  // platform 'browser' gives no Node built-ins: an import of node:fs (or of a package that needs
  // one) fails the build instead of being polyfilled or left external.
  const result = await build({ entryPoints: [ENTRY], absWorkingDir: ROOT, bundle: true, platform: 'browser', format: 'iife', globalName: 'FlagAdminMock', write: false, metafile: true, logLevel: 'silent' });
  bundle = { text: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}, 60_000);

describe('the runtime-neutral mock entry (src/mock/browser.ts)', () => {
  it('bundles for a browser with no Node module, and takes in every file of core/ and layers/', () => {
    expect(bundle.inputs.filter((input) => input.startsWith('node:') || /(^|\/)node_modules\/@types\/node\//.test(input))).toEqual([]);
    // A file that only declares types is erased from the bundle; it must then import nothing but types.
    const unchecked = neutralSources().filter((file) => !bundle.inputs.includes(relative(ROOT, join(ROOT, file))) && /^import (?!type )/m.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(unchecked, 'files of core/ or layers/ that the browser entry does not reach, so this test does not check them').toEqual([]);
  });

  it('runs with Web APIs only: a stateful delete through the Fetch handler answers 200, then 404', async () => {
    const contract = await loadContract({ validate: false });
    // Only what a service worker has: no process, require, Buffer or node:* module.
    const sandbox = createContext({ Request, Response, Headers, URL, URLSearchParams, performance, crypto, structuredClone, setTimeout, clearTimeout, AbortController, AbortSignal, TextEncoder, TextDecoder });
    runInContext(bundle.text, sandbox);
    // The spec arrives as a JSON value, as a browser would fetch or import it.
    sandbox.spec = JSON.parse(JSON.stringify(contract.rawDocument)) as JsonSchema;
    const statuses = (await runInContext(`(async () => {
      const contract = FlagAdminMock.createContract(spec);
      const handler = FlagAdminMock.createMockHandler({ contract });
      const remove = () => handler(new Request('http://mock.test/api/admin/service-account/1/token/2', { method: 'DELETE', headers: { authorization: 'mock-admin-key' } }));
      return [typeof process, typeof require, (await remove()).status, (await remove()).status];
    })()`, sandbox)) as unknown[];
    expect(statuses).toEqual(['undefined', 'undefined', 200, 404]);
  });
});
