import fs from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { assertBlobKey, type BlobStore } from './blob-store.ts';

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
    // Write then rename, so a crash never leaves a half-written image under a valid key.
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, target);
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

  close(): void {}
}
