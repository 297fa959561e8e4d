import { describe, expect, it } from 'vitest';
import { compositeSide, frameAt, frameOver, toFrame } from './frame.ts';

describe('compositeSide', () => {
  it('rounds down to a multiple of 8 and keeps 256 to 2048', () => {
    expect(compositeSide(831.9)).toBe(824);
    expect(compositeSide(832)).toBe(832);
    expect(compositeSide(100)).toBe(256);
    expect(compositeSide(5000)).toBe(2048);
    expect(compositeSide(Number.NaN)).toBe(256);
  });
});

describe('frameAt', () => {
  it('centres the chosen image size on the point, in canvas units equal to pixels', () => {
    const f = frameAt({ x: 1000, y: 500 }, { width: 832, height: 1216 });
    expect(f.pixels).toEqual({ width: 832, height: 1216 });
    expect(f.box).toEqual({ x: 584, y: -108, width: 832, height: 1216 });
    expect(f.panelId).toBeNull();
  });
});

describe('frameOver', () => {
  it('keeps about the chosen pixel count at the panel proportions, and covers the panel exactly when they match', () => {
    const f = frameOver({ x: 100, y: 200, width: 400, height: 400 }, { width: 1024, height: 1024 }, 'p1');
    expect(f.pixels).toEqual({ width: 1024, height: 1024 });
    expect(f.box).toEqual({ x: 100, y: 200, width: 400, height: 400 });
    expect(f.panelId).toBe('p1');
  });

  it('covers a panel whose proportions the rounding cannot keep, centred on it', () => {
    // A very wide strip: 2000 × 250 at 1024² pixels asks for 2896 × 362, which is kept to 2048 × 360.
    const panel = { x: 0, y: 0, width: 2000, height: 250 };
    const f = frameOver(panel, { width: 1024, height: 1024 }, 'p');
    expect(f.pixels).toEqual({ width: 2048, height: 360 });
    expect(f.box.width).toBeGreaterThanOrEqual(panel.width - 1e-9);
    expect(f.box.height).toBeGreaterThanOrEqual(panel.height - 1e-9);
    expect(f.box.x + f.box.width / 2).toBeCloseTo(1000);
    expect(f.box.y + f.box.height / 2).toBeCloseTo(125);
    expect(f.box.width / f.box.height).toBeCloseTo(2048 / 360);
  });

  it('falls back to the image size at the centre of an empty box', () => {
    const f = frameOver({ x: 10, y: 10, width: 0, height: 50 }, { width: 512, height: 512 }, 'p');
    expect(f.pixels).toEqual({ width: 512, height: 512 });
    expect(f.box).toEqual({ x: 10 - 256, y: 35 - 256, width: 512, height: 512 });
  });
});

describe('toFrame', () => {
  it('gives fractions of the frame', () => {
    expect(toFrame({ x: 150, y: 300 }, { x: 100, y: 200, width: 100, height: 400 })).toEqual({ x: 0.5, y: 0.25 });
  });
});
