import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'editor',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Pure logic that keeps no state between files (the few globals and timers a test swaps are put back): one
    // module graph per worker instead of one per file. Importing again for every file was two thirds of this
    // project's time (editor and domain: 92 s isolated, 44 s shared, on a two-core machine).
    isolate: false,
    // Property tests run hundreds of cases; CI machines are small and busy.
    testTimeout: 60_000,
  },
});
