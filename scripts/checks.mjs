// The static checks of `npm test` (typecheck, lint, format), two at a time: lint and the format check are each one
// single-threaded process, so on a two-core CI machine the typecheck (TypeScript 7, quick) and the format check
// run beside the lint, which is the longest. Each one's output is printed whole when it ends, so the logs do not
// interleave; any failure fails the run.
import { spawn } from 'node:child_process';

const CHECKS = ['lint', 'typecheck', 'format:check'];
const AT_ONCE = 2;

function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(
        `\n── npm run ${script} (${seconds} s, ${code === 0 ? 'passed' : `failed: exit ${code}`})\n`,
      );
      process.stdout.write(Buffer.concat(out));
      resolve(code === 0);
    });
  });
}

const queue = [...CHECKS];
const results = [];
await Promise.all(
  Array.from({ length: AT_ONCE }, async () => {
    for (let script = queue.shift(); script; script = queue.shift()) results.push([script, await run(script)]);
  }),
);
const failed = results.filter(([, ok]) => !ok).map(([script]) => script);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
