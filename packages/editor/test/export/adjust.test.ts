import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTER_PARAMS, type FilterParams } from '@koma/domain';
import {
  adjustImage,
  buildPsd,
  createRaster,
  isDefaultFilter,
  planPage,
  type PlanRaster,
  type Raster,
  type Rgba,
} from '../../src/export/index.ts';
import { COLORS, fixtureDoc, syntheticRasters } from './support.ts';

const params = (p: Partial<FilterParams>): FilterParams => ({ ...DEFAULT_FILTER_PARAMS, ...p });
const whole = (r: Raster) => ({ x: 0, y: 0, width: r.width, height: r.height });
const px = (r: Raster, x: number, y: number) => [...r.data.slice((y * r.width + x) * 4, (y * r.width + x) * 4 + 4)];
const solid = (color: Rgba, width = 8, height = 8) => createRaster(width, height, color);
const mean = (r: Raster, channel: number) => {
  let sum = 0;
  for (let i = channel; i < r.data.length; i += 4) sum += r.data[i]!;
  return sum / (r.width * r.height);
};

/** Pseudo-random opaque and translucent pixels, so identity is checked on more than one colour. */
function noise(width: number, height: number): Raster {
  const r = createRaster(width, height);
  let seed = 7;
  for (let i = 0; i < r.data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    r.data[i] = seed >>> 24;
  }
  return r;
}

