import type { Point } from '../document/geometry.ts';

/** Resamples a closed polygon to `n` points evenly spaced along its perimeter, starting at its first point. */
export function resampleClosed(points: readonly Point[], n: number): Point[] {
  const count = points.length;
  if (count === 0 || n <= 0) return [];
  const lengths: number[] = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % count]!;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    lengths.push(len);
    total += len;
  }
  const out: Point[] = [];
  let edge = 0;
  let walked = 0;
  for (let k = 0; k < n; k++) {
    const target = (k / n) * total;
    while (edge < count - 1 && walked + lengths[edge]! < target) walked += lengths[edge++]!;
    const a = points[edge]!;
    const b = points[(edge + 1) % count]!;
    const len = lengths[edge]!;
    const t = len === 0 ? 0 : (target - walked) / len;
    out.push({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
  }
  return out;
}

/**
 * Displaces a clockwise (on screen) closed polygon along its outward normals by `amp × wave(i)`:
 * how a rectangle becomes a wavy (fear) or zig-zag (electronic, shouting) edge.
 */
export function displaceAlongNormals(points: readonly Point[], amp: number, wave: (i: number) => number): Point[] {
  const n = points.length;
  return points.map((p, i) => {
    const prev = points[(i - 1 + n) % n]!;
    const next = points[(i + 1) % n]!;
    const tx = next.x - prev.x;
    const ty = next.y - prev.y;
    const len = Math.hypot(tx, ty) || 1;
    // For clockwise order in y-down coordinates the outward normal of tangent (tx, ty) is (ty, -tx).
    const d = amp * wave(i);
    return { x: p.x + (ty / len) * d, y: p.y + (-tx / len) * d };
  });
}

/** Triangle wave in [-1, 1] with period 2 samples: alternates out, in, out… */
export const zigzag = (i: number): number => (i % 2 === 0 ? 1 : -1);

/** Scales points about a centre, per axis (insets a convex polygon by roughly `bx`, `by`). */
export function scaleAbout(points: readonly Point[], cx: number, cy: number, sx: number, sy: number): Point[] {
  return points.map((p) => ({ x: cx + (p.x - cx) * sx, y: cy + (p.y - cy) * sy }));
}

/** A rectangle whose four corners are bitten out by quarter circles of radius r (a narration box). */
export function concaveCornerRectPoints(x: number, y: number, w: number, h: number, r: number, samples = 10): Point[] {
  const corners: [number, number, number][] = [
    [x + w, y, Math.PI],
    [x + w, y + h, -Math.PI / 2],
    [x, y + h, 0],
    [x, y, Math.PI / 2],
  ];
  const points: Point[] = [];
  for (const [cx, cy, start] of corners) {
    // The arc turns against the outline's direction, so the corner is concave.
    for (let i = 0; i <= samples; i++) {
      const t = start - (i / samples) * (Math.PI / 2);
      points.push({ x: cx + r * Math.cos(t), y: cy + r * Math.sin(t) });
    }
  }
  return points;
}
