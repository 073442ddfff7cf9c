import { defineConfig } from 'vitest/config';

/** Slower tiers with configs of their own (npm run test:unleash, npm run test:real-specs), run by .ci/run, not by npm test. */
export const SLOW_TIERS = ['test/unleash/**', 'test/real-specs/**'];

export default defineConfig({
  test: {
    include: ['{src,conformance,test,bench,scripts}/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...SLOW_TIERS],
    // Every mock started by a test validates each response it sends against the spec
    // (src/mock/self-check.ts); normal runs skip that work.
    env: { FLAG_ADMIN_MOCK_SELF_CHECK: '1' },
    // Vitest's default is one worker fewer than the cores: one on the 2-core CI machines, where a
    // file then waits on the one before it although most of a file's time is spent waiting on
    // loopback servers, child processes and Chromium. Two workers took npm test from 941 s to
    // 486 s of wall time at the same load (28 Nov, load 5 to 7).
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
