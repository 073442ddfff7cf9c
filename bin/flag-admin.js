#!/usr/bin/env node
// Checked before anything else loads: on an older Node the kit's dependencies fail deep inside
// (undici, swagger-parser) with a stack trace that CI would read as a verdict. This file keeps to
// syntax that old Node versions parse, so the message is what an old Node shows.
const MINIMUM = [22, 19];
const running = process.versions.node.split('.').map(Number);
if (running[0] < MINIMUM[0] || (running[0] === MINIMUM[0] && running[1] < MINIMUM[1])) {
  process.stderr.write(
    `flag-admin: needs Node ${MINIMUM.join('.')} or later; this is Node ${process.versions.node} (${process.execPath}).\n` +
      'Install a current Node (e.g. 24 LTS) and run it again; in a checkout of the kit, `npx flag-admin` uses the pinned Node 24.\n',
  );
  process.exit(2);
}

// Node's compile cache (in os.tmpdir(), or NODE_COMPILE_CACHE; off with NODE_DISABLE_COMPILE_CACHE=1)
// keeps the stripped TypeScript and V8's code for the next start: a CI fleet starting the mock
// thousands of times parses our modules once (bench/RESULTS.md, start-up).
const { enableCompileCache, registerHooks } = await import('node:module');
enableCompileCache?.();

// In a checkout this runs the TypeScript sources (Node >= 22.18 strips types). Installed as a
// package, Node strips no types under node_modules, so it runs the JavaScript of the prepack build.
const entry = import.meta.url.includes('/node_modules/') ? '../dist/src/cli/main.js' : '../src/cli/main.ts';
// Installed from a git URL, npm builds nothing (the build runs on `npm pack`): say what to install instead of a stack trace.
// The CommonJS module: an ESM import of node:fs builds its whole namespace (fs/promises, streams, watchers).
if (!process.getBuiltinModule('node:fs').existsSync(new URL(entry, import.meta.url))) {
  process.stderr.write(
    'flag-admin: this copy of flag-admin-contract has no built JavaScript (' + new URL(entry, import.meta.url).pathname + ' is missing):\n' +
      'it was installed from its sources (a git URL?), which npm does not build. Install the tarball that `npm pack` makes\n' +
      'in a checkout of the kit instead (docs/conformance-reports.md, "In CI").\n',
  );
  process.exit(2);
}
// The kit's own relative imports resolve without Node's package lookups (own-modules.js says why).
registerHooks?.({ resolve: (await import('./own-modules.js')).ownModulesHook(new URL('..', import.meta.url)) });
const { main } = await import(entry);

const code = await main(process.argv.slice(2));
// check is done when main resolves: it exits then rather than when the event loop drains (exit-when-written.js says why).
if (process.argv[2] === 'check') (await import('./exit-when-written.js')).exitWhenWritten(code);
else process.exitCode = code;
