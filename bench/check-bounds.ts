// Wall time and peak memory of `flag-admin check` (the real CLI in a child process) against the
// mock and against each hostile target of conformance/test/hostile-targets.ts: the figures the
// README's "bounded by construction" paragraph states. Prints figures, never passes or fails.
// Usage: node bench/check-bounds.ts [runs=3]
import { loadContract } from '../src/contract/index.ts';
import { HOSTILE_TARGETS } from '../conformance/test/hostile-targets.ts';
import { ADMIN_KEY, VIEWER_KEY, targetArgs } from '../conformance/test/run-check.ts';
import { runCliProcess } from '../conformance/test/run-cli-process.ts';
import { breakResponses } from '../conformance/test/serve-target.ts';
import { median } from './stats.ts';

const runs = Number(process.argv[2] ?? 3);
const contract = await loadContract({ validate: false });
const targets = [{ name: 'the mock (every option, --strict)', args: ['--strict'], serve: () => breakResponses(contract, (_, res) => res) }, ...HOSTILE_TARGETS.map((t) => ({ ...t, serve: () => t.serve(contract) }))];

console.log(`flag-admin check, ${runs} run(s) each: median wall time, median and max peak RSS of the checker process`);
for (const target of targets) {
  const walls: number[] = [];
  const peaks: number[] = [];
  let code: number | null = null;
  for (let i = 0; i < runs; i++) {
    const server = await target.serve();
    try {
      const run = await runCliProcess([...targetArgs(server.url), ...target.args], { FLAG_ADMIN_API_KEY: ADMIN_KEY, FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY });
      walls.push(run.wallMs);
      peaks.push(run.peakMiB);
      code = run.code;
    } finally {
      await server.close();
    }
  }
  console.log(`${target.name.padEnd(58)} exit ${code}  wall ${median(walls).toFixed(0).padStart(5)} ms  peak ${median(peaks).toFixed(0).padStart(4)} MiB (max ${Math.max(...peaks).toFixed(0)})`);
}
