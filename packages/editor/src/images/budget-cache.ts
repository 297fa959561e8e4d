/**
 * Least-recently-used cache of decoded images, bounded by an estimate of the memory they hold (bytes), not by
 * count: one 4096² bitmap weighs as much as sixty-four 512² ones. Generic so it can hold ImageBitmaps,
 * HTMLImageElements or canvases; `onEvict` lets the owner release what it evicts (ImageBitmap.close()).
 *
 * Pins keep what is on screen (the open page and its neighbours, or the page an export is drawing) from being
 * evicted: a page must never lose an image it is drawing because another page was visited. Pins come from named
 * owners (`view`, `export`), each replacing its own set, so two users of one cache never unpin each other's images.
 * Only pinned images can take the total over the budget; they are evicted once unpinned, if still over it.
 */
export class BudgetCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private readonly pins = new Map<string, ReadonlySet<string>>();
  private used = 0;
  private peak = 0;
  private evictions = 0;

  constructor(
    readonly budgetBytes: number,
    private readonly onEvict?: (id: string, value: V) => void,
  ) {
    if (!Number.isFinite(budgetBytes) || budgetBytes <= 0) throw new RangeError('Image cache budget must be positive');
  }

  /** Bytes of an RGBA bitmap, the usual estimate for a decoded image. */
  static rgbaBytes(width: number, height: number): number {
    return Math.max(0, Math.round(width)) * Math.max(0, Math.round(height)) * 4;
  }

  get bytesUsed(): number {
    return this.used;
  }

  /** The most bytes held at once since the cache was made (for tests and the chapter benchmark). */
  get peakBytes(): number {
    return this.peak;
  }

  get evicted(): number {
    return this.evictions;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held by pinned images that are in the cache. */
  get pinnedBytes(): number {
    let total = 0;
    for (const [id, entry] of this.entries) if (this.isPinned(id)) total += entry.bytes;
    return total;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  isPinned(id: string): boolean {
    for (const ids of this.pins.values()) if (ids.has(id)) return true;
    return false;
  }

  /**
   * Returns the image without marking it used: a glance (the layer list's thumbnail drawn from a copy the view
   * holds) must not keep a picture nobody draws from being evicted.
   */
  peek(id: string): V | undefined {
    return this.entries.get(id)?.value;
  }

  /** Returns the image and marks it most recently used. */
  get(id: string): V | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.value;
  }

  /**
   * Stores an image and evicts the least recently used unpinned ones until the total fits the budget. Returns
   * whether the image is kept: an unpinned image that cannot fit beside the pinned ones is not (nor one larger than
   * the whole budget: caching it would evict everything). A pinned one is kept whatever its size.
   */
  set(id: string, value: V, bytes: number): boolean {
    if (!Number.isFinite(bytes) || bytes < 0) throw new RangeError(`Invalid image size for ${id}: ${bytes}`);
    const previous = this.entries.get(id);
    if (previous) {
      this.entries.delete(id);
      this.used -= previous.bytes;
      if (previous.value !== value) this.onEvict?.(id, previous.value);
    }
    if (bytes > this.budgetBytes && !this.isPinned(id)) return false;
    this.entries.set(id, { value, bytes });
    this.used += bytes;
    this.trim();
    this.peak = Math.max(this.peak, this.used);
    return this.entries.has(id);
  }

  /**
   * Replaces the set of images `owner` pins (an empty set unpins). Images that lost their last pin become
   * ordinary least-recently-used entries, and the cache trims back to its budget.
   */
  pin(owner: string, ids: Iterable<string>): void {
    const set = new Set(ids);
    if (set.size === 0) this.pins.delete(owner);
    else this.pins.set(owner, set);
    this.trim();
  }

  unpin(owner: string): void {
    this.pin(owner, []);
  }

  delete(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    this.used -= entry.bytes;
    this.onEvict?.(id, entry.value);
    return true;
  }

  clear(): void {
    for (const [id, entry] of this.entries) this.onEvict?.(id, entry.value);
    this.entries.clear();
    this.used = 0;
  }

  /** Evicts from the least recently used end, skipping pinned images. */
  private trim(): void {
    if (this.used <= this.budgetBytes) return;
    for (const [id, entry] of this.entries) {
      if (this.used <= this.budgetBytes) break;
      if (this.isPinned(id)) continue;
      this.entries.delete(id);
      this.used -= entry.bytes;
      this.evictions++;
      this.onEvict?.(id, entry.value);
    }
  }
}
