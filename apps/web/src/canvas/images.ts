import { ImageCache, imageCacheBudget, loadImageById } from '../api/index.ts';

type Entry = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; image: HTMLImageElement };

/**
 * Decoded images for the canvas, by image id: loaded once through the shared loader, kept in an LRU cache with a
 * memory budget, and announced to listeners when they arrive.
 */
export class ImageStore {
  private readonly cache = new ImageCache<HTMLImageElement>(imageCacheBudget(window.innerWidth, window.innerHeight));
  private readonly pending = new Map<string, Entry>();
  private readonly mips = new ImageCache<HTMLCanvasElement>(
    imageCacheBudget(window.innerWidth, window.innerHeight) / 4,
  );
  private readonly listeners = new Set<(id: string) => void>();

  /** The image if it is ready; otherwise starts loading it and returns null. */
  get(id: string): HTMLImageElement | null {
    const cached = this.cache.get(id);
    if (cached) return cached;
    if (!this.pending.has(id)) void this.load(id);
    return null;
  }

  /**
   * The image scaled down to fit `side` pixels on its longest side (a power of two, at least 64), so a page seen
   * from afar draws small bitmaps instead of full-size ones. Falls back to the full image while it is small enough.
   */
  getScaled(id: string, side: number): CanvasImageSource | null {
    const image = this.get(id);
    if (!image) return null;
    const longest = Math.max(image.naturalWidth, image.naturalHeight);
    const level = Math.max(64, 2 ** Math.ceil(Math.log2(Math.max(1, side))));
    if (level >= longest) return image;
    const key = `${id}@${level}`;
    let scaled = this.mips.get(key);
    if (!scaled) {
      const ratio = level / longest;
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round(image.naturalWidth * ratio));
      canvas.height = Math.max(1, Math.round(image.naturalHeight * ratio));
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
    const url = await loadImageById(id);
    if (!url) {
      this.pending.set(id, { status: 'failed' });
      for (const l of this.listeners) l(id);
      return;
    }
    const image = new Image();
    image.decoding = 'async';
    image.src = url;
    try {
      await image.decode();
      this.cache.set(id, image, ImageCache.rgbaBytes(image.naturalWidth, image.naturalHeight));
      this.pending.delete(id);
    } catch (error) {
      console.error('Failed to load image', error);
      this.pending.set(id, { status: 'failed' });
    }
    for (const l of this.listeners) l(id);
  }
}
