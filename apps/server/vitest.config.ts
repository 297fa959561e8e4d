import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Many tests run real servers and real jobs, beside another test file on a two-core machine.
    testTimeout: 20_000,
  },
});
