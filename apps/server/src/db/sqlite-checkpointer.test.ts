import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';

describe('SQLite background checkpoints', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-checkpoint-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('copies the WAL into the database file in the background and empties it on close', async () => {
    const handle = await openDatabase({ databaseUrl: undefined, dataDir: dir });
    const file = path.join(dir, 'koma.sqlite');
    const before = fs.statSync(file).size;
    const big = 'x'.repeat(200_000);
    for (let i = 0; i < 5; i++) {
      await handle.db
        .insertInto('users')
        .values({
          id: `u${i}`,
          email: `u${i}@x`,
          name: big,
          password_hash: 'h',
          plan: 'free',
          restricted_mode: 0,
          credits: 0,
          purchased_credits: 0,
          created_at: 't',
        })
        .execute();
    }
    // Automatic checkpoints are off, so only the worker can have grown the main file.
    const deadline = Date.now() + 5000;
    while (fs.statSync(file).size < before + 1_000_000 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(fs.statSync(file).size).toBeGreaterThan(before + 1_000_000);
    await handle.close();
    expect(fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
  });
});
