// Writes src/contract/types.gen.ts from spec/openapi.yaml (`npm run gen:types`).
import { writeFile } from 'node:fs/promises';
import { renderTypesFile } from '../src/contract/generate-types.ts';
import { loadContract } from '../src/contract/load-contract.ts';

const TYPES_FILE = new URL('../src/contract/types.gen.ts', import.meta.url);

const { rawDocument, specFile } = await loadContract({ validate: false });
await writeFile(TYPES_FILE, renderTypesFile(rawDocument));
console.log(`Wrote src/contract/types.gen.ts from ${specFile}`);
