import { defineConfig } from 'vitest/config';

/** Spec review on real published documents (npm run test:real-specs; the documents install under scripts/real-specs). */
export default defineConfig({
  test: {
    include: ['test/real-specs/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
