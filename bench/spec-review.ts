// Spec review speed: in-process lint and diff of the kit's spec, and the CLI's wall time per verb
// (what a CI step pays, Node start-up and imports included).
// Usage: node bench/spec-review.ts [runs=10]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SPEC_FILE } from '../src/contract/load-contract.ts';
import { diffSpecs } from '../src/spec-review/diff/diff-specs.ts';
import { lintSpec } from '../src/spec-review/lint-spec.ts';
import { readSpecSource } from '../src/spec-review/spec-source.ts';
import { median, percentile } from './stats.ts';

const runs = Number(process.argv[2] ?? 10);
const BIN = fileURLToPath(new URL('../bin/flag-admin.js', import.meta.url));

async function time(run: () => unknown): Promise<number[]> {
  await run(); // warm-up: first imports and JIT are the CLI figures' business
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples;
}

const source = await readSpecSource(DEFAULT_SPEC_FILE);
const figures: Record<string, number[]> = {
  'lintSpec (in process)': await time(() => lintSpec(DEFAULT_SPEC_FILE)),
  'diffSpecs spec vs itself (in process)': await time(() => diffSpecs(source, source)),
  'CLI spec lint': await time(() => execFileSync(process.execPath, [BIN, 'spec', 'lint'])),
  'CLI spec diff spec spec': await time(() => execFileSync(process.execPath, [BIN, 'spec', 'diff', DEFAULT_SPEC_FILE, DEFAULT_SPEC_FILE])),
  'CLI spec decisions': await time(() => execFileSync(process.execPath, [BIN, 'spec', 'decisions'])),
  'CLI spec bundle --dereference': await time(() => execFileSync(process.execPath, [BIN, 'spec', 'bundle', '--dereference'])),
};
console.log(`spec review, ${runs} runs each (ms)`);
for (const [name, samples] of Object.entries(figures)) {
  console.log(`  ${name.padEnd(40)} median ${median(samples).toFixed(0).padStart(5)}   p90 ${percentile(samples, 90).toFixed(0).padStart(5)}`);
}
