import type { Database } from '../db/database.ts';
import type { BlobStore } from '../storage/blob-store.ts';

/** Keys checked against the images table per query. */
const BATCH = 500;

/**
 * Deletes stored bytes that no image row owns and that were written before `olderThan`. Bytes are stored before
 * their row (image-store.ts), so a process killed in between leaves bytes without a row; this is what clears
 * them. The grace period keeps it away from uploads in flight. Derived keys (`<id>.thumb`, the scaled copies `<id>.s256` and `<id>.s512`) belong to their id.
 * Safe to run from several processes at once: a delete of a missing key is no error.
 */
export async function sweepOrphanBlobs(
  db: Database,
  blobs: BlobStore,
  olderThan: Date,
): Promise<{ checked: number; deleted: string[] }> {
  const deleted: string[] = [];
  let checked = 0;
  let batch: string[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const ids = [...new Set(batch.map((key) => key.split('.')[0] ?? key))];
    const owned = new Set(
      (await db.selectFrom('images').select('id').where('id', 'in', ids).execute()).map((row) => row.id),
    );
    for (const key of batch) {
      if (owned.has(key.split('.')[0] ?? key)) continue;
      await blobs.delete(key);
      deleted.push(key);
    }
    batch = [];
  };
  for await (const blob of blobs.list()) {
    checked++;
    if (blob.modified >= olderThan) continue;
    batch.push(blob.key);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return { checked, deleted };
}
