// Writes the decisions table of docs/decisions.md from the x-decisions of spec/openapi.yaml (`npm run gen:decisions`).
import { readFile, writeFile } from 'node:fs/promises';
import { DEFAULT_SPEC_FILE } from '../src/contract/load-contract.ts';
import { collectDecisions, renderDecisionsMarkdown } from '../src/spec-review/decisions.ts';
import { withDecisionsSection } from '../src/spec-review/readme-decisions.ts';
import { readSpecSource } from '../src/spec-review/spec-source.ts';

const DECISIONS_DOC = new URL('../docs/decisions.md', import.meta.url);

const source = await readSpecSource(DEFAULT_SPEC_FILE);
const { decisions } = collectDecisions(source.document);
await writeFile(DECISIONS_DOC, withDecisionsSection(await readFile(DECISIONS_DOC, 'utf8'), renderDecisionsMarkdown(source.document, decisions)));
console.log(`Wrote the decisions table of docs/decisions.md (${decisions.length} decisions) from ${source.file}`);
