import { ImageCache, imageCacheBudget, loadImageBytesById, type DownloadedImage } from '../api/index.ts';

/**
 * A decoded picture. An ImageBitmap, not an <img>: createImageBitmap decodes off the main thread and the bitmap
 * stays decoded, where an <img> may drop its pixels and decode again, on the main thread, when a canvas draws it.
 */
export type DecodedImage = ImageBitmap;

type Entry = { status: 'loading' } | { status: 'failed' };

/**
 * Diagnostic override of the decoded-image budget, in MiB (browser specs set a small one to watch eviction work;
 * docs/how-it-works/chapter-memory.md). Ignored unless a positive number.
 */
export const IMAGE_BUDGET_STORAGE_KEY = 'koma.imageBudgetMiB';

function defaultBudget(): number {
  const override = Number(globalThis.localStorage?.getItem(IMAGE_BUDGET_STORAGE_KEY) ?? NaN);
  if (Number.isFinite(override) && override > 0) return override * 1024 * 1024;
  return imageCacheBudget(window.innerWidth, window.innerHeight);
}

/** Refused images waiting for their `get`: a page's worth at most. */
const HANDOFF_LIMIT = 10;

export interface ImageStoreStats {
  budgetBytes: number;
  bytesUsed: number;
  peakBytes: number;
  pinnedBytes: number;
  images: number;
  evicted: number;
  loading: number;
}

/**
 * Decoded images for the canvas, by image id: loaded once through the shared loader, kept in an LRU cache with a
 * memory budget, and announced to listeners when they arrive. Whoever draws pins what it draws (the view pins the
 * open page and its neighbours, an export the page it is drawing) so the budget never takes an image from under it.
 */
export class ImageStore {
  private readonly cache: ImageCache<DecodedImage>;
  private readonly mips: ImageCache<HTMLCanvasElement>;
  private readonly pending = new Map<string, Entry>();
  /**
   * Images decoded but refused by the cache (no room beside the pinned ones): handed to the next `get` once, so a
   * request for an unpinned image is answered instead of reloading it forever.
   */
  private readonly handoff = new Map<string, DecodedImage>();
  private readonly listeners = new Set<(id: string) => void>();
  /** Image URLs by id: an evicted image coming back is downloaded again (from the HTTP cache) without asking for it. */
  private readonly urls = new Map<string, string>();

  constructor(budgetBytes = defaultBudget()) {
    this.cache = new ImageCache<DecodedImage>(budgetBytes);
    this.mips = new ImageCache<HTMLCanvasElement>(budgetBytes / 4);
  }

  /** The image if it is ready; otherwise starts loading it and returns null. */
  get(id: string): DecodedImage | null {
    const cached = this.cache.get(id);
    if (cached) return cached;
    const handed = this.handoff.get(id);
    if (handed) {
      this.handoff.delete(id);
      return handed;
    }
    if (!this.pending.has(id)) void this.load(id);
    return null;
  }

  /** Starts loading images not yet here, without marking those that are as recently used. */
  prefetch(ids: Iterable<string>): void {
    for (const id of ids) if (!this.cache.has(id) && !this.pending.has(id)) void this.load(id);
  }

  /** Whether every one of `ids` is decoded or failed (nothing left loading). */
  settled(ids: Iterable<string>): boolean {
    for (const id of ids) if (!this.cache.has(id) && this.pending.get(id)?.status !== 'failed') return false;
    return true;
  }

  /** Replaces the images `owner` keeps from eviction (see ImageCache.pin). */
  pin(owner: string, ids: Iterable<string>): void {
    this.cache.pin(owner, ids);
  }

  unpin(owner: string): void {
    this.cache.unpin(owner);
  }

  stats(): ImageStoreStats {
    return {
      budgetBytes: this.cache.budgetBytes,
      bytesUsed: this.cache.bytesUsed,
      peakBytes: this.cache.peakBytes,
      pinnedBytes: this.cache.pinnedBytes,
      images: this.cache.size,
      evicted: this.cache.evicted,
      loading: this.loadingIds().length,
    };
  }

  /**
   * The image scaled down to fit `side` pixels on its longest side (a power of two, at least 64), so a page seen
   * from afar draws small bitmaps instead of full-size ones. Falls back to the full image while it is small enough.
   */
  getScaled(id: string, side: number): CanvasImageSource | null {
    const image = this.get(id);
    if (!image) return null;
    const longest = Math.max(image.width, image.height);
    const level = Math.max(64, 2 ** Math.ceil(Math.log2(Math.max(1, side))));
    if (level >= longest) return image;
    const key = `${id}@${level}`;
    let scaled = this.mips.get(key);
    if (!scaled) {
      const ratio = level / longest;
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round(image.width * ratio));
      canvas.height = Math.max(1, Math.round(image.height * ratio));
      const context = canvas.getContext('2d');
      if (!context) return image;
      context.imageSmoothingQuality = 'high';
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      scaled = canvas;
      this.mips.set(key, scaled, ImageCache.rgbaBytes(canvas.width, canvas.height));
    }
    return scaled;
  }

  failed(id: string): boolean {
    return this.pending.get(id)?.status === 'failed';
  }

  /** Ids still loading, for export to wait on. */
  loadingIds(): string[] {
    return [...this.pending].filter(([, e]) => e.status === 'loading').map(([id]) => id);
  }

  onLoad(listener: (id: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async load(id: string): Promise<void> {
    this.pending.set(id, { status: 'loading' });
    const downloaded = await loadImageBytesById(id, undefined, undefined, this.urls);
    if (!downloaded) {
      this.pending.set(id, { status: 'failed' });
      for (const l of this.listeners) l(id);
      return;
    }
    try {
      const image = await decodeImage(downloaded);
      if (!this.cache.set(id, image, ImageCache.rgbaBytes(image.width, image.height))) {
        this.handoff.set(id, image);
        // Only the latest few: an image nobody asks for again must not live outside the budget for good.
        const oldest = this.handoff.keys().next().value;
        if (this.handoff.size > HANDOFF_LIMIT && oldest !== undefined) this.handoff.delete(oldest);
      }
      this.pending.delete(id);
    } catch (error) {
      console.error('Failed to load image', error);
      this.pending.set(id, { status: 'failed' });
    }
    for (const l of this.listeners) l(id);
  }
}

/**
 * Bytes to a bitmap, decoded off the main thread. SVG (the bundled demo pictures) cannot be decoded from a blob by
 * createImageBitmap: it goes through an <img> first.
 */
async function decodeImage({ bytes, contentType }: DownloadedImage): Promise<DecodedImage> {
  const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: contentType });
  if (!contentType.includes('svg')) return createImageBitmap(blob);
  const url = URL.createObjectURL(blob);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return await createImageBitmap(image);
  } finally {
    URL.revokeObjectURL(url);
  }
}

let shared: ImageStore | null = null;

/**
 * The tab's one store: the canvas, thumbnails and exports share it, so the budget bounds the whole tab's decoded
 * images rather than each user's (an export beside an open chapter would otherwise double it).
 */
export function sharedImageStore(): ImageStore {
  shared ??= new ImageStore();
  return shared;
}
