import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../src/contract/index.ts';
import type { RunningServer } from '../../src/mock/index.ts';
import type { Report } from '../types.ts';
import { HOSTILE_TARGETS } from './hostile-targets.ts';
import { ADMIN_KEY, VIEWER_KEY, targetArgs } from './run-check.ts';
import { runCliProcess } from './run-cli-process.ts';

/**
 * Issue 7, "bounded by construction": the real CLI in a child process against each hostile
 * target. Bounds are generous multiples of what the checker needs (README: wall time and memory),
 * far below what the unbounded checker took (4 GB, 215 s, never).
 */
const WALL_MS = 30_000;
const PEAK_MIB = 400;
const KEYS = { FLAG_ADMIN_API_KEY: ADMIN_KEY, FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY };

let contract: Contract;
let server: RunningServer | undefined;
beforeAll(async () => (contract = await loadContract({ validate: false })));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a hostile target', () => {
  it.each(HOSTILE_TARGETS)('$name: exit $code with a $finding finding, in bounded time and memory, no key in any report', async (target) => {
    server = await target.serve(contract);
    const run = await runCliProcess([...targetArgs(server.url), ...target.args], KEYS);
    console.info(`${target.name}: exit ${run.code}, ${Math.round(run.wallMs)} ms, peak ${run.peakMiB.toFixed(0)} MiB`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(target.code);
    const report = JSON.parse(run.json) as Report;
    expect(report.findings.map((f) => f.checkId)).toContain(target.finding);
    expect(run.junit).toContain('<failure');
    expect(run.wallMs).toBeLessThan(WALL_MS);
    expect(run.peakMiB).toBeLessThan(PEAK_MIB);
    const everything = run.stdout + run.stderr + run.json + run.junit;
    expect(everything).not.toContain(ADMIN_KEY);
    expect(everything).not.toContain(VIEWER_KEY);
    // Nothing reaches the terminal that could move the cursor, clear it or fake a verdict line.
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(run.stdout.split('\n').filter((line) => /^(NOT )?CONFORMANT/.test(line))).toEqual([expect.stringMatching(/^NOT CONFORMANT: /)]);
  });
});
