import { defineConfig } from 'vitest/config';

// Unit and integration tests of every workspace except the browser suite (e2e has its own run), plus the
// repository-wide checks under test/ (dependency declarations, generated files up to date).
// Two files at a time even on a two-core machine (Vitest's default there is one): most of the time of the slow
// files is spent waiting on servers, PostgreSQL, Redis and child processes, so the wall time falls by a third.
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: ['packages/*', 'apps/*', { test: { name: 'repo', include: ['test/**/*.test.ts'] } }],
  },
});
