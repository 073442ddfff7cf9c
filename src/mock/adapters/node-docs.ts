import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Contract } from '../../contract/index.ts';
import { DEFAULT_FIXTURES } from '../core/default-fixtures.ts';
import type { DocsOptions } from '../layers/docs.ts';
import { DEFAULT_FIXTURES_FILE, type FixtureSource } from './node-fixture-files.ts';
import { swaggerUiAssets } from './node-swagger-ui-assets.ts';

/**
 * The node server's docs: /openapi.json, /openapi.yaml (written with the `yaml` package) and the
 * /docs reference with Swagger UI's files. Try-it is pre-authorized with the full-access key of
 * the embedded default state only: those keys are public test values (the start banner prints
 * them too); a fixtures file of the user's own may hold real-looking keys a page must not show.
 */
export function nodeDocsOptions(contract: Contract, fixtures: FixtureSource | undefined): DocsOptions {
  const embedded = fixtures === undefined || (typeof fixtures === 'string' && resolve(fixtures) === DEFAULT_FIXTURES_FILE);
  const prefillKey = embedded ? DEFAULT_FIXTURES.apiKeys.find((k) => k.permissions.includes('*'))?.key : undefined;
  return {
    document: contract.rawDocument,
    prefillKey,
    assets: swaggerUiAssets(),
    toYaml: (value) => yamlStringify()(value, { aliasDuplicateObjects: false, lineWidth: 120 }),
  };
}

type Stringify = typeof import('yaml').stringify;
let stringify: Stringify | undefined;

/** The `yaml` package, required on the first /openapi.yaml: its ~70 modules were a share of every start (bench/RESULTS.md). */
function yamlStringify(): Stringify {
  return (stringify ??= (createRequire(import.meta.url)('yaml') as typeof import('yaml')).stringify);
}
