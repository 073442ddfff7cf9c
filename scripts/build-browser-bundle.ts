// Builds what a browser needs to run the mock without a server (`npm run build:browser`):
//   dist/browser/flag-admin-mock.js    the runtime-neutral core (src/mock/browser.ts) bundled as one ES module
//   dist/browser/flag-admin-mock.json  { spec, fixtures }: the dereferenced spec/openapi.yaml and fixtures/default.json
// A browser has no file system, so the spec and fixtures come in as values (issue 6, "One core, three homes").
// The bundle is built for platform "browser": a `node:*` import anywhere in the core fails the build.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { loadContract } from '../src/contract/load-contract.ts';
import { DEFAULT_FIXTURES_FILE } from '../src/mock/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BROWSER_ENTRY = join(ROOT, 'src', 'mock', 'browser.ts');
export const DEFAULT_BROWSER_OUT_DIR = join(ROOT, 'dist', 'browser');
export const BROWSER_BUNDLE_NAME = 'flag-admin-mock';

export interface BrowserBundle {
  /** The ES module: the core and everything it imports. */
  script: string;
  /** The JSON values file: `{ spec, fixtures }`. */
  values: string;
  /** What esbuild put in the module, to prove nothing of Node is in it. */
  metafile: Metafile;
}

/** The `{ spec, fixtures }` value a browser passes to createMockHandler. */
export async function buildSpecBundle(): Promise<{ spec: unknown; fixtures: unknown }> {
  const contract = await loadContract({ validate: false, lazyValidators: true });
  const fixtures: unknown = JSON.parse(await readFile(DEFAULT_FIXTURES_FILE, 'utf8'));
  // The fixture file's "$schema" points at a file next to it, which means nothing in a browser.
  if (fixtures && typeof fixtures === 'object') delete (fixtures as Record<string, unknown>).$schema;
  return { spec: contract.document, fixtures };
}

export async function buildBrowserBundle(outDir = DEFAULT_BROWSER_OUT_DIR): Promise<BrowserBundle> {
  const result = await build({
    entryPoints: [BROWSER_ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    outfile: join(outDir, `${BROWSER_BUNDLE_NAME}.js`),
  });
  const script = result.outputFiles[0]!.text;
  const values = JSON.stringify(await buildSpecBundle());
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, `${BROWSER_BUNDLE_NAME}.js`), script);
  await writeFile(join(outDir, `${BROWSER_BUNDLE_NAME}.json`), values);
  return { script, values, metafile: result.metafile };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const outDir = process.argv[2] ?? DEFAULT_BROWSER_OUT_DIR;
  const { script, values } = await buildBrowserBundle(outDir);
  console.log(`Wrote ${join(outDir, BROWSER_BUNDLE_NAME)}.js (${(script.length / 1024).toFixed(0)} KiB) and .json (${(values.length / 1024).toFixed(0)} KiB)`);
}
