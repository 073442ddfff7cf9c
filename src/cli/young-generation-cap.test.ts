import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('./young-generation-cap.ts', import.meta.url));

/**
 * The largest young generation (MB) of a fresh Node process under an allocation load whose
 * survivors make V8 grow it (objects kept for a while, as a server keeps the requests in flight),
 * with capYoungGeneration() called first when `cap` is given. A process of its own: V8's flags are
 * the whole process's, and the young generation's growth starts from a fresh heap.
 */
function youngGenerationMb(cap: number | undefined, nodeFlags: string[] = []): number {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { capYoungGeneration } from ${JSON.stringify(MODULE)};
    ${cap === undefined ? '' : `capYoungGeneration(${cap}, { nodeOptions: '' });`}
    const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576;
    let largest = young();
    const inFlight = [];
    for (let round = 0; round < 60; round++) {
      for (let i = 0; i < 40000; i++) {
        inFlight.push({ round, i, text: 'request ' + i });
        if (inFlight.length > 3000) inFlight.splice(0, 1500);
      }
      largest = Math.max(largest, young());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    console.log(largest);
  `;
  const child = spawnSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  if (child.status !== 0) throw new Error(child.stderr);
  return Number(child.stdout.trim());
}

describe('capYoungGeneration', () => {
  it('keeps a growing young generation at the cap, where V8 by itself grows it past', () => {
    expect(youngGenerationMb(undefined)).toBeGreaterThan(16);
    expect(youngGenerationMb(16)).toBeLessThanOrEqual(16);
  });

  it('leaves a semi-space size the user gave to node alone', () => {
    expect(youngGenerationMb(16, ['--max-semi-space-size=32'])).toBeGreaterThan(16);
  });
});
