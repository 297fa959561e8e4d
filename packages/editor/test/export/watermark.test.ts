import { describe, expect, it } from 'vitest';
import { applyWatermark, createRaster, needsWatermark, watermarkRaster } from '../../src/export/index.ts';

describe('watermark', () => {
  const page = () => createRaster(1700, 2400, [255, 255, 255, 255]);

  it('marks the free tier: the bottom-right plate darkens white pixels and its letters stay light', () => {
    const pixels = page();
    expect(applyWatermark(pixels, 'free')).toBe(true);
    const { rect, raster } = watermarkRaster(1700, 2400);
    expect(rect.x + rect.width).toBeLessThan(1700);
    expect(rect.y + rect.height).toBeLessThan(2400);
    expect(rect.width).toBeGreaterThan(1700 / 5);
    let changed = 0;
    let light = 0;
    for (let y = rect.y; y < rect.y + rect.height; y++) {
      for (let x = rect.x; x < rect.x + rect.width; x++) {
        const i = (y * 1700 + x) * 4;
        if (pixels.data[i] !== 255) changed++;
        else light++;
      }
    }
    // The plate (alpha 110 of black over white) leaves 255 × (1 − 110/255) ≈ 145; the letters are near white.
    expect(changed).toBeGreaterThan(rect.width * rect.height * 0.5);
    expect(light).toBeGreaterThan(0);
    const corner = (rect.y * 1700 + rect.x) * 4;
    expect(pixels.data[corner]).toBe(145);
    expect(raster.width).toBe(rect.width);
    // Outside the plate nothing changed.
    expect([...pixels.data.slice(0, 4)]).toEqual([255, 255, 255, 255]);
  });

  it('leaves a subscriber’s pixels untouched', () => {
    const pixels = page();
    expect(needsWatermark('subscriber')).toBe(false);
    expect(applyWatermark(pixels, 'subscriber')).toBe(false);
    expect(pixels.data.every((v) => v === 255)).toBe(true);
  });
});
