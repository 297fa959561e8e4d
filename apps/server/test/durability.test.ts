// Issue 14 item 7: a save the server acknowledged survives a power cut.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { LocalBlobStore } from '../src/storage/local-blob-store.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-durable-'));
  dirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('durability', () => {
  it('SQLite syncs the log at every commit (synchronous = FULL)', async () => {
    const handle = await openDatabase({ databaseUrl: undefined, dataDir: tempDir() });
    try {
      const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(handle.db);
      // 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
      expect(rows[0]?.synchronous).toBeGreaterThanOrEqual(2);
    } finally {
      await handle.close();
    }
  });

  it('a local image file is synced to disk before put() resolves, and before it gets its final name', async () => {
    const dir = tempDir();
    const store = new LocalBlobStore(dir);
    const probe = await fsp.open(path.join(dir, 'probe'), 'w');
    const fileHandle = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
    await probe.close();
    const target = path.join(dir, 'ab', 'abcdef');
    const seen: boolean[] = [];
    const original = fileHandle.sync;
    const spy = vi.spyOn(fileHandle, 'sync').mockImplementation(function (this: unknown) {
      // Whether the final name already existed when this sync ran: the file's own sync must come first.
      seen.push(fs.existsSync(target));
      return original.call(this);
    });
    try {
      await store.put('abcdef', Buffer.from('bytes'));
    } finally {
      spy.mockRestore();
    }
    expect(fs.readFileSync(target, 'utf8')).toBe('bytes');
    // The file's bytes before the rename, then the folder that holds the new name.
    expect(seen).toEqual([false, true]);
  });
});
