import { ImageCache, imageCacheBudget, loadImageById } from '../api/index.ts';

type Entry = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; image: HTMLImageElement };

/**
 * Decoded images for the canvas, by image id: loaded once through the shared loader, kept in an LRU cache with a
 * memory budget, and announced to listeners when they arrive.
 */
export class ImageStore {
  private readonly cache = new ImageCache<HTMLImageElement>(imageCacheBudget(window.innerWidth, window.innerHeight));
  private readonly pending = new Map<string, Entry>();
  private readonly listeners = new Set<(id: string) => void>();

  /** The image if it is ready; otherwise starts loading it and returns null. */
  get(id: string): HTMLImageElement | null {
    const cached = this.cache.get(id);
    if (cached) return cached;
    if (!this.pending.has(id)) void this.load(id);
    return null;
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
