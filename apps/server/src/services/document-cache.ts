/**
 * Encoded workspace documents by (workspace id, revision), least recently used first out, within a byte
 * budget. Safe across server instances: a revision's data never changes once written (a restore writes a
 * new revision), and every read checks the current revision in the database before using the cache.
 */
export class DocumentCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  private static key(id: string, revision: number): string {
    return `${id}\u0000${revision}`;
  }

  /** The cached bytes of that revision, or undefined. */
  get(id: string, revision: number): Buffer | undefined {
    const key = DocumentCache.key(id, revision);
    const value = this.entries.get(key);
    if (value) {
      // Re-insert to mark as most recently used (Map keeps insertion order).
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Remembers a revision's bytes; documents larger than a quarter of the budget are not kept. */
  set(id: string, revision: number, data: Buffer): void {
    if (data.length > this.budgetBytes / 4) return;
    const key = DocumentCache.key(id, revision);
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.length;
      this.entries.delete(key);
    }
    this.entries.set(key, data);
    this.bytes += data.length;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.bytes -= value.length;
    }
  }

  /** Bytes held now. */
  get size(): number {
    return this.bytes;
  }
}
