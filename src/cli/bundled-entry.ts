/**
 * `flag-admin check` in a checkout runs its ~160 TypeScript modules as one CommonJS bundle
 * (esbuild, the kit's devDependency), built from the sources on the first run after any of them
 * changed, and compiled from a V8 code cache made at the end of a completed run. Two costs go:
 * per module, a resolve, a compile-cache lookup, a type strip and a link; and per function, the
 * lazy compile on first call, which Node's compile cache does not save (it caches a module's code
 * as compiled when loaded, before any of its functions ran), while a cache V8 makes after the run
 * holds every function the run called. Against the mock, ~650-690 ms of CPU became ~550
 * (bench/RESULTS.md, "flag-admin check CPU"). The .ts files stay the only source: the bundle is
 * derived, kept out of git (.flag-admin-cache/), carries a source map (`node --enable-source-maps`
 * and debuggers show the .ts lines), and FLAG_ADMIN_NO_BUNDLE=1 runs the sources themselves. The
 * packed package (dist/) is not bundled: it has no esbuild.
 */

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
  /** How this module builds and loads a bundle (BUNDLE_FORMAT): a build made another way is made again. */
  format: string;
  build: string;
  inputs: [path: string, size: number, mtimeMs: number][];
}

/** The bundle's file in its build's folder; V8's code cache for it sits beside it (CODE_CACHE_SUFFIX). */
const BUNDLE_FILE = 'entry.cjs';
/** Changed whenever the build's options or loadBundle change what a bundle must be. */
const BUNDLE_FORMAT = 'cjs, strict, import.meta.url defined, v1';
const CODE_CACHE_SUFFIX = '.v8-cache';
/** What the bundle's modules read for `import.meta.url`. */
const IMPORT_META_URL = '__bundleImportMetaUrl';

/** Files beside the sources whose change changes the bundle (esbuild reads tsconfig.json; package.json says the code is ESM). */
const BUILD_SETTINGS = ['package.json', 'tsconfig.json'];

/** A build older than this that is no longer the latest is removed (a run that began on it has long finished). */
const STALE_BUILD_MS = 24 * 60 * 60 * 1000;

/**
 * The bundle of `entry` as its sources stand (a CommonJS file for loadBundle), and whether this call built it;
 * undefined when no bundle can be made (no esbuild, a read-only folder, a syntax error that the
 * sources will report in their own words): the caller then imports the sources.
 * A build goes to a folder of its own and is named the latest by an atomic rename, so runs that
 * start together never read a half-written bundle, and a run that began on an older build still
 * finds its lazily imported chunks.
 */
export async function bundledEntry(options: BundleOptions): Promise<{ file: string; built: boolean } | undefined> {
  const { readFileSync, statSync } = process.getBuiltinModule('node:fs');
  const { join } = process.getBuiltinModule('node:path');
  const latestFile = join(options.cacheDir, 'latest.json');
  let latest: Latest | undefined;
  try {
    latest = JSON.parse(readFileSync(latestFile, 'utf8')) as Latest;
  } catch {
    latest = undefined;
  }
  if (latest !== undefined && latest.format === BUNDLE_FORMAT && statSync(join(options.cacheDir, latest.build, BUNDLE_FILE), { throwIfNoEntry: false }) !== undefined && latest.inputs.every(([path, size, mtimeMs]) => {
    const stat = statSync(join(options.root, path), { throwIfNoEntry: false });
    return stat !== undefined && stat.size === size && stat.mtimeMs === mtimeMs;
  })) return { file: join(options.cacheDir, latest.build, BUNDLE_FILE), built: false };
  const built = await build(options);
  return built === undefined ? undefined : { file: built, built: true };
}

/** Builds made by this process: two in one millisecond still get folders of their own. */
let builds = 0;