describe('image adjustments on the CPU', () => {
  it('is the identity at the defaults: the same raster, byte for byte, with no work done', () => {
    const r = noise(33, 17);
    const before = new Uint8ClampedArray(r.data);
    const out = adjustImage(r, { ...DEFAULT_FILTER_PARAMS }, whole(r));
    expect(out).toBe(r);
    expect(out.data).toEqual(before);
    expect(isDefaultFilter({ ...DEFAULT_FILTER_PARAMS })).toBe(true);
    expect(isDefaultFilter(params({ grain: 0.1 }))).toBe(false);
  });

  it("leaves the caller's pixels alone and keeps alpha; fully transparent pixels stay transparent black", () => {
    const r = solid([100, 100, 100, 128], 2, 1);
    r.data.set([90, 90, 90, 0], 4);
    const out = adjustImage(r, params({ exposure: 1 }), whole(r));
    expect(px(r, 0, 0)).toEqual([100, 100, 100, 128]);
    expect(px(out, 0, 0)).toEqual([200, 200, 200, 128]);
    expect(px(out, 1, 0)).toEqual([0, 0, 0, 0]);
  });

  it('moves pixels the way each parameter says', () => {
    const dark = solid([60, 60, 60, 255]);
    const light = solid([200, 200, 200, 255]);
    const at = (r: Raster, p: Partial<FilterParams>) => px(adjustImage(r, params(p), whole(r)), 4, 4)[0]!;
    expect(at(dark, { exposure: 0.5 })).toBeGreaterThan(60);
    expect(at(dark, { exposure: -0.5 })).toBeLessThan(60);
    // Contrast spreads the tones away from mid-grey.
    expect(at(dark, { contrast: 1.5 })).toBeLessThan(60);
    expect(at(light, { contrast: 1.5 })).toBeGreaterThan(200);
    expect(at(light, { contrast: 0.5 })).toBeLessThan(200);
    // Highlights lift only the light tones, shadows only the dark ones.
    expect(at(light, { highlights: 1 })).toBeGreaterThan(200);
    expect(at(dark, { highlights: 1 })).toBe(60);
    expect(at(dark, { shadows: 1 })).toBeGreaterThan(60);
    expect(at(light, { shadows: 1 })).toBe(200);
    expect(at(dark, { shadows: -1 })).toBeLessThan(60);
    // Levels: whites below 1 pull the white point down (lighter); blacks below 1 push the black point up (darker).
    expect(at(light, { whites: 0.8 })).toBeGreaterThan(200);
    expect(at(light, { whites: 1.2 })).toBeLessThan(200);
    expect(at(dark, { blacks: 0.8 })).toBeLessThan(60);
    expect(at(dark, { blacks: 1.2 })).toBeGreaterThan(60);

    const orange = solid([220, 120, 40, 255]);
    const grey = adjustImage(orange, params({ saturation: 0 }), whole(orange));
    const [r, g, b] = px(grey, 0, 0);
    expect(r).toBe(g);
    expect(g).toBe(b);
    const vivid = px(adjustImage(orange, params({ saturation: 1.5 }), whole(orange)), 0, 0);
    expect(vivid[0]! - vivid[2]!).toBeGreaterThan(220 - 40);
  });

  it('darkens the corners with the vignette and leaves the centre', () => {
    const r = solid([200, 200, 200, 255], 100, 100);
    const out = adjustImage(r, params({ vignette: 1 }), whole(r));
    expect(px(out, 50, 50)).toEqual([200, 200, 200, 255]);
    expect(px(out, 0, 0)[0]).toBeLessThan(40);
    expect(px(out, 99, 0)[0]).toBe(px(out, 0, 99)[0]);
  });

  it('adds grain that keeps the mean, differs between pixels, and is the same on every run', () => {
    const r = solid([128, 128, 128, 255], 64, 64);
    const a = adjustImage(r, params({ grain: 1 }), whole(r));
    const b = adjustImage(r, params({ grain: 1 }), whole(r));
    expect(a.data).toEqual(b.data);
    const sampled = [
      [0, 0],
      [1, 0],
      [0, 1],
      [5, 9],
    ].map(([x, y]) => px(a, x!, y!)[0]);
    expect(new Set(sampled).size).toBeGreaterThan(1);
    expect(Math.abs(mean(a, 0) - 128)).toBeLessThan(2);
    // Grey noise: the same offset on every channel.
    expect(px(a, 5, 9)[0]).toBe(px(a, 5, 9)[2]);
  });

  it('places vignette and grain by the whole image, so a raster cut at the page edge matches the uncut one', () => {
    const full = noise(40, 30);
    for (let i = 3; i < full.data.length; i += 4) full.data[i] = 255;
    const p = params({ vignette: 0.7, grain: 0.5, exposure: 0.2 });
    const expected = adjustImage(full, p, whole(full));
    // The right half of the image only, as when the image spills over the page's left edge.
    const half = createRaster(20, 30);
    for (let y = 0; y < 30; y++) half.data.set(full.data.subarray((y * 40 + 20) * 4, (y * 40 + 40) * 4), y * 20 * 4);
    const cut = adjustImage(half, p, { x: -20, y: 0, width: 40, height: 30 });
    for (const [x, y] of [
      [0, 0],
      [19, 29],
      [7, 13],
    ] as const) {
      expect(px(cut, x, y), `${x},${y}`).toEqual(px(expected, x + 20, y));
    }
  });
});

/**
 * Pixels worked out by hand from the GLSL in apps/web/src/canvas/filters.ts (c = texel·2^exposure; contrast
 * around 0.5; highlights/shadows from smoothstep of luma; levels; mix with luma; vignette; grain; clamp), then
 * ×255 and rounded as an 8-bit framebuffer stores them.
 */
