// Spec diff on real published documents: GitHub's OpenAPI (@octokit/openapi 22.0.0 → 23.0.2,
// ~12-13 MB of JSON each, installed by `cd scripts/real-specs && npm ci`). Prints the CLI's wall
// time and peak resident memory (polled from /proc, Node start-up included: what a CI step pays),
// median of the runs, beside a floor measured in the same run: a process that only reads and
// JSON.parses both documents. Issue 20's target: under 5 s and 800 MiB. The load average is
// printed: on a shared machine the wall time grows with it, the CPU time much less.
// Measured 2026-11-24, load average ~9 on 2 cores: before issue 20's work 13.5 s wall, 8.9 s CPU,
// 1,072 MiB; the inclusion reasoner alone took it to 43 s and 1.37 GB (the yaml package's tree
// of each JSON document, for line:column); with json-positions.ts 9.5 s wall, 4.4 s CPU, 430 MiB;
// with the catch-all building pointers as it walks, 11.5 s wall at load 11.5, 4.2 s CPU, 427 MiB.
// The wall time stays over 5 s only because of the load: at it, the floor takes 2.3 times its CPU.
// 2026-11-28, main at 587fc47 on a quiet machine (load 1.3): 6.3 s wall, 7.75 s CPU, 490 MiB.
// Issue 20's second pass (the diff's own dereference of component $refs, the catch-all pass and
// the place finder walking once, the reasoner's instance check without per-call allocations),
// back to back with main 226c899 under the bench lock at load 12-15: main 55.8 s wall, 11.0 s CPU,
// 487 MiB; the branch 13.8 s wall, 5.8 s CPU, 406 MiB (CPU 0.53 of main's; the floor 0.39-0.40 s CPU in both);
// again at load 14.5-17: main 27.8 s wall, 10.1 s CPU, 483 MiB; the branch 25.6 s, 5.8 s, 434 MiB (CPU 0.58).
// Usage: node bench/spec-diff-real.ts [runs=3]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { cpuMs, rssMb } from './proc-stats.ts';
import { median } from './stats.ts';

const runs = Number(process.argv[2] ?? 3);
const BIN = fileURLToPath(new URL('../bin/flag-admin.js', import.meta.url));
const MODULES = fileURLToPath(new URL('../scripts/real-specs/node_modules/', import.meta.url));
const OLD = `${MODULES}github-openapi-22/generated/api.github.com.json`;
const NEW = `${MODULES}github-openapi-23/generated/api.github.com.json`;
for (const file of [OLD, NEW]) if (!existsSync(file)) throw new Error(`${file} is missing: run (cd scripts/real-specs && npm ci) first`);

interface Sample {
  ms: number;
  cpuMs: number;
  peakMiB: number;
}

/** One process from spawn to exit: wall time, CPU time and the largest RSS seen every 10 ms. */
function measure(args: string[]): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    let peak = 0;
    let cpu = 0;
    const poll = setInterval(() => {
      try {
        // NaN once the process is a zombie (no VmRSS): the last real reading stands.
        const [rss, used] = [rssMb(child.pid!), cpuMs(child.pid!)];
        if (Number.isFinite(rss)) peak = Math.max(peak, rss);
        if (Number.isFinite(used) && used > 0) cpu = used;
      } catch {
        // The process has just exited.
      }
    }, 10);
    child.on('error', reject);
    child.on('exit', () => {
      clearInterval(poll);
      resolve({ ms: performance.now() - started, cpuMs: cpu, peakMiB: peak });
    });
  });
}

const floorScript = `const fs = require('node:fs'); for (const f of ${JSON.stringify([OLD, NEW])}) JSON.parse(fs.readFileSync(f, 'utf8'));`;
const rows: Record<'diff' | 'floor', Sample[]> = { diff: [], floor: [] };
for (let i = 0; i < runs; i++) {
  // Interleaved, so both meet the same load.
  rows.floor.push(await measure(['-e', floorScript]));
  rows.diff.push(await measure([BIN, 'spec', 'diff', OLD, NEW, '--format', 'json', '--as-of', '2026-11-24']));
}
const summary = (samples: Sample[]) => ({ ms: median(samples.map((s) => s.ms)), cpuMs: median(samples.map((s) => s.cpuMs)), peakMiB: Math.max(...samples.map((s) => s.peakMiB)) });
const [diff, floor] = [summary(rows.diff), summary(rows.floor)];
console.log(`spec diff, GitHub's OpenAPI 22.0.0 → 23.0.2, median of ${runs} runs (load average ${loadavg()[0]!.toFixed(1)})`);
console.log('| process | wall ms | CPU ms (at last poll) | peak RSS MiB | wall ratio to the floor |');
console.log('|---|---|---|---|---|');
console.log(`| floor: read + JSON.parse both | ${floor.ms.toFixed(0)} | ${floor.cpuMs.toFixed(0)} | ${floor.peakMiB.toFixed(0)} | 1.00 |`);
console.log(`| flag-admin spec diff | ${diff.ms.toFixed(0)} | ${diff.cpuMs.toFixed(0)} | ${diff.peakMiB.toFixed(0)} | ${(diff.ms / floor.ms).toFixed(2)} |`);
console.log(`target (issue 20): under 5000 ms and 800 MiB: ${diff.ms < 5000 ? 'met' : 'NOT met'} on time, ${diff.peakMiB < 800 ? 'met' : 'NOT met'} on memory`);
