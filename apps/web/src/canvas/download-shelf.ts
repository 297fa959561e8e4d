/**
 * Downloads under way, or done and not yet used, by key: one download per key however many wait for it, and a
 * download fetched ahead waits here for its user. At most `limit` are kept: the oldest go first, so a picture fetched
 * ahead and never shown is not kept for good.
 */
export class DownloadShelf<T> {
  private readonly shelf = new Map<string, Promise<T>>();

  constructor(private readonly limit: number) {}

  has(key: string): boolean {
    return this.shelf.has(key);
  }

  /** The download kept for `key`, or the one `start` begins (and which is then kept). */
  get(key: string, start: () => Promise<T>): Promise<T> {
    let download = this.shelf.get(key);
    if (!download) {
      download = start();
      this.shelf.set(key, download);
      for (const old of this.shelf.keys()) {
        if (this.shelf.size <= this.limit) break;
        this.shelf.delete(old);
      }
    }
    return download;
  }

  /** What the download for `key` brings, which is then let go: its user keeps what it makes of it. */
  async take(key: string, start: () => Promise<T>): Promise<T> {
    const download = this.get(key, start);
    const value = await download;
    if (this.shelf.get(key) === download) this.shelf.delete(key);
    return value;
  }
}
