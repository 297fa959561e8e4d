import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'editor',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Property tests run hundreds of cases; CI machines are small and busy.
    testTimeout: 60_000,
  },
});
