import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * Redocly's example rules (`no-invalid-media-type-examples`, `no-invalid-schema-examples`,
 * `no-invalid-parameter-examples`) compile an Ajv validator for each schema an example is checked
 * against: on GitHub's 13 MB document ~1,100 compiles, over half of lint's CPU, each validator then
 * run on one or a few examples. Ajv's code optimisation pass (`code.optimize`, one pass by default:
 * Ajv's options, "code") only rewrites the generated source (unused names dropped, constant
 * conditions folded); what a validator accepts and the errors it reports are the same without it,
 * and it is ~40% of each compile (measured on GitHub's document: 1.9 s of compiling became 1.3 s, the
 * 3,910 findings byte for byte the same). Redocly builds these Ajv instances inside its
 * `AjvValidator` (`@redocly/openapi-core/lib/rules/ajv.js`, not exported), so each instance it
 * creates is set to no optimisation pass as it is created. The module is the one Redocly's rules
 * import (the same file URL); a core that no longer has it keeps Ajv's default (lint is then as
 * correct and slower), which redocly-example-validators.test.ts reports.
 */
export async function compileExampleValidatorsUnoptimised(): Promise<boolean> {
  const index = createRequire(import.meta.url).resolve('@redocly/openapi-core');
  let module: { AjvValidator?: { prototype: { getAjv?: (...args: unknown[]) => unknown } } };
  try {
    module = await import(new URL('./rules/ajv.js', pathToFileURL(index)).href);
  } catch {
    return false;
  }
  const prototype = module.AjvValidator?.prototype;
  const getAjv = prototype?.getAjv;
  if (!prototype || typeof getAjv !== 'function') return false;
  if ((getAjv as { unoptimised?: true }).unoptimised) return true;
  const unoptimised = function (this: unknown, ...args: unknown[]) {
    const ajv = getAjv.apply(this, args) as { opts?: { code?: { optimize?: number } } };
    if (ajv?.opts?.code) ajv.opts.code.optimize = 0;
    return ajv;
  };
  prototype.getAjv = Object.assign(unoptimised, { unoptimised: true as const });
  return true;
}
