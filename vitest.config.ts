import { defineConfig } from 'vitest/config';

// Unit and integration tests of every workspace except the browser suite (e2e has its own run), plus the
// repository-wide checks under test/ (dependency declarations, generated files up to date).
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', { test: { name: 'repo', include: ['test/**/*.test.ts'] } }],
  },
});
