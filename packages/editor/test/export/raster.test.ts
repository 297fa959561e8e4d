import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlendMode } from '@koma/domain';
import { drawBlended } from '../../src/export/blend.ts';
import { useBlendKernel } from '../../src/export/blend-kernel.ts';
import { previousDrawBlended } from './blend-previous.ts';
import {
  createRaster,
  drawOver,
  fillPolygon,
  fillRect,
  opaqueBounds,
  polygonCoversArea,
  strokeCover,
  strokeMatches,
  strokePolygon,
  type ClipBase,
  type Raster,
} from '../../src/export/raster.ts';

/** drawBlended's two paths: the same bytes are asked of each (blend-kernel.test.ts compares them directly). */
const PATHS: [string, boolean][] = [
  ['the WebAssembly kernel', true],
  ['the JavaScript loop', false],
];

/** Source-over one pixel at a time, the plain formula drawOver's block copies and skips must agree with. */
function referenceDrawOver(dst: Raster, src: Raster, left: number, top: number, opacity: number, clip?: ClipBase) {
  const d = dst.data;
  const s = src.data;
  const scale = Math.max(0, Math.min(1, opacity));
  for (let y = 0; y < dst.height; y++) {
    for (let x = 0; x < dst.width; x++) {
      const sx = x - left;
      const sy = y - top;
      if (sx < 0 || sy < 0 || sx >= src.width || sy >= src.height) continue;
      let ka = 255;
      if (clip) {
        const cx = x - clip.left;
        const cy = y - clip.top;
        if (cx < 0 || cy < 0 || cx >= clip.raster.width || cy >= clip.raster.height) continue;
        ka = clip.raster.data[(cy * clip.raster.width + cx) * 4 + 3]!;
      }
      const si = (sy * src.width + sx) * 4;
      const di = (y * dst.width + x) * 4;
      const sa = (s[si + 3]! * scale * ka) / 255;
      if (sa <= 0) continue;
      const da = d[di + 3]!;
      if (sa === 255 || da === 0) {
        d[di] = s[si]!;
        d[di + 1] = s[si + 1]!;
        d[di + 2] = s[si + 2]!;
        d[di + 3] = sa;
        continue;
      }
      const as = sa / 255;
      const ad = (da / 255) * (1 - as);
      const a = as + ad;
      d[di] = (s[si]! * as + d[di]! * ad) / a;
      d[di + 1] = (s[si + 1]! * as + d[di + 1]! * ad) / a;
      d[di + 2] = (s[si + 2]! * as + d[di + 2]! * ad) / a;
      d[di + 3] = a * 255;
    }
  }
}

/** B(backdrop, source) on 0..1 channels, written out from the W3C compositing spec's separable modes. */
const SPEC_MIX: Record<Exclude<BlendMode, 'normal'>, (b: number, s: number) => number> = {
  multiply: (b, s) => b * s,
  screen: (b, s) => 1 - (1 - b) * (1 - s),
  overlay: (b, s) => (b > 0.5 ? 1 - 2 * (1 - b) * (1 - s) : 2 * b * s),
  darken: (b, s) => (b < s ? b : s),
  lighten: (b, s) => (b > s ? b : s),
};

/**
 * A blend mode one pixel at a time by the spec's general formula (co = αs·(1−αb)·Cs + αs·αb·B(Cb, Cs) + (1−αs)·αb·Cb),
 * with no tables and no fast paths: what drawBlended's lookups and word runs must agree with.
 */
