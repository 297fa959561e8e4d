import { defineConfig } from 'vitest/config';

// The browser suite: one real server and one Chromium per spec file, run one file at a time because the
// machine's two cores are shared; timeouts cover a cold server start and a cold browser.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['specs/**/*.test.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    retry: 0,
  },
});
