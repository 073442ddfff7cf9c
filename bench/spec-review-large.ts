// Spec review on a provider-sized document: a generated OpenAPI 3.0.3 document of 400 operations
// besides the kit's three (src/spec-review/__fixtures__/provider-document.ts), as YAML and as
// JSON. Prints the CLI's wall time per verb (what a CI step pays, Node start-up included)
// and each one's ratio to the same verb on the kit's own spec. The load average is printed: on a
// shared machine the wall time grows with it.
// Usage: node bench/spec-review-large.ts [runs=5] [operations=400]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { DEFAULT_SPEC_FILE } from '../src/contract/load-contract.ts';
import { providerDocument } from '../src/spec-review/__fixtures__/provider-document.ts';
import { median } from './stats.ts';

const runs = Number(process.argv[2] ?? 5);
const operations = Number(process.argv[3] ?? 400);
const BIN = fileURLToPath(new URL('../bin/flag-admin.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'flag-admin-bench-'));
const document = providerDocument(operations);
const yamlFile = join(dir, 'provider.yaml');
const jsonFile = join(dir, 'provider.json');
writeFileSync(yamlFile, stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 }));
writeFileSync(jsonFile, JSON.stringify(document, null, 2));

/** Wall milliseconds per run, after one warm-up run (the file system cache). */
function time(args: string[]): number[] {
  const wall: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const started = performance.now();
    const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    const elapsed = performance.now() - started;
    if (run.status !== 0 && run.status !== 1) throw new Error(`flag-admin ${args.join(' ')}: exit ${run.status}\n${run.stderr}`);
    if (i > 0) wall.push(elapsed);
  }
  return wall;
}

const verbs: [string, string[], string[]][] = [
  ['lint', ['spec', 'lint', yamlFile], ['spec', 'lint']],
  ['lint (JSON)', ['spec', 'lint', jsonFile], ['spec', 'lint']],
  ['diff', ['spec', 'diff', yamlFile, jsonFile], ['spec', 'diff', DEFAULT_SPEC_FILE, DEFAULT_SPEC_FILE]],
  ['compare', ['spec', 'compare', DEFAULT_SPEC_FILE, jsonFile], ['spec', 'diff', DEFAULT_SPEC_FILE, DEFAULT_SPEC_FILE]],
  ['bundle --dereference', ['spec', 'bundle', '--dereference', jsonFile], ['spec', 'bundle', '--dereference']],
];
console.log(`spec review on a generated 3.0.3 document of ${operations + 3} operations (${(JSON.stringify(document).length / 1024).toFixed(0)} KB as JSON), ${runs} runs each, wall ms (load average ${loadavg()[0]!.toFixed(1)})`);
for (const [name, large, kit] of verbs) {
  const big = median(time(large));
  const small = median(time(kit));
  console.log(`  ${name.padEnd(22)} median ${big.toFixed(0).padStart(5)}   kit's spec ${small.toFixed(0).padStart(5)}   ratio ${(big / small).toFixed(2)}`);
}
rmSync(dir, { recursive: true, force: true });
