import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root folder (where spec/ and fixtures/ sit), found from this module whether it
 * runs as TypeScript from src/ in a checkout or as JavaScript from dist/src/ in the packed package.
 */
function findPackageRoot(): string {
  // node:fs as its CommonJS module: an ESM import builds the whole namespace (fs/promises, streams, watchers), ~15 modules every CLI start pays.
  const { existsSync } = process.getBuiltinModule('node:fs');
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`flag-admin-contract: no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
}

const PACKAGE_ROOT = findPackageRoot();

/** A file shipped with the package, e.g. `packageFile('spec', 'openapi.yaml')`. */
export function packageFile(...segments: string[]): string {
  return join(PACKAGE_ROOT, ...segments);
}
