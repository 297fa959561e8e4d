import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The admin command as an operator runs it: a short-lived process that must finish and exit 0 (a background
// worker left waiting once made it end with "unsettled top-level await", exit 13).
const dataDir = mkdtempSync(path.join(tmpdir(), 'koma-admin-'));
const serverRoot = path.resolve(import.meta.dirname, '..');
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/admin.ts', ...args], {
    cwd: serverRoot,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 60_000,
  });

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm run admin', () => {
  it('creates a user and grants credits, exiting 0 each time', { timeout: 120_000 }, () => {
    const created = run(
      'create-user',
      '--email',
      'ops@example.com',
      '--password',
      'a long password',
      '--plan',
      'subscriber',
    );
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toContain('"plan":"subscriber"');
    const granted = run('grant', '--email', 'ops@example.com', '--amount', '250');
    expect(granted.status, granted.stderr).toBe(0);
    expect(granted.stdout).toContain('"credits":350');
    const bad = run('grant', '--email', 'nobody@example.com', '--amount', '5');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('No user with email nobody@example.com');
  });
});
