import { stringify } from 'yaml';
import { place } from './report-format.ts';
import { firstUnresolvedRef, resolveRefs } from './resolve-refs.ts';
import { DEVICE_FLOW_SCOPES } from './redocly-device-flow-scopes.ts';
import { SpecReadError, type SpecSource } from './spec-source.ts';

export const BUNDLE_FORMATS = ['yaml', 'json'] as const;
export type BundleFormat = (typeof BUNDLE_FORMATS)[number];

export interface BundleOptions {
  /** @default 'yaml' */
  format?: BundleFormat;
  /** Replace every `$ref` by its target: no `$ref` left, for consumers that cannot follow them. */
  dereference?: boolean;
}

/**
 * One self-contained document: `$ref`s to other files are pulled in as internal ones, or every
 * `$ref` is replaced by its target with `dereference` (swagger-parser's). What is pulled in goes
 * where the OpenAPI document keeps reusable objects, `components/<kind>/<name>`, named after its
 * file or its last pointer token (`schemas/folder.yaml` is `#/components/schemas/folder`), as
 * Redocly's bundle places it: a code generator names the type after the schema, not after the
 * path where it was first used. A path item is written in its path, where OpenAPI 3.0 can only
 * have it.
 */
export async function bundleSpec(source: SpecSource, options: BundleOptions = {}): Promise<string> {
  const bundled = options.dereference ? await resolveRefs(source, 'dereference') : await intoComponents(source);
  let json: string;
  try {
    json = JSON.stringify(bundled, null, 2);
  } catch {
    throw new SpecReadError(`${source.file}: cannot dereference: a schema refers to itself (a cycle of $ref); bundle without --dereference`);
  }
  if ((options.format ?? 'yaml') === 'json') return json + '\n';
  // From the JSON text, so a dereferenced schema used twice is written out twice, never as a YAML alias.
  return stringify(JSON.parse(json), { lineWidth: 0 });
}

async function intoComponents(source: SpecSource): Promise<unknown> {
  // A $ref that does not resolve is named where it is written (Redocly's bundle would leave it in place).
  const unresolved = firstUnresolvedRef(source);
  if (unresolved) throw new SpecReadError(`${place(unresolved)}: ${unresolved.message}`);
  const { bundle, createConfig, Source } = await import('@redocly/openapi-core');
  // No rules, no decorators: the document as written, only its references moved.
  const config = await createConfig({ plugins: [DEVICE_FLOW_SCOPES] } as never);
  // The text already read (stdin too); Redocly rewrites the $refs of the copy it is given.
  const doc = { source: new Source(source.absolutePath, source.text), parsed: structuredClone(source.document) };
  const result = await bundle({ doc, config });
  return result.bundle.parsed;
}
