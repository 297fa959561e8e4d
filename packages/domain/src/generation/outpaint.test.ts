import { describe, expect, it } from 'vitest';
import {
  DEFAULT_OUTPAINT_PADDING,
  OUTPAINT_MAX_PADDING,
  extendsSomething,
  normalizeOutpaintPadding,
  outpaintedTransform,
  snapOutpaintPadding,
} from './outpaint.ts';

describe('outpaint padding', () => {
  it('defaults to 128 on every side', () => {
    expect(normalizeOutpaintPadding({})).toEqual({ left: 128, right: 128, top: 128, bottom: 128 });
  });

  it('snaps typed values to the nearest multiple of 8 inside 0..max', () => {
    expect(snapOutpaintPadding(99)).toBe(96);
    expect(snapOutpaintPadding(100)).toBe(104); // halfway rounds up
    expect(snapOutpaintPadding(101)).toBe(104);
    expect(snapOutpaintPadding(-40)).toBe(0);
    expect(snapOutpaintPadding(5000)).toBe(OUTPAINT_MAX_PADDING);
    expect(snapOutpaintPadding(Number.NaN)).toBe(0);
    expect(normalizeOutpaintPadding({ left: 0, right: 250 })).toEqual({ left: 0, right: 248, top: 128, bottom: 128 });
  });

  it('knows when nothing would be extended', () => {
    expect(extendsSomething({ left: 0, right: 0, top: 0, bottom: 0 })).toBe(false);
    expect(extendsSomething({ left: 0, right: 0, top: 0, bottom: 8 })).toBe(true);
    expect(extendsSomething(DEFAULT_OUTPAINT_PADDING)).toBe(true);
  });

  it('grows the layer box by the padding at the layer scale, keeping the source part in place', () => {
    // A 1024×512 image drawn at half size: 64 image pixels are 32 canvas units.
    const box = outpaintedTransform(
      { x: 100, y: 200, size: { width: 512, height: 256 } },
      { width: 1024, height: 512 },
      { left: 64, right: 0, top: 128, bottom: 256 },
    );
    expect(box).toEqual({ x: 68, y: 136, size: { width: 544, height: 448 } });
  });

  it('treats an image without a known size as drawn at its own size', () => {
    const box = outpaintedTransform(
      { x: 0, y: 0, size: { width: 10, height: 10 } },
      { width: 0, height: 0 },
      {
        left: 8,
        right: 8,
        top: 0,
        bottom: 0,
      },
    );
    expect(box).toEqual({ x: -8, y: 0, size: { width: 26, height: 10 } });
  });
});
