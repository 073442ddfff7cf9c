// The real published OpenAPI documents of the real-documents tier (npm run test:real-specs, and
// bench/spec-lint-real.ts): each from an npm package pinned in scripts/real-specs/package.json,
// installed there by `npm ci --prefix scripts/real-specs` (never committed: fetched at run time).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MODULES = fileURLToPath(new URL('../../scripts/real-specs/node_modules/', import.meta.url));

export interface RealDocument {
  /** Short name, for the bench's command line and the tests' titles. */
  name: string;
  /** The npm package (its alias under scripts/real-specs) and the file in it. */
  packageDir: string;
  path: string;
  /** The document's own `openapi` field, checked by the tier. */
  openapi: string;
  file: string;
  label: string;
}

function document(name: string, packageDir: string, path: string, openapi: string, what: string): RealDocument {
  const file = `${MODULES}${packageDir}/${path}`;
  const manifest = `${MODULES}${packageDir}/package.json`;
  const version = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string }) : undefined;
  return { name, packageDir, path, openapi, file, label: `${what} (${version ? `${version.name}@${version.version}` : packageDir} ${path}, OpenAPI ${openapi})` };
}

export const REAL_DOCUMENTS: readonly RealDocument[] = [
  document('github', 'github-openapi-23', 'generated/api.github.com.json', '3.0.3', "GitHub's REST API"),
  document('github-22', 'github-openapi-22', 'generated/api.github.com.json', '3.0.3', "GitHub's REST API, the previous major"),
  document('github-webhooks', '@octokit/openapi-webhooks', 'generated/api.github.com.json', '3.1.0', "GitHub's webhooks"),
  document('figma', '@figma/rest-api-spec', 'openapi/openapi.yaml', '3.1.0', "Figma's REST API"),
  document('directus', '@directus/specs', 'dist/openapi.json', '3.0.1', "Directus's API"),
  document('blockfrost', '@blockfrost/openapi', 'openapi.yaml', '3.0.3', "Blockfrost's Cardano API"),
];

export const realDocument = (name: string): RealDocument => REAL_DOCUMENTS.find((d) => d.name === name)!;

/** Redocly CLI, pinned beside the documents: the reference lint is compared and timed against. */
export const REDOCLY_CLI = `${MODULES}@redocly/cli/bin/cli.js`;

/**
 * The environment Redocly CLI runs in here: no telemetry (it posts each run's metadata to
 * Redocly unless REDOCLY_TELEMETRY=off) and no update notice; only loopback is ours to reach.
 */
export function redoclyEnv(): NodeJS.ProcessEnv {
  return { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', NO_COLOR: '1' };
}
