import { defineConfig } from 'vitest/config';

// Unit and integration tests of every workspace except the browser suite (e2e has its own run).
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
  },
});
