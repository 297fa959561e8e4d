/**
 * Budgets for the canvas's decoded-image cache (the spec leaves the limits open; docs/decisions/web.md says why
 * these): 512 MiB on a desktop holds about 120 decoded 1024² images; a phone gets 160 MiB, under the point where
 * mobile Safari and Chrome start killing tabs.
 */
export const IMAGE_CACHE_BUDGET_BYTES = 512 * 1024 * 1024;
export const IMAGE_CACHE_BUDGET_PHONE_BYTES = 160 * 1024 * 1024;

/** The spec's small-screen phone: both sides within 480 and 896 CSS pixels. */
export function isPhoneScreen(width: number, height: number): boolean {
  return Math.min(width, height) <= 480 && Math.max(width, height) <= 896;
}

export function imageCacheBudget(width: number, height: number): number {
  return isPhoneScreen(width, height) ? IMAGE_CACHE_BUDGET_PHONE_BYTES : IMAGE_CACHE_BUDGET_BYTES;
}

/**
 * Least-recently-used cache of decoded images, bounded by an estimate of the memory they hold (bytes), not by
 * count: one 4096² bitmap weighs as much as sixty-four 512² ones. Generic so it can hold ImageBitmaps,
 * HTMLImageElements or data URLs; `onEvict` lets the owner release what it evicts (ImageBitmap.close()).
 */
export class ImageCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private used = 0;

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

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
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
   * Stores an image and evicts the least recently used ones until the total fits the budget.
   * An image larger than the whole budget is not kept (returns false): caching it would evict everything.
   */
  set(id: string, value: V, bytes: number): boolean {
    if (!Number.isFinite(bytes) || bytes < 0) throw new RangeError(`Invalid image size for ${id}: ${bytes}`);
    const previous = this.entries.get(id);
    if (previous) {
      this.entries.delete(id);
      this.used -= previous.bytes;
      if (previous.value !== value) this.onEvict?.(id, previous.value);
    }
    if (bytes > this.budgetBytes) return false;
    this.entries.set(id, { value, bytes });
    this.used += bytes;
    for (const [oldId, entry] of this.entries) {
      if (this.used <= this.budgetBytes) break;
      this.entries.delete(oldId);
      this.used -= entry.bytes;
      this.onEvict?.(oldId, entry.value);
    }
    return true;
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
}
