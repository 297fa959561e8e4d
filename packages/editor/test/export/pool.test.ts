import { describe, expect, it } from 'vitest';
import type { Layer } from 'ag-psd';
import { PixelPool, buildPsd, planPage, writePsdBytes } from '../../src/export/index.ts';
import { fixtureDoc, syntheticRasters } from './support.ts';

describe('PixelPool', () => {
  it('hands back reclaimed buffers cleared, the smallest that fits, and fresh ones when none fits', () => {
    const pool = new PixelPool();
    const big = pool.take(100, 100);
    const small = pool.take(10, 10);
    big.data.fill(7);
    small.data.fill(9);
    // Not reclaimed yet: nothing to reuse.
    expect(pool.take(10, 10).data.buffer).not.toBe(small.data.buffer);
    pool.reclaim();
    const again = pool.take(8, 8);
    expect(again.data.buffer).toBe(small.data.buffer);
    expect(again.data.length).toBe(8 * 8 * 4);
    expect(again.data.every((v) => v === 0)).toBe(true);
    const page = pool.take(50, 50);
    expect(page.data.buffer).toBe(big.data.buffer);
    expect(page.data.every((v) => v === 0)).toBe(true);
    expect(pool.take(200, 200).data.buffer).not.toBe(big.data.buffer);
  });

  it("holds one page's buffers at most: a reclaim lets go of free buffers the page did not take", () => {
    const pool = new PixelPool();
    const large = pool.take(300, 300);
    pool.reclaim();
    expect(pool.heldBytes).toBe(300 * 300 * 4);
    // A smaller page after it takes the large buffer (the only one); a page that needs two gets one fresh.
    pool.take(20, 20);
    pool.take(20, 20);
    pool.reclaim();
    expect(pool.heldBytes).toBe(300 * 300 * 4 + 20 * 20 * 4);
    // A page that takes only the small buffer: the large one is no longer held.
    expect(pool.take(20, 20).data.buffer).not.toBe(large.data.buffer);
    pool.reclaim();
    expect(pool.heldBytes).toBe(20 * 20 * 4);
  });

  it('gives builds the very bytes they write without it, page after page', () => {
    const { doc, rootId } = fixtureDoc();
    const plan = planPage(doc, rootId);
    const rasters = syntheticRasters(plan);
    const pool = new PixelPool();
    for (const tier of ['subscriber', 'free', 'subscriber'] as const) {
      const plain = buildPsd(plan, rasters, { plan: tier, thumbnail: false });
      const pooled = buildPsd(plan, rasters, { plan: tier, thumbnail: false, pool });
      expect(Buffer.from(pooled.composite.data).equals(Buffer.from(plain.composite.data))).toBe(true);
      expect(Buffer.from(writePsdBytes(pooled.psd)).equals(Buffer.from(writePsdBytes(plain.psd)))).toBe(true);
      // What the next page takes is this page's buffers (composite, panel areas and borders), dirtied.
      pooled.composite.data.fill(123);
      const dirty = (layers: readonly Layer[]): void => {
        for (const l of layers) {
          if (l.children) dirty(l.children);
          else if (/^Panel \d+ (area|border)$/.test(l.name ?? '')) l.imageData?.data.fill(123);
        }
      };
      dirty(pooled.psd.children ?? []);
      pool.reclaim();
    }
  });
});
