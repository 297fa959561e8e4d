import { describe, expect, it } from 'vitest';
import { MASK_ON, paintedCount, rasteriseStrokes } from './brush-mask.ts';

const size = { width: 100, height: 50 };
const at = (mask: Uint8Array, x: number, y: number) => mask[y * size.width + x];

describe('rasteriseStrokes', () => {
  it('paints a dot of the stroke radius in pixels around a point given as fractions of the frame', () => {
    const mask = rasteriseStrokes([{ points: [0.5, 0.5], radius: 10, erase: false }], size);
    expect(at(mask, 50, 25)).toBe(MASK_ON);
    expect(at(mask, 59, 25)).toBe(MASK_ON); // centre 59.5 is 9.5 px away
    expect(at(mask, 60, 25)).toBe(0); // 10.5 px away
    expect(at(mask, 50, 34)).toBe(MASK_ON);
    expect(at(mask, 50, 35)).toBe(0);
    // About the area of a disc of radius 10.
    expect(paintedCount(mask)).toBeGreaterThan(Math.PI * 100 * 0.9);
    expect(paintedCount(mask)).toBeLessThan(Math.PI * 100 * 1.1);
  });

  it('covers the whole path of a line within the radius, and nothing beyond', () => {
    const mask = rasteriseStrokes([{ points: [0.1, 0.5, 0.9, 0.5], radius: 3, erase: false }], size);
    for (let x = 10; x < 90; x++) expect(at(mask, x, 25), `x ${x}`).toBe(MASK_ON);
    expect(at(mask, 50, 22)).toBe(MASK_ON);
    expect(at(mask, 50, 21)).toBe(0);
    expect(at(mask, 50, 28)).toBe(0);
    expect(at(mask, 95, 25)).toBe(0);
  });

  it('a bigger radius paints more', () => {
    const small = rasteriseStrokes([{ points: [0.2, 0.5, 0.8, 0.5], radius: 4, erase: false }], size);
    const big = rasteriseStrokes([{ points: [0.2, 0.5, 0.8, 0.5], radius: 12, erase: false }], size);
    expect(paintedCount(big)).toBeGreaterThan(paintedCount(small) * 2);
  });

  it('erases what was painted before it only, and is only black or white', () => {
    const mask = rasteriseStrokes(
      [
        { points: [0.1, 0.5, 0.9, 0.5], radius: 5, erase: false },
        { points: [0.5, 0.5], radius: 8, erase: true },
        { points: [0.5, 0.1], radius: 2, erase: false },
      ],
      size,
    );
    expect(at(mask, 50, 25)).toBe(0);
    expect(at(mask, 20, 25)).toBe(MASK_ON);
    expect(at(mask, 50, 5)).toBe(MASK_ON);
    expect(new Set(mask)).toEqual(new Set([0, MASK_ON]));
  });

  it('clips strokes that leave the frame', () => {
    const mask = rasteriseStrokes([{ points: [-1, -1, 2, 2], radius: 30, erase: false }], size);
    expect(mask.length).toBe(5000);
    expect(at(mask, 0, 0)).toBe(MASK_ON);
  });
});
