import { turnedMatrix, type Turn } from '../kinds/placement.ts';
import { boxOfPoints } from '../kinds/geometry.ts';
import { createRaster, type Raster, type Rect } from './raster.ts';
import { intersect, pixelRect } from './rects.ts';

/** How document units map onto the exported page: (p − area) · scale. */
export interface PageMapping {
  area: { x: number; y: number };
  scaleX: number;
  scaleY: number;
}

/**
 * A turned picture's pixels taken back upright: `turned` is the PSD layer (its top-left at `left`, `top` on the
 * page) showing a box of `box` (document units, before the turn) turned and mirrored by `turn`. The result is the
 * box at the page's scale, each pixel's centre carried through the same matrix the canvas drew with and read from
 * the layer bilinearly (colour weighted by alpha, so that the clear page around the picture does not darken its
 * edges). What the export cut off at the page edge comes back clear. A quarter turn of a box that sits on whole
 * pixels lands every sample on a pixel centre, so it is an exact copy.
 */
export function unturnPixels(
  turned: Raster,
  left: number,
  top: number,
  box: Rect,
  turn: Turn,
  page: PageMapping,
): Raster {
  const width = Math.max(1, Math.round(box.width * page.scaleX));
  const height = Math.max(1, Math.round(box.height * page.scaleY));
  const out = createRaster(width, height);
  const [a, b, c, d, e, f] = turnedMatrix(box, turn);
  // Output pixel (i, j) → local (u, v) = ((i + ½)·w/W, (j + ½)·h/H) → document M·(u, v) → page (· − area)·scale
  // → layer pixel space, minus ½ so that integer coordinates are pixel centres: one affine map, stepped per pixel.
  const su = box.width / width;
  const sv = box.height / height;
  const xi = a * su * page.scaleX;
  const xj = c * sv * page.scaleX;
  const yi = b * su * page.scaleY;
  const yj = d * sv * page.scaleY;
  const x0 = (e - page.area.x) * page.scaleX - left - 0.5 + (xi + xj) / 2;
  const y0 = (f - page.area.y) * page.scaleY - top - 0.5 + (yi + yj) / 2;
  const src = turned.data;
  const tw = turned.width;
  const th = turned.height;
  const o = out.data;
  // A sample this close to a pixel centre is that pixel (float noise of an exact quarter turn).
  const snap = (v: number) => {
    const r = Math.round(v);
    return Math.abs(v - r) < 1e-6 ? r : v;
  };
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const sx = snap(x0 + xi * i + xj * j);
      const sy = snap(y0 + yi * i + yj * j);
      const fx0 = Math.floor(sx);
      const fy0 = Math.floor(sy);
      const tx = sx - fx0;
      const ty = sy - fy0;
      let r = 0;
      let g = 0;
      let bl = 0;
      let al = 0;
      for (let k = 0; k < 4; k++) {
        const px = fx0 + (k & 1);
        const py = fy0 + (k >> 1);
        const w = (k & 1 ? tx : 1 - tx) * (k >> 1 ? ty : 1 - ty);
        if (w === 0 || px < 0 || py < 0 || px >= tw || py >= th) continue;
        const si = (py * tw + px) * 4;
        const wa = w * src[si + 3]!;
        r += wa * src[si]!;
        g += wa * src[si + 1]!;
        bl += wa * src[si + 2]!;
        al += wa;
      }
      if (al <= 0) continue;
      const oi = (j * width + i) * 4;
      o[oi] = r / al;
      o[oi + 1] = g / al;
      o[oi + 2] = bl / al;
      o[oi + 3] = al;
    }
  }
  return out;
}

/**
 * Where the export put a turned box's layer: the whole pixels of its turned bounds on the page, cut to the page (as
 * the image kind's plan does). An import compares it with the layer it reads: a layer moved, cropped or repainted
 * larger in another tool no longer sits there, and its pixels are then kept as they are rather than taken back by
 * a turn that no longer fits them.
 */
export function turnedLayerRect(box: Rect, turn: Turn, page: PageMapping & { width: number; height: number }): Rect {
  const [a, b, c, d, e, f] = turnedMatrix(box, turn);
  const corners = [
    [0, 0],
    [box.width, 0],
    [box.width, box.height],
    [0, box.height],
  ].map(([u, v]) => ({
    x: (a * u! + c * v! + e - page.area.x) * page.scaleX,
    y: (b * u! + d * v! + f - page.area.y) * page.scaleY,
  }));
  return intersect(pixelRect(boxOfPoints(corners)), { x: 0, y: 0, width: page.width, height: page.height });
}
