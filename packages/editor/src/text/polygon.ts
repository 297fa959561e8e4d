import { signedArea, type Point } from '@koma/domain';
import { distanceToSegment, pointInPolygon } from '../kinds/geometry.ts';

// The outline helpers below and the text modules share the kinds' point tests rather than a copy of them.
export { distanceToSegment, pointInPolygon };

/** The polygon in clockwise order on screen (the order every outline of this module uses). */
export function clockwise(points: readonly Point[]): Point[] {
  return signedArea(points) >= 0 ? [...points] : [...points].reverse();
}

/** Area centroid of a simple polygon (falls back to the vertex mean for a degenerate one). */
export function centroid(points: readonly Point[]): Point {
  const area = signedArea(points);
  if (Math.abs(area) < 1e-9) {
    const n = points.length || 1;
    return {
      x: points.reduce((s, p) => s + p.x, 0) / n,
      y: points.reduce((s, p) => s + p.y, 0) / n,
    };
  }
  let cx = 0;
  let cy = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const a = points[j]!;
    const b = points[i]!;
    const cross = a.x * b.y - b.x * a.y;
    cx += (a.x + b.x) * cross;
    cy += (a.y + b.y) * cross;
  }
  return { x: cx / (6 * area), y: cy / (6 * area) };
}

/** Distance from p to the closed polygon's boundary. */
export function distanceToOutline(p: Point, polygon: readonly Point[]): number {
  let best = Infinity;
  for (let i = 0; i < polygon.length; i++) {
    best = Math.min(best, distanceToSegment(p, polygon[i]!, polygon[(i + 1) % polygon.length]!));
  }
  return best;
}

/** A place on a closed polygon: edge i (from point i to point i+1) at parameter t in [0, 1]. */
export interface OutlinePosition {
  edge: number;
  t: number;
}

/** The point of an outline position. */
export function pointAt(polygon: readonly Point[], pos: OutlinePosition): Point {
  const a = polygon[pos.edge]!;
  const b = polygon[(pos.edge + 1) % polygon.length]!;
  return { x: a.x + (b.x - a.x) * pos.t, y: a.y + (b.y - a.y) * pos.t };
}

/** Where a ray from `origin` along `dir` last leaves the polygon (the farthest crossing), or null. */
export function rayExit(polygon: readonly Point[], origin: Point, dir: Point): OutlinePosition | null {
  let best: OutlinePosition | null = null;
  let bestDistance = -Infinity;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % polygon.length]!;
    const ex = b.x - a.x;
    const ey = b.y - a.y;
    const denom = dir.x * ey - dir.y * ex;
    if (Math.abs(denom) < 1e-12) continue;
    const ax = a.x - origin.x;
    const ay = a.y - origin.y;
    const s = (ax * ey - ay * ex) / denom;
    const t = (ax * dir.y - ay * dir.x) / denom;
    if (s >= 0 && t >= 0 && t <= 1 && s > bestDistance) {
      bestDistance = s;
      best = { edge: i, t };
    }
  }
  return best;
}

/** Moves along the outline by `distance` (negative goes against the point order), wrapping around. */
export function walkOutline(polygon: readonly Point[], from: OutlinePosition, distance: number): OutlinePosition {
  const n = polygon.length;
  const edgeLength = (i: number) => {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % n]!;
    return Math.hypot(b.x - a.x, b.y - a.y);
  };
  let edge = from.edge;
  let t = from.t;
  let left = Math.abs(distance);
  // Bounded by two turns so a degenerate (zero-length) outline cannot loop forever.
  for (let guard = 0; guard < n * 2 + 2; guard++) {
    const len = edgeLength(edge);
    const room = distance >= 0 ? (1 - t) * len : t * len;
    if (left <= room && len > 0) {
      return { edge, t: distance >= 0 ? t + left / len : t - left / len };
    }
    left -= room;
    if (distance >= 0) {
      edge = (edge + 1) % n;
      t = 0;
    } else {
      edge = (edge - 1 + n) % n;
      t = 1;
    }
  }
  return { edge, t };
}

/**
 * Moves along the outline (forward when `direction` is +1, back when −1) to the first place that lies `radius` away
 * from the starting point as the crow flies, giving up after `maxArc` of outline (then the place reached there).
 * A jagged outline is far longer than the straight line across it, so walking a fixed arc would leave a sliver.
 */
export function walkToChord(
  polygon: readonly Point[],
  from: OutlinePosition,
  radius: number,
  direction: 1 | -1,
  maxArc: number,
): OutlinePosition {
  const n = polygon.length;
  const origin = pointAt(polygon, from);
  let edge = from.edge;
  let t = from.t;
  let walked = 0;
  for (let guard = 0; guard < n * 2 + 2; guard++) {
    const a = polygon[edge]!;
    const b = polygon[(edge + 1) % n]!;
    const p = { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
    const q = direction > 0 ? b : a;
    const seg = Math.hypot(q.x - p.x, q.y - p.y);
    if (walked + seg >= maxArc) return walkOutline(polygon, from, direction * maxArc);
    if (Math.hypot(q.x - origin.x, q.y - origin.y) >= radius && seg > 0) {
      // Solve |p + s(q − p) − origin| = radius for the first s in [0, 1].
      const dx = q.x - p.x;
      const dy = q.y - p.y;
      const fx = p.x - origin.x;
      const fy = p.y - origin.y;
      const A = dx * dx + dy * dy;
      const B = 2 * (fx * dx + fy * dy);
      const C = fx * fx + fy * fy - radius * radius;
      const root = Math.sqrt(Math.max(0, B * B - 4 * A * C));
      const s1 = (-B - root) / (2 * A);
      const s = Math.min(1, Math.max(0, s1 >= 0 ? s1 : (-B + root) / (2 * A)));
      const at = { x: p.x + dx * s, y: p.y + dy * s };
      const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      const along = Math.hypot(at.x - a.x, at.y - a.y) / len;
      return { edge, t: Math.min(1, Math.max(0, along)) };
    }
    walked += seg;
    if (direction > 0) {
      edge = (edge + 1) % n;
      t = 0;
    } else {
      edge = (edge - 1 + n) % n;
      t = 1;
    }
  }
  return { edge, t };
}

/** Perimeter of a closed polygon. */
export function perimeter(polygon: readonly Point[]): number {
  let sum = 0;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % polygon.length]!;
    sum += Math.hypot(b.x - a.x, b.y - a.y);
  }
  return sum;
}

/** Flat [x0, y0, x1, y1, …] numbers, the form Konva's Line takes. */
export const flatPoints = (points: readonly Point[]): number[] => points.flatMap((p) => [p.x, p.y]);
