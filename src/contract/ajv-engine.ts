// Where the neutral contract gets Ajv from, without importing it: Ajv 8 with ajv-formats is a
// CommonJS tree of ~90 files that took ~40 ms of the mock's start (bench/RESULTS.md, start-up),
// and a plain start compiles no schema at all (validators compile on first use). So it is
// loaded on the first compile: under Node with a synchronous require (no `node:*` import, so the
// core still bundles for a browser), in a browser from ./ajv-bundled.ts, which the browser entry
// (src/mock/browser.ts) imports to put Ajv in the bundle.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type addFormats from 'ajv-formats';

export interface AjvEngine {
  Ajv2020: typeof Ajv2020;
  addFormats: typeof addFormats.default;
}

let engine: AjvEngine | undefined;

/** Hands over a statically imported Ajv (a bundle has no require to load it with). */
export function provideAjvEngine(given: AjvEngine): void {
  engine ??= given;
}

/** Ajv and ajv-formats, loaded on the first call. */
export function ajvEngine(): AjvEngine {
  return (engine ??= requireAjvEngine());
}

interface NodeModuleBuiltin {
  createRequire(from: string): (id: string) => unknown;
}

function requireAjvEngine(): AjvEngine {
  // process.getBuiltinModule (Node >= 22.3) reaches node:module without an import statement.
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (!getBuiltinModule) {
    throw new Error('Ajv is not loaded: outside Node, import the browser entry (src/mock/browser.ts), which bundles it');
  }
  const require = (getBuiltinModule('node:module') as NodeModuleBuiltin).createRequire(import.meta.url);
  const ajv = require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 };
  const formats = require('ajv-formats') as { default: typeof addFormats.default };
  return { Ajv2020: ajv.Ajv2020, addFormats: formats.default };
}