function referenceDrawBlended(
  dst: Raster,
  src: Raster,
  left: number,
  top: number,
  mode: Exclude<BlendMode, 'normal'>,
  opacity: number,
  clip?: ClipBase,
) {
  const d = dst.data;
  for (let y = 0; y < dst.height; y++) {
    for (let x = 0; x < dst.width; x++) {
      const sx = x - left;
      const sy = y - top;
      if (sx < 0 || sy < 0 || sx >= src.width || sy >= src.height) continue;
      let ka = 1;
      if (clip) {
        const cx = x - clip.left;
        const cy = y - clip.top;
        if (cx < 0 || cy < 0 || cx >= clip.raster.width || cy >= clip.raster.height) continue;
        ka = clip.raster.data[(cy * clip.raster.width + cx) * 4 + 3]! / 255;
      }
      const si = (sy * src.width + sx) * 4;
      const di = (y * dst.width + x) * 4;
      const as = (src.data[si + 3]! / 255) * opacity * ka;
      if (as === 0) continue;
      const ab = d[di + 3]! / 255;
      const ao = as + ab * (1 - as);
      for (let c = 0; c < 3; c++) {
        const cs = src.data[si + c]! / 255;
        const cb = d[di + c]! / 255;
        const co = as * (1 - ab) * cs + as * ab * SPEC_MIX[mode](cb, cs) + (1 - as) * ab * cb;
        d[di + c] = Math.round((co / ao) * 255);
      }
      d[di + 3] = Math.round(ao * 255);
    }
  }
}

/** Rasters whose alpha comes in runs (opaque, clear, partial), as art, outlines and panel masks do. */
const raster = (maxW: number, maxH: number) =>
  fc
    .record({
      width: fc.integer({ min: 1, max: maxW }),
      height: fc.integer({ min: 1, max: maxH }),
      runs: fc.array(
        fc.record({ length: fc.integer({ min: 1, max: 40 }), alpha: fc.constantFrom(0, 255, 255, 128, 1) }),
        {
          minLength: 1,
          maxLength: 20,
        },
      ),
      seed: fc.integer({ min: 1, max: 1 << 20 }),
    })
    .map(({ width, height, runs, seed }) => {
      const r = createRaster(width, height);
      let run = 0;
      let left = runs[0]!.length;
      let s = seed;
      for (let i = 0; i < width * height; i++) {
        if (left === 0) {
          run = (run + 1) % runs.length;
          left = runs[run]!.length;
        }
        left--;
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        r.data.set([s & 255, (s >> 8) & 255, (s >> 16) & 255, runs[run]!.alpha], i * 4);
      }
      return r;
    });