async function build(options: BundleOptions): Promise<string | undefined> {
  const { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } = process.getBuiltinModule('node:fs');
  const { join, relative } = process.getBuiltinModule('node:path');
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined;
  }
  // To the microsecond, as file times are: Date.now() floors to the millisecond, so a source written earlier in the same
  // millisecond (a test writing its package and bundling it at once) looked written after the build began.
  const started = performance.timeOrigin + performance.now();
  const name = `build-${Math.floor(started)}-${process.pid}-${++builds}`;
  const folder = join(options.cacheDir, name);
  try {
    mkdirSync(options.cacheDir, { recursive: true });
    const result = await esbuild.build({
      entryPoints: [options.entry],
      absWorkingDir: options.root,
      outfile: join(folder, BUNDLE_FILE),
      bundle: true,
      // CommonJS, as vm.Script runs it with a code cache (loadBundle); the suite's lazy imports stay lazy (esbuild's module initializers).
      format: 'cjs',
      platform: 'node',
      // Node runs the code as it is written: no syntax lowered, class fields as Node's type stripping leaves them.
      target: 'esnext',
      packages: 'external',
      // ES modules are strict code: the bundle is too. Code that finds files from its own location gets the bundle's.
      banner: { js: `'use strict';\nconst ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;` },
      define: { 'import.meta.url': IMPORT_META_URL },
      sourcemap: 'linked',
      metafile: true,
      logLevel: 'silent',
    });
    // A warning is code that would run otherwise than from the sources (import.meta.dirname empty in CommonJS, a
    // require of something missing): no run uses such a build; the sources run and say what is wrong in their own words.
    if (result.warnings.length > 0) throw new Error('esbuild warned');
    // Besides the modules bundled, what decides how esbuild reads them: the package's type and tsconfig.json.
    const read = [...Object.keys(result.metafile.inputs), ...BUILD_SETTINGS.filter((file) => statSync(join(options.root, file), { throwIfNoEntry: false }) !== undefined)];
    const inputs: Latest['inputs'] = read.map((path) => {
      const stat = statSync(join(options.root, path));
      return [relative(options.root, join(options.root, path)), stat.size, stat.mtimeMs];
    });
    // An input changed while it was being bundled: this build may hold either version, so it is used by no run (the sources are).
    if (inputs.some(([, , mtimeMs]) => mtimeMs >= started)) return undefined;
    const latestTemp = join(options.cacheDir, `latest-${Math.floor(started)}-${process.pid}-${builds}.json`);
    writeFileSync(latestTemp, JSON.stringify({ format: BUNDLE_FORMAT, build: name, inputs } satisfies Latest));
    renameSync(latestTemp, join(options.cacheDir, 'latest.json'));
    for (const other of readdirSync(options.cacheDir)) {
      if (other === name || !other.startsWith('build-')) continue;
      const stat = statSync(join(options.cacheDir, other), { throwIfNoEntry: false });
      if (stat !== undefined && started - stat.mtimeMs > STALE_BUILD_MS) rmSync(join(options.cacheDir, other), { recursive: true, force: true });
    }
    return join(folder, BUNDLE_FILE);
  } catch {
    rmSync(folder, { recursive: true, force: true });
    return undefined;
  }
}

/** A bundle run: its exports, and how to keep the code it compiled for the next runs. */
export interface LoadedBundle<T> {
  exports: T;
  /** Whether V8 took the code cache made after an earlier run. */
  fromCodeCache: boolean;
  /**
   * Saves V8's code for the bundle, every function compiled so far included, unless a cache it
   * took is already there: call it after a completed run, so the cache holds what a run calls.
   */
  keepCode(): void;
}

/**
 * Runs a CommonJS bundle (bundledEntry) in this process as Node would require it, from V8's code
 * cache beside it when there is one that V8 takes (same bundle, same V8 and flags). Dynamic
 * imports in it (packages loaded on use) go to Node's own loader.
 */
export function loadBundle<T>(file: string): LoadedBundle<T> {
  const { readFileSync, renameSync, writeFileSync } = process.getBuiltinModule('node:fs');
  const { Script, constants } = process.getBuiltinModule('node:vm');
  const { createRequire } = process.getBuiltinModule('node:module');
  const { dirname } = process.getBuiltinModule('node:path');
  const cacheFile = file + CODE_CACHE_SUFFIX;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // Node's own CommonJS wrapper (lib/internal/modules/cjs/loader.js), so the bundle sees require, module and __filename as a required file does.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, 'utf8')}\n})`;
  const script = new Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}), importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  const fromCodeCache = cachedData !== undefined && script.cachedDataRejected === false;
  const module = { exports: {} as T };
  (script.runInThisContext() as (exports: T, require: NodeJS.Require, module: { exports: T }, filename: string, dirname: string) => void)(module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    fromCodeCache,
    keepCode() {
      if (fromCodeCache) return;
      try {
        const temp = `${cacheFile}-${process.pid}`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // A read-only folder: the next run compiles as this one did.
      }
    },
  };
}
