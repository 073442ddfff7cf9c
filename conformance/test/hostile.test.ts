import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../src/contract/index.ts';
import type { RunningServer } from '../../src/mock/index.ts';
import type { Report } from '../types.ts';
import { HOSTILE_TARGETS, NOT_JUDGED } from './hostile-targets.ts';
import { ADMIN_KEY, VIEWER_KEY, targetArgs } from './run-check.ts';
import { runCliProcess } from './run-cli-process.ts';

/**
 * Issue 7, "bounded by construction": the real CLI in a child process against each hostile
 * target. Bounds are generous multiples of what the checker needs (README: wall time and memory),
 * far below what the unbounded checker took (4 GB, 215 s, never).
 */
const WALL_MS = 30_000;
const PEAK_MIB = 300;
const KEYS = { FLAG_ADMIN_API_KEY: ADMIN_KEY, FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY };

let contract: Contract;
beforeAll(async () => (contract = await loadContract({ validate: false })));

describe('a hostile target', () => {
  it.each(HOSTILE_TARGETS)('$name: exit $code with a $finding finding (or answer), in bounded time and memory, no key in any report', async (target) => {
    const server: RunningServer = await target.serve(contract);
    const run = await runCliProcess([...targetArgs(server.url), ...target.args], KEYS).finally(() => server.close());
    console.info(`${target.name}: exit ${run.code}, ${Math.round(run.wallMs)} ms, peak ${run.peakMiB.toFixed(0)} MiB`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(target.code);
    const report = JSON.parse(run.json) as Report;
    if (target.finding === NOT_JUDGED) {
      expect(report.notJudged.map((n) => n.reason)).toContainEqual(expect.stringContaining('--max-body'));
      expect(run.junit).toMatch(/<property name="warning" value="not judged: [^"]*--max-body/);
    } else {
      expect(report.findings.map((f) => f.checkId)).toContain(target.finding);
      if (target.got) expect(report.findings.filter((f) => f.checkId === target.finding).map((f) => f.got)).toContainEqual(expect.stringMatching(target.got));
      expect(run.junit).toContain('<failure');
    }
    expect(run.wallMs).toBeLessThan(WALL_MS);
    expect(run.peakMiB).toBeLessThan(PEAK_MIB);
    const everything = run.stdout + run.stderr + run.json + run.junit;
    // The keys, and the near-misses of the full key the suite sends (each gives away all of it but a character or its case).
    for (const form of [ADMIN_KEY.slice(0, -1), ADMIN_KEY.toUpperCase(), VIEWER_KEY]) expect(everything).not.toContain(form);
    // Nothing reaches the terminal that could move the cursor, clear it or fake a verdict line.
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(run.stdout.split('\n').filter((line) => /^(NOT )?CONFORMANT/.test(line))).toEqual([expect.stringMatching(target.code === 0 ? /^CONFORMANT: / : /^NOT CONFORMANT: /)]);
  }, 2 * WALL_MS);
});
