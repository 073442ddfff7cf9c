// Writes the table of rules in docs/conformance.md ("What it checks") from the registry, conformance/judge/registry.ts (`npm run gen:rules`).
import { readFile, writeFile } from 'node:fs/promises';
import { RULES } from '../conformance/judge/registry.ts';
import { renderRulesTable, withRulesTable } from '../conformance/report/rules-table.ts';

const PAGE = new URL('../docs/conformance.md', import.meta.url);

await writeFile(PAGE, withRulesTable(await readFile(PAGE, 'utf8'), renderRulesTable(RULES)));
console.log(`Wrote the table of rules of docs/conformance.md (${RULES.length} rules) from conformance/judge/registry.ts`);
