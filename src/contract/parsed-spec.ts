import { packageFile } from '../package-files.ts';
import type { JsonSchema } from './schema-validator.ts';

/**
 * The kit's own spec, parsed ahead of time (`npm run gen:spec-json`), with the SHA-256 of the
 * YAML text it came from. Start-up of the mock reads this JSON instead of importing
 * swagger-parser and parsing YAML (most of its start-up before; bench/RESULTS.md). A test keeps it
 * in step with spec/openapi.yaml; should it still be stale (an edited checkout), the YAML is
 * parsed as before.
 */
export const PARSED_SPEC_FILE = packageFile('spec', 'openapi.parsed.json');

export interface ParsedSpec {
  /** The YAML file it was made from, relative to the spec folder. */
  source: string;
  /** SHA-256 (hex) of the YAML text. */
  sha256: string;
  /** The document as authored (refs intact), as JSON. */
  document: JsonSchema;
}

export function sha256Of(text: string | Buffer): string {
  // Not an ESM import of node:crypto: building its ESM facade loads all of crypto at start.
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex');
}

/** The parsed document of `specFile` (with the SHA-256 of its text), if the cache holds it for exactly this text; else undefined. */
export function readParsedSpec(specFile: string): ParsedSpec | undefined {
  let parsed: ParsedSpec;
  try {
    // The CommonJS module: an ESM import of node:fs builds its whole namespace (fs/promises with readline, watchers).
    const { readFileSync } = process.getBuiltinModule('node:fs');
    parsed = JSON.parse(readFileSync(PARSED_SPEC_FILE, 'utf8')) as ParsedSpec;
    return packageFile('spec', parsed.source) === specFile && parsed.sha256 === sha256Of(readFileSync(specFile)) ? parsed : undefined;
  } catch {
    // No cache, or an unreadable one: parse the YAML.
    return undefined;
  }
}
