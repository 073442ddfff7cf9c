// Writes spec/openapi.parsed.json from spec/openapi.yaml (`npm run gen:spec-json`): the parsed
// document the mock starts from without swagger-parser (src/contract/parsed-spec.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { loadContract } from '../src/contract/load-contract.ts';
import { PARSED_SPEC_FILE, sha256Of, type ParsedSpec } from '../src/contract/parsed-spec.ts';

const { rawDocument, specFile } = await loadContract({ validate: true, parsedSpec: false });
const parsed: ParsedSpec = { source: basename(specFile), sha256: sha256Of(readFileSync(specFile)), document: rawDocument };
writeFileSync(PARSED_SPEC_FILE, `${JSON.stringify(parsed)}\n`);
console.log(`Wrote spec/openapi.parsed.json from ${specFile}`);
