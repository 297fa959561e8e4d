import { describe, expect, it } from 'vitest';
import {
  WATERMARK_STRENGTH,
  applyWatermark,
  createRaster,
  markRaster,
  needsWatermark,
  watermarkMask,
} from '../../src/export/index.ts';

describe('watermark', () => {
  const page = () => createRaster(1700, 2400, [255, 255, 255, 255]);
  const count = (mask: Uint8Array, x0: number, y0: number, x1: number, y1: number) => {
    let n = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) n += mask[y * 1700 + x]!;
    return n;
  };

  it('covers the whole page with a diagonal mark, so no crop of the margins takes it away', () => {
    const mask = watermarkMask(1700, 2400);
    const total = count(mask, 0, 0, 1700, 2400);
    // Between 5 % and 25 % of the page: readable, and the art still shows.
    expect(total).toBeGreaterThan(1700 * 2400 * 0.05);
    expect(total).toBeLessThan(1700 * 2400 * 0.25);
    // Every 400 px square of the page holds some of it (a page cropped to any inner part is still marked).
    for (let y = 0; y + 400 <= 2400; y += 400) {
      for (let x = 0; x + 400 <= 1700; x += 400)
        expect(count(mask, x, y, x + 400, y + 400), `${x},${y}`).toBeGreaterThan(800);
    }
    // Diagonal: a row of the mark shifted right is found higher up (30° up), not on the same row.
    const row = (y: number) => [...mask.slice(y * 1700, y * 1700 + 1700)];
    expect(row(1200)).not.toEqual(row(1201 + 80));
    expect(watermarkMask(1700, 2400)).toBe(mask);
  });

  it('pulls marked pixels towards grey, on white paper and black ink, and leaves the rest and transparency alone', () => {
    const pixels = page();
    expect(applyWatermark(pixels, 'free')).toBe(true);
    const mask = watermarkMask(1700, 2400);
    const on = mask.indexOf(1);
    const off = mask.indexOf(0);
    const white = Math.round(255 * (1 - WATERMARK_STRENGTH) + 128 * WATERMARK_STRENGTH);
    expect(pixels.data[on * 4]).toBe(white);
    expect([...pixels.data.slice(off * 4, off * 4 + 4)]).toEqual([255, 255, 255, 255]);

    // A black 200×100 raster placed at (300, 500): marked where the page's mark crosses it; clear pixels stay clear.
    const ink = createRaster(200, 100, [0, 0, 0, 255]);
    ink.data.fill(0, 0, 4 * 200); // the first row is transparent
    markRaster(ink, 300, 500, 1700, 2400);
    let marked = 0;
    for (let y = 0; y < 100; y++) {
      for (let x = 0; x < 200; x++) {
        const o = (y * 200 + x) * 4;
        const underMark = mask[(500 + y) * 1700 + 300 + x] === 1;
        if (y === 0) expect(ink.data[o + 3]).toBe(0);
        else if (underMark) {
          expect(ink.data[o]).toBe(Math.round(128 * WATERMARK_STRENGTH));
          marked++;
        } else expect(ink.data[o]).toBe(0);
      }
    }
    expect(marked).toBeGreaterThan(0);
  });

  it('leaves a subscriber’s pixels untouched', () => {
    const pixels = page();
    expect(needsWatermark('subscriber')).toBe(false);
    expect(applyWatermark(pixels, 'subscriber')).toBe(false);
    expect(pixels.data.every((v) => v === 255)).toBe(true);
  });
});
