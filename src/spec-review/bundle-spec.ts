import { stringify } from 'yaml';
import { resolveRefs } from './resolve-refs.ts';
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
 * One self-contained document: `$ref`s to other files are pulled in as internal ones
 * (swagger-parser's bundle), or every `$ref` is replaced by its target with `dereference`.
 */
export async function bundleSpec(source: SpecSource, options: BundleOptions = {}): Promise<string> {
  const bundled = await resolveRefs(source, options.dereference ? 'dereference' : 'bundle');
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
