import { defineConfig } from 'vitest/config';

/** Browser tests: the built SPA on the local stack in headless Chromium, one file at a time. */
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
