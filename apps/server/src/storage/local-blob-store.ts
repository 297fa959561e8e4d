import fs from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { assertBlobKey, type BlobStore } from './blob.ts';

/** Makes a rename inside the folder durable (the entry lives in the folder, not in the file). */
async function syncFolder(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Blobs as files in one folder, fanned out by the first two characters of the key. */
export class LocalBlobStore implements BlobStore {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return path.join(this.dir, key.slice(0, 2), key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Write then rename, so a crash never leaves a half-written image under a valid key. The bytes are synced
    // before the rename and the folder after it: the caller commits a row naming this key once put() resolves,
    // and after a power cut that row must never name a file that is empty or missing.
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    const file = await fs.open(temp, 'w');
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await fs.rename(temp, target);
    await syncFolder(path.dirname(target));
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async *list(): AsyncIterable<{ key: string; modified: Date }> {
    for (const fan of await fs.readdir(this.dir, { withFileTypes: true })) {
      if (!fan.isDirectory()) continue;
      for (const name of await fs.readdir(path.join(this.dir, fan.name))) {
        // Half-written temp files are not keys.
        if (name.endsWith('.tmp')) continue;
        const stat = await fs.stat(path.join(this.dir, fan.name, name)).catch(() => undefined);
        if (stat) yield { key: name, modified: stat.mtime };
      }
    }
  }

  close(): void {}
}
