/**
 * `flag-admin check` in a checkout runs its ~165 TypeScript modules as one bundle (esbuild, the
 * kit's devDependency; chunks only where the suite imports lazily), built from the sources on the
 * first run after any of them changed. Each module costs Node a resolve, a compile-cache lookup,
 * a type strip and a link even with the compile cache warm: against the mock the bundle took
 * 50-100 ms off ~650 ms of CPU (bench/RESULTS.md, "flag-admin check CPU"). The .ts files stay the
 * only source: the bundle is derived, kept out of git (.flag-admin-cache/), and carries a source
 * map, so `node --enable-source-maps` and debuggers show the .ts lines; FLAG_ADMIN_NO_BUNDLE=1
 * runs the sources themselves. The packed package (dist/) is not bundled: it has no esbuild.
 */
import { pathToFileURL } from 'node:url';

export interface BundleOptions {
  /** The module to bundle, an absolute path, e.g. `<root>/conformance/cli.ts`. */
  entry: string;
  /** The package's root folder: the bundle imports its packages (kept external) from there. */
  root: string;
  /**
   * Where builds are kept: a folder inside `root`, so that code finding files from its own
   * location (src/package-files.ts walks up to package.json) finds the same package.
   */
  cacheDir: string;
}

/** The latest build and the state of every input it was made from: size and modification time. */
interface Latest {
  build: string;
  inputs: [path: string, size: number, mtimeMs: number][];
}

/** Files beside the sources whose change changes the bundle (esbuild reads tsconfig.json; package.json says the code is ESM). */
const BUILD_SETTINGS = ['package.json', 'tsconfig.json'];

/** A build older than this that is no longer the latest is removed (a run that began on it has long finished). */
const STALE_BUILD_MS = 24 * 60 * 60 * 1000;

/**
 * The file URL of the bundle of `entry` as its sources stand, and whether this call built it;
 * undefined when no bundle can be made (no esbuild, a read-only folder, a syntax error that the
 * sources will report in their own words): the caller then imports the sources.
 * A build goes to a folder of its own and is named the latest by an atomic rename, so runs that
 * start together never read a half-written bundle, and a run that began on an older build still
 * finds its lazily imported chunks.
 */
export async function bundledEntry(options: BundleOptions): Promise<{ url: string; built: boolean } | undefined> {
  const { readFileSync, statSync } = process.getBuiltinModule('node:fs');
  const { join } = process.getBuiltinModule('node:path');
  const latestFile = join(options.cacheDir, 'latest.json');
  let latest: Latest | undefined;
  try {
    latest = JSON.parse(readFileSync(latestFile, 'utf8')) as Latest;
  } catch {
    latest = undefined;
  }
  if (latest !== undefined && latest.inputs.every(([path, size, mtimeMs]) => {
    const stat = statSync(join(options.root, path), { throwIfNoEntry: false });
    return stat !== undefined && stat.size === size && stat.mtimeMs === mtimeMs;
  })) return { url: pathToFileURL(join(options.cacheDir, latest.build, 'entry.js')).href, built: false };
  const built = await build(options);
  return built === undefined ? undefined : { url: built, built: true };
}

async function build(options: BundleOptions): Promise<string | undefined> {
  const { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } = process.getBuiltinModule('node:fs');
  const { join, relative } = process.getBuiltinModule('node:path');
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined;
  }
  const started = Date.now();
  const name = `build-${started}-${process.pid}`;
  const folder = join(options.cacheDir, name);
  try {
    mkdirSync(options.cacheDir, { recursive: true });
    const result = await esbuild.build({
      entryPoints: { entry: options.entry },
      absWorkingDir: options.root,
      outdir: folder,
      bundle: true,
      // The suite's lazy imports (a config file's parser, reports not asked for) stay lazy: chunks beside the entry.
      splitting: true,
      format: 'esm',
      platform: 'node',
      // Node runs the code as it is written: no syntax lowered, class fields as Node's type stripping leaves them.
      target: 'esnext',
      packages: 'external',
      sourcemap: 'linked',
      metafile: true,
      logLevel: 'silent',
    });
    // Besides the modules bundled, what decides how esbuild reads them: the package's type and tsconfig.json.
    const read = [...Object.keys(result.metafile.inputs), ...BUILD_SETTINGS.filter((file) => statSync(join(options.root, file), { throwIfNoEntry: false }) !== undefined)];
    const inputs: Latest['inputs'] = read.map((path) => {
      const stat = statSync(join(options.root, path));
      return [relative(options.root, join(options.root, path)), stat.size, stat.mtimeMs];
    });
    // An input changed while it was being bundled: this build may hold either version, so it is used by no run (the sources are).
    if (inputs.some(([, , mtimeMs]) => mtimeMs >= started)) return undefined;
    const latestTemp = join(options.cacheDir, `latest-${started}-${process.pid}.json`);
    writeFileSync(latestTemp, JSON.stringify({ build: name, inputs } satisfies Latest));
    renameSync(latestTemp, join(options.cacheDir, 'latest.json'));
    for (const other of readdirSync(options.cacheDir)) {
      if (other === name || !other.startsWith('build-')) continue;
      const stat = statSync(join(options.cacheDir, other), { throwIfNoEntry: false });
      if (stat !== undefined && started - stat.mtimeMs > STALE_BUILD_MS) rmSync(join(options.cacheDir, other), { recursive: true, force: true });
    }
    return pathToFileURL(join(folder, 'entry.js')).href;
  } catch {
    rmSync(folder, { recursive: true, force: true });
    return undefined;
  }
}
