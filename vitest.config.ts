import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{src,conformance,test,bench,scripts}/**/*.test.ts'],
    // Every mock started by a test validates each response it sends against the spec
    // (src/mock/self-check.ts); normal runs skip that work.
    env: { FLAG_ADMIN_MOCK_SELF_CHECK: '1' },
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
