import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DocsAsset, DocsAssets } from '../layers/docs.ts';

/**
 * Swagger UI's static files, read from the installed `swagger-ui-dist` package and served under
 * /docs/ by the docs layer. Why swagger-ui-dist: a prebuilt bundle with no dependencies (no CDN,
 * no bundler at our end) that renders OpenAPI 3.1, and whose try-it sends requests from the page
 * straight to the spec's `servers` (this mock) with the Authorize dialog filled in. Scalar's
 * reference loads fonts from its CDN and routes try-it through its proxy unless both are turned
 * off; Redoc has no try-it.
 */
const FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

export function swaggerUiAssets(): DocsAssets {
  const folder = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  // Read once, on first use: the bundle is ~1.7 MB and most mock runs never open /docs.
  const cache = new Map<string, Promise<DocsAsset>>();
  return async (file) => {
    // Own keys only: `__proto__` or `toString` would find what every object inherits, then no file.
    if (!Object.hasOwn(FILES, file)) return undefined;
    const type = FILES[file]!;
    let asset = cache.get(file);
    if (!asset) {
      asset = readFile(join(folder, file), 'utf8').then((body) => ({ type, body }));
      cache.set(file, asset);
    }
    return asset;
  };
}
