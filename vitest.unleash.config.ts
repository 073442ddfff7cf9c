import { defineConfig } from 'vitest/config';

/**
 * The tier against the real Unleash (npm run test:unleash; .ci/tier-unleash starts it first). The
 * tests read UNLEASH_PEER_URL and the keys from the environment, as scripts/unleash writes them.
 */
export default defineConfig({
  test: {
    include: ['test/unleash/**/*.test.ts'],
    env: { FLAG_ADMIN_MOCK_SELF_CHECK: '1' },
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
