// A sketch-map brush's strokes as the black-and-white mask of brush-based generation: one byte per pixel of the
// frame, 255 where the brush painted and 0 elsewhere. Pure, so the mask sent is the mask tested.
import type { Stroke } from '../../document/geometry.ts';
import type { PixelSize } from './frame.ts';

export const MASK_ON = 255;

/**
 * Paints the strokes in order at the frame's pixel size: a pixel is covered when its centre lies within the
 * stroke's radius (pixels) of the stroke's path, whose points are fractions of the frame. An erasing stroke clears
 * what it covers, so it removes only what was painted before it.
 */
export function rasteriseStrokes(strokes: readonly Stroke[], size: PixelSize): Uint8Array {
  const { width, height } = size;
  const mask = new Uint8Array(width * height);
  for (const stroke of strokes) {
    const value = stroke.erase ? 0 : MASK_ON;
    const pts = stroke.points;
    if (pts.length < 2) continue;
    const xy = (i: number): [number, number] => [pts[i]! * width, pts[i + 1]! * height];
    if (pts.length === 2) {
      const [x, y] = xy(0);
      paintSegment(mask, size, x, y, x, y, stroke.radius, value);
      continue;
    }
    for (let i = 0; i + 3 < pts.length; i += 2) {
      const [ax, ay] = xy(i);
      const [bx, by] = xy(i + 2);
      paintSegment(mask, size, ax, ay, bx, by, stroke.radius, value);
    }
  }
  return mask;
}

/** Sets every pixel whose centre is within r of the segment AB (a disc when A = B). */
function paintSegment(
  mask: Uint8Array,
  { width, height }: PixelSize,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  r: number,
  value: number,
): void {
  const left = Math.max(0, Math.floor(Math.min(ax, bx) - r));
  const right = Math.min(width - 1, Math.ceil(Math.max(ax, bx) + r));
  const top = Math.max(0, Math.floor(Math.min(ay, by) - r));
  const bottom = Math.min(height - 1, Math.ceil(Math.max(ay, by) + r));
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const r2 = r * r;
  for (let y = top; y <= bottom; y++) {
    const py = y + 0.5 - ay;
    const row = y * width;
    for (let x = left; x <= right; x++) {
      const px = x + 0.5 - ax;
      const t = length2 === 0 ? 0 : Math.min(1, Math.max(0, (px * dx + py * dy) / length2));
      const ex = px - t * dx;
      const ey = py - t * dy;
      if (ex * ex + ey * ey <= r2) mask[row + x] = value;
    }
  }
}

/** How many pixels a mask paints. */
export function paintedCount(mask: Uint8Array): number {
  let n = 0;
  for (const v of mask) if (v !== 0) n++;
  return n;
}
