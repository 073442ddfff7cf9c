// The kit's own modules import one another by relative paths that name the file (`./run.ts` in the
// checkout, `./run.js` in the build). For each such import Node's resolver still does what a
// package in node_modules may need: builds and normalizes URLs, stats and realpaths the file, and
// walks up to the nearest package.json to learn the module's format
// (node:internal/modules/esm/resolve.js finalizeResolution, get_format.js). `flag-admin check`
// resolves ~420 such imports: ~50 ms of its CPU, importing the suite took 103-140 ms and takes 57-71
// (bench/RESULTS.md, "flag-admin check CPU"). Within the kit the answer is known: the file the path names, in the format the
// kit's package.json gives every .js and .ts file ("type": "module", which is also why this file
// runs as ESM). Everything else (node: builtins, packages, require(), JSON, the precompiled
// CommonJS validators, a file that is not there) goes to Node's resolver unchanged.
const { statSync } = process.getBuiltinModule('node:fs');
const { fileURLToPath } = process.getBuiltinModule('node:url');

/** How the kit's own files are read: TypeScript in the checkout (Node strips the types), JavaScript in the build. */
const FORMATS = { '.ts': 'module-typescript', '.js': 'module' };

/**
 * A module.registerHooks() resolve hook for the relative imports of the kit's own files under `root`
 * (the package's folder, not its node_modules).
 * @example registerHooks({ resolve: ownModulesHook(new URL('..', import.meta.url)) });
 */
export function ownModulesHook(root) {
  const prefix = root.href.endsWith('/') ? root.href : `${root.href}/`;
  /** Whether each URL named so far is a file: a module is imported from several others (~420 imports of ~150 files). */
  const isFile = new Map();
  return function resolve(specifier, context, next) {
    const parent = context.parentURL;
    const format = FORMATS[specifier.slice(-3)];
    if (
      format !== undefined &&
      (specifier.startsWith('./') || specifier.startsWith('../')) &&
      parent !== undefined &&
      parent.startsWith(prefix) &&
      !parent.includes('/node_modules/', prefix.length - 1) &&
      // An import, not a require(): CommonJS resolution has its own rules (and is not the kit's).
      context.conditions.includes('import')
    ) {
      const url = new URL(specifier, parent);
      // A file that is not there (or a folder) is Node's to refuse, with its own error and message.
      const href = url.href;
      if (href.startsWith(prefix) && !href.includes('/node_modules/', prefix.length - 1) && url.search === '' && url.hash === '') {
        let file = isFile.get(href);
        if (file === undefined) isFile.set(href, (file = statSync(fileURLToPath(url), { throwIfNoEntry: false })?.isFile() === true));
        if (file) return { url: href, format, shortCircuit: true };
      }
    }
    return next(specifier, context);
  };
}
