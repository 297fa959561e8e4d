import { defineConfig } from 'vitest/config';

// The browser suite: one real server and one Chromium per spec file. Two files at a time: a spec spends most of its
// time waiting (on the builtin engine's steps, on polls, on the UI), so two share the machine's two cores well; the
// suite took 670 s one file at a time and 418 s two at a time. Timeouts cover a cold server start and a cold
// browser on a busy machine.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['specs/**/*.test.ts'],
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    retry: 0,
  },
});
