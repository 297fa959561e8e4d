import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** Runs the import-direction lint (`npm run lint:cycles`) over the given folders, as `npm run lint` does. */
function cruise(...targets: string[]) {
  const bin = path.join(root, 'node_modules', '.bin', 'depcruise');
  const run = spawnSync(bin, ['--config', '.dependency-cruiser.cjs', ...targets], { cwd: root, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

// Each run starts dependency-cruiser and TypeScript afresh: seconds on a loaded machine.
describe('import cycles lint (dependency-cruiser no-circular)', { timeout: 60_000 }, () => {
  it('fails on a deliberately added cycle and names both files', () => {
    const { status, output } = cruise('test/fixtures/import-cycle');
    expect(status).not.toBe(0);
    expect(output).toContain('no-circular');
    expect(output).toMatch(/import-cycle\/a\.ts →\s+test\/fixtures\/import-cycle\/b\.ts/);
  });

  it('passes a folder whose imports run one way', () => {
    const { status, output } = cruise('test/fixtures/import-one-way');
    expect(output).toContain('no dependency violations');
    expect(status).toBe(0);
  });
});
