// Writes spec/openapi.parsed.json from spec/openapi.yaml (`npm run gen:spec-json`): the parsed
// document the mock starts from without swagger-parser (src/contract/parsed-spec.ts), and
// spec/openapi.validators.cjs from it: its response validators as Ajv's standalone code, which
// `flag-admin check` uses instead of compiling them (src/contract/precompiled-validators.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { loadContract } from '../src/contract/load-contract.ts';
import { PARSED_SPEC_FILE, sha256Of, type ParsedSpec } from '../src/contract/parsed-spec.ts';
import { PRECOMPILED_VALIDATORS_FILE, precompiledValidatorsSource } from '../src/contract/precompiled-validators.ts';

const { rawDocument, specFile } = await loadContract({ validate: true, parsedSpec: false });
const parsed: ParsedSpec = { source: basename(specFile), sha256: sha256Of(readFileSync(specFile)), document: rawDocument };
writeFileSync(PARSED_SPEC_FILE, `${JSON.stringify(parsed)}\n`);
writeFileSync(PRECOMPILED_VALIDATORS_FILE, precompiledValidatorsSource(parsed));
console.log(`Wrote spec/openapi.parsed.json and spec/openapi.validators.cjs from ${specFile}`);
