import type { Raster } from './raster.ts';

/**
 * Pixel buffers handed back after a page is written, for the next page's build to take: a page's composite and its
 * panel area and border rasters are tens of megabytes that the system hands out fresh (a page fault per 4 KB) and
 * the garbage collector sweeps again, page after page. A whole comic's pages are mostly one size, so after the first
 * page most takes find a buffer. Owned by one writer at a time (a PDF job, or the browser's kept export worker
 * across its exports); `reclaim` only once nothing reads the built pages any more (the writer has written them).
 */
export class PixelPool {
  private free: ArrayBuffer[] = [];
  private lent: ArrayBuffer[] = [];

  /** A raster of `width`×`height` whose bytes are all zero, on a pooled buffer when one is large enough. */
  take(width: number, height: number): Raster {
    const bytes = Math.max(0, width * height * 4);
    // The smallest free buffer that fits, so that a panel's raster does not take the page's.
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const size = this.free[i]!.byteLength;
      if (size >= bytes && (best < 0 || size < this.free[best]!.byteLength)) best = i;
    }
    let data: Uint8ClampedArray;
    if (best >= 0) {
      const buffer = this.free.splice(best, 1)[0]!;
      data = new Uint8ClampedArray(buffer, 0, bytes);
      data.fill(0);
      this.lent.push(buffer);
    } else {
      const buffer = new ArrayBuffer(bytes);
      data = new Uint8ClampedArray(buffer);
      this.lent.push(buffer);
    }
    return { width, height, data };
  }

  /**
   * Every buffer taken since the last reclaim goes back to the pool; rasters made from them must not be used. Free
   * buffers this page did not take are let go: the pool holds one page's buffers at most, however many pages (and
   * of whatever sizes) went through it, which bounds what a worker kept between exports holds.
   */
  reclaim(): void {
    this.free = this.lent;
    this.lent = [];
  }

  /** Bytes the pool holds for the next page (after a reclaim, the buffers of the page before). */
  get heldBytes(): number {
    return [...this.free, ...this.lent].reduce((sum, b) => sum + b.byteLength, 0);
  }
}
