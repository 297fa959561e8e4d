// Region rectangles: drawn and moved in canvas units, kept as fractions of the generation frame, and sent as the
// regional request's corners (fractions on the frame's pixel grid).
import type { Point } from '../../document/geometry.ts';
import type { RegionRect } from '../../document/settings.ts';
import { toFrame, type Box, type PixelSize } from './frame.ts';

export type RectCorner = 'nw' | 'ne' | 'se' | 'sw';

const unit = (v: number) => Math.min(1, Math.max(0, v));

/** The rectangle two canvas points span, as fractions of the frame, clamped to it. */
export function rectFromPoints(a: Point, b: Point, box: Box): RegionRect {
  const p = toFrame(a, box);
  const q = toFrame(b, box);
  return {
    x0: unit(Math.min(p.x, q.x)),
    y0: unit(Math.min(p.y, q.y)),
    x1: unit(Math.max(p.x, q.x)),
    y1: unit(Math.max(p.y, q.y)),
  };
}

/** The rectangle moved by a canvas distance, its size kept and the whole of it kept inside the frame. */
export function movedRect(rect: RegionRect, dx: number, dy: number, box: Box): RegionRect {
  const w = rect.x1 - rect.x0;
  const h = rect.y1 - rect.y0;
  const x0 = Math.min(1 - w, Math.max(0, rect.x0 + dx / box.width));
  const y0 = Math.min(1 - h, Math.max(0, rect.y0 + dy / box.height));
  return { x0, y0, x1: x0 + w, y1: y0 + h };
}

/** The rectangle with one corner dragged to a canvas point; the opposite corner stays. */
export function resizedRect(rect: RegionRect, corner: RectCorner, p: Point, box: Box): RegionRect {
  const opposite = {
    x: corner === 'nw' || corner === 'sw' ? rect.x1 : rect.x0,
    y: corner === 'nw' || corner === 'ne' ? rect.y1 : rect.y0,
  };
  return rectFromPoints({ x: box.x + opposite.x * box.width, y: box.y + opposite.y * box.height }, p, box);
}

/** The rectangle in canvas units. */
export function rectOnCanvas(rect: RegionRect, box: Box): Box {
  return {
    x: box.x + rect.x0 * box.width,
    y: box.y + rect.y0 * box.height,
    width: (rect.x1 - rect.x0) * box.width,
    height: (rect.y1 - rect.y0) * box.height,
  };
}

/** The corner of a canvas rectangle within `margin` of a point, if any. */
export function cornerNear(r: Box, p: Point, margin: number): RectCorner | null {
  const corners: [RectCorner, number, number][] = [
    ['nw', r.x, r.y],
    ['ne', r.x + r.width, r.y],
    ['se', r.x + r.width, r.y + r.height],
    ['sw', r.x, r.y + r.height],
  ];
  for (const [name, x, y] of corners) if (Math.abs(p.x - x) <= margin && Math.abs(p.y - y) <= margin) return name;
  return null;
}

export function rectContains(r: Box, p: Point): boolean {
  return p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;
}

/**
 * The regional request's corners: clamped to the frame and snapped to its pixel grid, so the engine's whole-pixel
 * boxes are exactly what was drawn; null when less than one pixel is left either way.
 */
export function regionCorners(
  rect: RegionRect,
  pixels: PixelSize,
): { x0: number; x1: number; y0: number; y1: number } | null {
  const snap = (v: number, n: number) => Math.round(unit(v) * n);
  const x0 = snap(Math.min(rect.x0, rect.x1), pixels.width);
  const x1 = snap(Math.max(rect.x0, rect.x1), pixels.width);
  const y0 = snap(Math.min(rect.y0, rect.y1), pixels.height);
  const y1 = snap(Math.max(rect.y0, rect.y1), pixels.height);
  if (x1 <= x0 || y1 <= y0) return null;
  return { x0: x0 / pixels.width, x1: x1 / pixels.width, y0: y0 / pixels.height, y1: y1 / pixels.height };
}
