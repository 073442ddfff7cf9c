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
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