describe('drawOver', () => {
  it('matches per-pixel source-over for any placement, opacity and clip base', () => {
    fc.assert(
      fc.property(
        raster(50, 12),
        raster(60, 14),
        fc.option(raster(60, 14), { nil: undefined }),
        fc.integer({ min: -20, max: 40 }),
        fc.integer({ min: -6, max: 12 }),
        fc.integer({ min: -20, max: 40 }),
        fc.integer({ min: -6, max: 12 }),
        fc.constantFrom(1, 1, 0.5, 0),
        (dstStart, src, clipRaster, left, top, clipLeft, clipTop, opacity) => {
          const clip = clipRaster ? { raster: clipRaster, left: clipLeft, top: clipTop } : undefined;
          const expected = { ...dstStart, data: dstStart.data.slice() };
          const actual = { ...dstStart, data: dstStart.data.slice() };
          referenceDrawOver(expected, src, left, top, opacity, clip);
          drawOver(actual, src, left, top, opacity, clip);
          expect(Array.from(actual.data)).toEqual(Array.from(expected.data));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe.each(PATHS)('drawBlended (%s)', (_path, kernel) => {
  beforeAll(() => useBlendKernel(kernel));
  afterAll(() => useBlendKernel(true));
  it('matches the spec formula pixel by pixel for any mode, placement, opacity and clip base', () => {
    // Long opaque runs over an opaque backdrop take the word fast path; the rest the general one: both are checked.
    fc.assert(
      fc.property(
        raster(50, 12),
        raster(60, 14),
        fc.option(raster(60, 14), { nil: undefined }),
        fc.integer({ min: -20, max: 40 }),
        fc.integer({ min: -6, max: 12 }),
        fc.integer({ min: -20, max: 40 }),
        fc.integer({ min: -6, max: 12 }),
        fc.constantFrom<Exclude<BlendMode, 'normal'>>('multiply', 'screen', 'overlay', 'darken', 'lighten'),
        fc.constantFrom(1, 0.8, 0.5, 0),
        (dstStart, src, clipRaster, left, top, clipLeft, clipTop, mode, opacity) => {
          const clip = clipRaster ? { raster: clipRaster, left: clipLeft, top: clipTop } : undefined;
          const expected = { ...dstStart, data: dstStart.data.slice() };
          const actual = { ...dstStart, data: dstStart.data.slice() };
          referenceDrawBlended(expected, src, left, top, mode, opacity, clip);
          drawBlended(actual, src, left, top, mode, opacity, clip);
          for (let i = 0; i < actual.data.length; i++) {
            // The lookup table rounds B once before the mix: at most one level apart.
            if (Math.abs(actual.data[i]! - expected.data[i]!) > 1) {
              expect(`byte ${i}: ${actual.data[i]}`).toBe(`byte ${i}: ${expected.data[i]}`);
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe.each(PATHS)('drawBlended, one pass over opaque runs (%s)', (_path, kernel) => {
  beforeAll(() => useBlendKernel(kernel));
  afterAll(() => useBlendKernel(true));
  it('writes exactly the bytes the previous two-pass code wrote, for any mode, placement, opacity and clip base', () => {
    // Mostly opaque runs, so that the run loop starts, stops at every kind of pixel and resumes.
    const opaqueish = (maxW: number, maxH: number) =>
      fc.tuple(raster(maxW, maxH), fc.integer({ min: 0, max: 3 })).map(([r, keep]) => {
        for (let i = 3; i < r.data.length; i += 4) if (r.data[i] !== 0 && (i >> 2) % 4 !== keep) r.data[i] = 255;
        return r;
      });
    fc.assert(
      fc.property(
        opaqueish(50, 12),
        opaqueish(60, 14),
        fc.option(opaqueish(60, 14), { nil: undefined }),
        fc.integer({ min: -20, max: 40 }),
        fc.integer({ min: -6, max: 12 }),
        fc.integer({ min: -20, max: 40 }),
        fc.integer({ min: -6, max: 12 }),
        fc.constantFrom<Exclude<BlendMode, 'normal'>>('multiply', 'screen', 'overlay', 'darken', 'lighten'),
        fc.constantFrom(1, 0.8, 0.5, 0),
        (dstStart, src, clipRaster, left, top, clipLeft, clipTop, mode, opacity) => {
          const clip = clipRaster ? { raster: clipRaster, left: clipLeft, top: clipTop } : undefined;
          const expected = { ...dstStart, data: dstStart.data.slice() };
          const actual = { ...dstStart, data: dstStart.data.slice() };
          previousDrawBlended(expected, src, left, top, mode, opacity, clip);
          drawBlended(actual, src, left, top, mode, opacity, clip);
          expect(Buffer.from(actual.data).equals(Buffer.from(expected.data))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe.each(PATHS)('drawBlended, every channel pair (%s)', (_path, kernel) => {
  beforeAll(() => useBlendKernel(kernel));
  afterAll(() => useBlendKernel(true));
  it('writes the bytes of the previous code for every backdrop and source level, opaque and translucent', () => {
    // A 256×256 backdrop whose row is the backdrop level and a source whose column is the source level, in all three
    // channels (each channel shifted, so that the three lookups of a pixel differ): every pair of the opaque table,
    // and with the source's alpha below 255, every pair of the general formula over an opaque backdrop.
    const backdrop = createRaster(256, 256);
    const source = createRaster(256, 256);
    for (let b = 0; b < 256; b++) {
      for (let s = 0; s < 256; s++) {
        const i = (b * 256 + s) * 4;
        backdrop.data.set([b, (b + 85) & 255, (b + 170) & 255, 255], i);
        source.data.set([s, (s + 37) & 255, (s + 111) & 255, 255], i);
      }
    }
    const translucent = { ...source, data: source.data.slice() };
    for (let i = 3; i < translucent.data.length; i += 4) translucent.data[i] = 200;
    for (const mode of ['multiply', 'screen', 'overlay', 'darken', 'lighten'] as const) {
      for (const opacity of [1, 0.8, 0.35]) {
        for (const src of [source, translucent]) {
          const expected = { ...backdrop, data: backdrop.data.slice() };
          const actual = { ...backdrop, data: backdrop.data.slice() };
          previousDrawBlended(expected, src, 0, 0, mode, opacity);
          drawBlended(actual, src, 0, 0, mode, opacity);
          expect(Buffer.from(actual.data).equals(Buffer.from(expected.data)), `${mode} at ${opacity}`).toBe(true);
        }
      }
    }
  });
});

describe('opaqueBounds', () => {
  it('is the smallest box around every pixel with some alpha', () => {
    fc.assert(
      fc.property(raster(70, 20), (r) => {
        let minX = Infinity;
        let minY = Infinity;
        let maxX = -1;
        let maxY = -1;
        for (let y = 0; y < r.height; y++) {
          for (let x = 0; x < r.width; x++) {
            if (r.data[(y * r.width + x) * 4 + 3] === 0) continue;
            minX = Math.min(minX, x);
            maxX = Math.max(maxX, x);
            minY = Math.min(minY, y);
            maxY = Math.max(maxY, y);
          }
        }
        const expected = maxX < 0 ? null : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
        expect(opaqueBounds(r)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe.each(PATHS)('an opaque clip base (%s)', (_path, kernel) => {
  beforeAll(() => useBlendKernel(kernel));
  afterAll(() => useBlendKernel(true));
  it('draws what the same base read pixel by pixel draws, in normal and every blend mode, bounded by the base', () => {
    fc.assert(
      fc.property(
        raster(50, 12),
        raster(60, 14),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 14 }),
        fc.integer({ min: -20, max: 40 }),
        fc.integer({ min: -6, max: 12 }),
        fc.integer({ min: -20, max: 40 }),
        fc.integer({ min: -6, max: 12 }),
        fc.constantFrom<BlendMode>('normal', 'multiply', 'screen', 'overlay', 'darken', 'lighten'),
        fc.constantFrom(1, 0.8, 0),
        (dstStart, src, clipW, clipH, left, top, clipLeft, clipTop, mode, opacity) => {
          const base = createRaster(clipW, clipH, [255, 255, 255, 255]);
          const read = { ...dstStart, data: dstStart.data.slice() };
          const trusted = { ...dstStart, data: dstStart.data.slice() };
          drawBlended(read, src, left, top, mode, opacity, { raster: base, left: clipLeft, top: clipTop });
          drawBlended(trusted, src, left, top, mode, opacity, {
            raster: base,
            left: clipLeft,
            top: clipTop,
            opaque: true,
          });
          expect(Buffer.from(trusted.data).equals(Buffer.from(read.data))).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('polygonCoversArea', () => {
  const full = (area: { width: number; height: number }, polygon: { x: number; y: number }[]) =>
    pixelWordsAllOpaque(fillPolygon({ x: 0, y: 0, ...area }, polygon, [255, 255, 255, 255]));
  const pixelWordsAllOpaque = (r: Raster) => {
    for (let i = 3; i < r.data.length; i += 4) if (r.data[i] !== 255) return false;
    return true;
  };

  it('is true for a rectangle on whole pixels that spans the area, false when an edge leaves a column or row out', () => {
    const rect = (x0: number, y0: number, x1: number, y1: number) => [
      { x: x0, y: y0 },
      { x: x1, y: y0 },
      { x: x1, y: y1 },
      { x: x0, y: y1 },
    ];
    const area = { x: 0, y: 0, width: 20, height: 10 };
    expect(polygonCoversArea(area, rect(0, 0, 20, 10))).toBe(true);
    expect(polygonCoversArea(area, rect(-5, -5, 30, 30))).toBe(true);
    expect(polygonCoversArea(area, rect(0.6, 0, 20, 10))).toBe(false);
    expect(polygonCoversArea(area, rect(0, 0, 20, 9.4))).toBe(false);
    expect(polygonCoversArea(area, [...rect(0, 0, 20, 10)].slice(0, 3))).toBe(false);
    expect(polygonCoversArea({ ...area, width: 0 }, rect(0, 0, 20, 10))).toBe(false);
  });

  it('says exactly whether fillPolygon fills every pixel of the area', () => {
    const coord = fc.oneof(fc.integer({ min: -4, max: 24 }), fc.double({ min: -4, max: 24, noNaN: true }));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.record({ x: coord, y: coord }), { minLength: 3, maxLength: 7 }),
        fc.boolean(),
        (width, height, points, boxy) => {
          // Half the cases are boxes (which often cover the area), the rest any polygon.
          const polygon = boxy
            ? [
                { x: Math.min(points[0]!.x, points[1]!.x), y: Math.min(points[0]!.y, points[1]!.y) },
                { x: Math.max(points[0]!.x, points[1]!.x) + 20, y: Math.min(points[0]!.y, points[1]!.y) },
                { x: Math.max(points[0]!.x, points[1]!.x) + 20, y: Math.max(points[0]!.y, points[1]!.y) + 12 },
                { x: Math.min(points[0]!.x, points[1]!.x), y: Math.max(points[0]!.y, points[1]!.y) + 12 },
              ]
            : points;
          expect(polygonCoversArea({ x: 0, y: 0, width, height }, polygon)).toBe(full({ width, height }, polygon));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('strokeCover', () => {
  const coord = fc.oneof(fc.integer({ min: -6, max: 40 }), fc.double({ min: -6, max: 40, noNaN: true }));
  it('holds every pixel strokePolygon draws, in rectangles that do not overlap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 36 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: -3, max: 3 }),
        fc.array(fc.record({ x: coord, y: coord }), { minLength: 2, maxLength: 6 }),
        fc.constantFrom(1, 2, 5, 7.5),
        (width, height, x, y, polygon, stroke) => {
          const area = { x, y, width, height };
          const drawn = strokePolygon(area, polygon, stroke, [0, 0, 0, 255]);
          const owners = new Uint8Array(width * height);
          for (const r of strokeCover(area, polygon, stroke)) {
            for (let row = r.y; row < r.y + r.height; row++) {
              for (let col = r.x; col < r.x + r.width; col++) {
                expect(row >= 0 && row < height && col >= 0 && col < width).toBe(true);
                owners[row * width + col]!++;
              }
            }
          }
          for (let i = 0; i < owners.length; i++) {
            expect(owners[i]! <= 1).toBe(true);
            if (drawn.data[i * 4 + 3] !== 0) expect(owners[i]).toBe(1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('drawOver within a part of the source', () => {
  it('draws that part as drawing the whole would, and nothing outside it', () => {
    fc.assert(
      fc.property(
        raster(50, 12),
        raster(60, 14),
        fc.integer({ min: -20, max: 40 }),
        fc.integer({ min: -6, max: 12 }),
        fc.record({
          x: fc.integer({ min: -5, max: 60 }),
          y: fc.integer({ min: -3, max: 14 }),
          width: fc.integer({ min: 0, max: 60 }),
          height: fc.integer({ min: 0, max: 14 }),
        }),
        fc.constantFrom(1, 0.5),
        (dstStart, src, left, top, part, opacity) => {
          // The source cleared outside the part: drawing it whole is the reference.
          const cleared = createRaster(src.width, src.height);
          for (let y = Math.max(0, part.y); y < Math.min(src.height, part.y + part.height); y++) {
            for (let x = Math.max(0, part.x); x < Math.min(src.width, part.x + part.width); x++) {
              const i = (y * src.width + x) * 4;
              cleared.data.set(src.data.subarray(i, i + 4), i);
            }
          }
          const expected = { ...dstStart, data: dstStart.data.slice() };
          const actual = { ...dstStart, data: dstStart.data.slice() };
          drawOver(expected, cleared, left, top, opacity);
          drawOver(actual, src, left, top, opacity, undefined, part);
          expect(Buffer.from(actual.data).equals(Buffer.from(expected.data))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('fillRect', () => {
  it('fills the rectangle cut to the raster and nothing else', () => {
    const r = createRaster(5, 4);
    fillRect(r, { x: 3, y: -1, width: 4, height: 3 }, [1, 2, 3, 4]);
    const filled = [...Array(20).keys()].filter((i) => r.data[i * 4 + 3] === 4);
    expect(filled).toEqual([3, 4, 8, 9]);
    expect([...r.data.subarray(12, 16)]).toEqual([1, 2, 3, 4]);
  });
});

describe('strokeMatches', () => {
  it('says whether a raster holds exactly what strokePolygon draws for an outline, wherever that outline sits', () => {
    const coord = fc.oneof(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 30, noNaN: true }));
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: coord, y: coord }), { minLength: 3, maxLength: 5 }),
        fc.integer({ min: -40, max: 40 }),
        fc.integer({ min: -40, max: 40 }),
        fc.constantFrom(0, 0.25, 0.5),
        fc.constantFrom(2, 5),
        fc.constantFrom(2, 5),
        fc.boolean(),
        (polygon, dx, dy, wobble, width, otherWidth, otherColor) => {
          // An outline drawn once, and another like it moved by whole pixels (sometimes a shape a little off, or
          // another width or colour): the test must agree with drawing the second and comparing bytes.
          const area = { x: -3, y: -3, width: 40, height: 40 };
          const moved = polygon.map((p, i) => ({ x: p.x + dx + (i === 0 ? wobble : 0), y: p.y + dy }));
          const movedArea = { ...area, x: area.x + dx, y: area.y + dy };
          const first = strokePolygon(area, polygon, width, [0, 0, 0, 255]);
          const color = otherColor ? ([10, 20, 30, 255] as const) : ([0, 0, 0, 255] as const);
          const second = strokePolygon(movedArea, moved, otherWidth, color);
          const cover = strokeCover(movedArea, moved, otherWidth);
          const sameCover = JSON.stringify(cover) === JSON.stringify(strokeCover(area, polygon, width));
          fc.pre(sameCover);
          const equal = Buffer.from(first.data).equals(Buffer.from(second.data));
          expect(strokeMatches(first, movedArea, moved, otherWidth, color, cover)).toBe(equal);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('fillPolygon', () => {
  /** Even-odd at each pixel centre: the same as non-zero winding for a polygon that does not cross itself. */
  const inside = (polygon: { x: number; y: number }[], px: number, py: number) => {
    let odd = false;
    for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
      const a = polygon[i]!;
      const b = polygon[j]!;
      if (a.y > py !== b.y > py && px < a.x + ((py - a.y) / (b.y - a.y)) * (b.x - a.x)) odd = !odd;
    }
    return odd;
  };

  it('fills a concave outline whose rows cross four edges, listed out of order, at exactly its pixel centres', () => {
    // A "W"-like outline: the rows through the notches meet four edges, in an order unlike the list's.
    const polygon = [
      { x: 30.2, y: 2.5 },
      { x: 21.7, y: 27.3 },
      { x: 15.1, y: 9.6 },
      { x: 8.4, y: 28.1 },
      { x: 1.3, y: 3.2 },
      { x: 12.9, y: 5.4 },
    ];
    const area = { x: 0, y: 0, width: 32, height: 30 };
    const r = fillPolygon(area, polygon, [10, 20, 30, 255]);
    let fourCrossingRows = 0;
    for (let y = 0; y < area.height; y++) {
      let filled = 0;
      for (let x = 0; x < area.width; x++) {
        const want = inside(polygon, x + 0.5, y + 0.5);
        expect(r.data[(y * area.width + x) * 4 + 3], `pixel ${x},${y}`).toBe(want ? 255 : 0);
        if (want && !inside(polygon, x - 0.5, y + 0.5)) filled++;
      }
      if (filled === 2) fourCrossingRows++;
    }
    expect(fourCrossingRows).toBeGreaterThan(5);
  });
});
