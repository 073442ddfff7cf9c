import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lintSpec } from './lint-spec.ts';

// Redocly's example rules build their Ajv instances inside AjvValidator (not exported by
// @redocly/openapi-core): reached here by its file, as redocly-example-validators.ts reaches it.
const index = createRequire(import.meta.url).resolve('@redocly/openapi-core');
const { AjvValidator } = (await import(new URL('./rules/ajv.js', pathToFileURL(index)).href)) as { AjvValidator: new () => { getAjv(resolve: unknown, dialect: string): { opts: { code: { optimize: number } } } } };

describe("Redocly's example validators", () => {
  it('compile without Ajv\'s optimisation pass once lint has loaded (both dialects: 3.0\'s draft-04 and 3.1\'s 2020-12)', async () => {
    await lintSpec('spec/openapi.yaml');
    const validator = new AjvValidator();
    expect(validator.getAjv(() => undefined, 'draft4').opts.code.optimize).toBe(0);
    expect(validator.getAjv(() => undefined, '2020').opts.code.optimize).toBe(0);
  });
});
