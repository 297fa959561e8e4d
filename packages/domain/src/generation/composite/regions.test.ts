import { describe, expect, it } from 'vitest';
import {
  cornerNear,
  movedRect,
  rectContains,
  rectFromPoints,
  rectOnCanvas,
  regionCorners,
  resizedRect,
} from './regions.ts';

const box = { x: 100, y: 100, width: 400, height: 200 };

describe('rectFromPoints', () => {
  it('spans two canvas points in either order, as fractions of the frame', () => {
    expect(rectFromPoints({ x: 300, y: 250 }, { x: 200, y: 150 }, box)).toEqual({
      x0: 0.25,
      y0: 0.25,
      x1: 0.5,
      y1: 0.75,
    });
  });

  it('clamps to the frame', () => {
    expect(rectFromPoints({ x: 0, y: 0 }, { x: 900, y: 200 }, box)).toEqual({ x0: 0, y0: 0, x1: 1, y1: 0.5 });
  });
});

describe('movedRect and resizedRect', () => {
  const rect = { x0: 0.25, y0: 0.25, x1: 0.5, y1: 0.75 };

  it('moves by a canvas distance and stops at the frame edge without shrinking', () => {
    expect(movedRect(rect, 100, 0, box)).toEqual({ x0: 0.5, y0: 0.25, x1: 0.75, y1: 0.75 });
    const pushed = movedRect(rect, 10_000, -10_000, box);
    expect(pushed.x1).toBeCloseTo(1);
    expect(pushed.x1 - pushed.x0).toBeCloseTo(0.25);
    expect(pushed).toMatchObject({ y0: 0, y1: 0.5 });
  });

  it('drags a corner, the opposite one staying put', () => {
    expect(resizedRect(rect, 'se', { x: 500, y: 300 }, box)).toEqual({ x0: 0.25, y0: 0.25, x1: 1, y1: 1 });
    expect(resizedRect(rect, 'nw', { x: 100, y: 100 }, box)).toEqual({ x0: 0, y0: 0, x1: 0.5, y1: 0.75 });
    // Dragged past the opposite corner, it flips instead of turning negative.
    expect(resizedRect(rect, 'nw', { x: 400, y: 300 }, box)).toEqual({ x0: 0.5, y0: 0.75, x1: 0.75, y1: 1 });
  });
});

describe('rectOnCanvas, cornerNear, rectContains', () => {
  it('maps back to canvas units and finds corners within a margin', () => {
    const r = rectOnCanvas({ x0: 0.25, y0: 0.25, x1: 0.5, y1: 0.75 }, box);
    expect(r).toEqual({ x: 200, y: 150, width: 100, height: 100 });
    expect(cornerNear(r, { x: 303, y: 248 }, 5)).toBe('se');
    expect(cornerNear(r, { x: 250, y: 200 }, 5)).toBeNull();
    expect(rectContains(r, { x: 250, y: 200 })).toBe(true);
    expect(rectContains(r, { x: 350, y: 200 })).toBe(false);
  });
});

describe('regionCorners', () => {
  it('snaps to the pixel grid of the frame so the engine gets the whole pixels drawn', () => {
    const c = regionCorners({ x0: 0.1, y0: 0.2, x1: 0.6, y1: 0.9 }, { width: 832, height: 1216 })!;
    expect(Math.round(c.x0 * 832)).toBe(83);
    expect(Math.round(c.x1 * 832)).toBe(499);
    expect(c.x0 * 832).toBeCloseTo(83, 9);
    expect(c.y1 * 1216).toBeCloseTo(1094, 9);
  });

  it('clamps to 0..1 and orders the corners', () => {
    expect(regionCorners({ x0: 1.2, y0: 0.5, x1: -0.1, y1: 0 }, { width: 256, height: 256 })).toEqual({
      x0: 0,
      x1: 1,
      y0: 0,
      y1: 0.5,
    });
  });

  it('is null for a region thinner than a pixel', () => {
    expect(regionCorners({ x0: 0.5, y0: 0, x1: 0.501, y1: 1 }, { width: 256, height: 256 })).toBeNull();
  });
});