describe('the CPU port gives the shader’s numbers', () => {
  it('exposure 0.5 and contrast 1.2 on (200, 100, 50)', () => {
    // 2^0.5 = 1.414214: c = (1.109187, 0.554594, 0.277297)
    // contrast: (c - 0.5)·1.2 + 0.5 = (1.231025, 0.565512, 0.232756) → clamp → ×255 = (255, 144.21, 59.35)
    const r = solid([200, 100, 50, 255], 1, 1);
    expect(px(adjustImage(r, params({ exposure: 0.5, contrast: 1.2 }), whole(r)), 0, 0)).toEqual([255, 144, 59, 255]);
  });

  it('shadows, highlights, levels and saturation on (64, 128, 192)', () => {
    // c = (0.250980, 0.501961, 0.752941), luma 0.466723
    // highlights 0.8: smoothstep(0.5, 1, 0.4667) = 0, no change
    // shadows 0.6: 1 - smoothstep(0, 0.5, 0.466723) = 1 - 0.987302 = 0.012698; ·0.6·0.5 = 0.003809
    //   c = (0.254790, 0.505770, 0.756750)
    // whites 0.8 → white 0.9; blacks 1.2 → black -0.1; (c + 0.1) / 1.0 = (0.354790, 0.605770, 0.856750)
    // saturation 0.5: luma 0.570532; mix = (0.462661, 0.588151, 0.713641) → ×255 = (117.98, 149.98, 181.98)
    const r = solid([64, 128, 192, 255], 1, 1);
    const p = params({ highlights: 0.8, shadows: 0.6, whites: 0.8, blacks: 1.2, saturation: 0.5 });
    expect(px(adjustImage(r, p, whole(r)), 0, 0)).toEqual([118, 150, 182, 255]);
  });

  it('vignette 0.5 at the corner of a 100×100 image', () => {
    // uv (0.005, 0.005): distance to the centre 0.700036; smoothstep(0.3, 0.75, d) = 0.965752
    // factor 1 - 0.5·0.965752 = 0.517124; 200/255·0.517124·255 = 103.42
    const r = solid([200, 200, 200, 255], 100, 100);
    expect(px(adjustImage(r, params({ vignette: 0.5 }), whole(r)), 0, 0)).toEqual([103, 103, 103, 255]);
  });

  it('grain 1 at pixel (3, 5) of a 64×32 image', () => {
    // uv·1024 = (56, 176); dot with (12.9898, 78.233) = 14496.4368; sin = 0.903684
    // hash = fract(0.903684·43758.5453) = 0.896925; c = 128/255 + (0.896925 - 0.5)·0.2 = 0.581346 → 148.24
    const r = solid([128, 128, 128, 255], 64, 32);
    expect(px(adjustImage(r, params({ grain: 1 }), whole(r)), 3, 5)).toEqual([148, 148, 148, 255]);
  });
});

describe('adjustments in the exported page', () => {
  it('applies an image layer’s adjustments to its PSD layer and to the composite, not to the caller’s pixels', () => {
    const { doc, rootId } = fixtureDoc();
    const sky = doc.layers.sky!;
    if (sky.type !== 'IMAGE') throw new Error('sky is an image');
    const adjusted = {
      ...doc,
      layers: { ...doc.layers, sky: { ...sky, data: { ...sky.data, filterParams: params({ exposure: 1 }) } } },
    };
    const plan = planPage(adjusted, rootId);
    const node = plan.nodes
      .flatMap((n) => (n.kind === 'group' ? n.children : [n]))
      .find((n): n is PlanRaster => n.kind === 'raster' && n.key === 'sky:image')!;
    // Sky's box is (0, 0, 850, 600) in a page exported at 2×.
    expect(node.adjust).toEqual({ params: params({ exposure: 1 }), box: { x: 0, y: 0, width: 1700, height: 1200 } });
    expect(planPage(doc, rootId).nodes.some((n) => n.kind === 'raster' && n.adjust)).toBe(false);

    const rasters = syntheticRasters(plan);
    const built = buildPsd(plan, rasters, { plan: 'subscriber', thumbnail: false });
    // Sky is (40, 120, 220): doubled by exposure 1, blue clamped.
    const layer = built.psd.children!.flatMap((l) => l.children ?? [l]).find((l) => l.name === 'Sky')!;
    expect(px(layer.imageData as Raster, 10, 10)).toEqual([80, 240, 255, 255]);
    // Inside panel 1 (50..800 × 50..550 at 1×), where the sky shows, away from the bubble.
    expect(px(built.composite, 1000, 800)).toEqual([80, 240, 255, 255]);
    expect(px(rasters.get('sky:image')!, 10, 10)).toEqual([...COLORS.sky!]);
  });
});
