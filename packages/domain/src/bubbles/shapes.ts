import type { Point } from '../document/geometry.ts';

/** A radius profile: the factor (around 1) applied to the base ellipse's radius at angle t (radians). */
export type RadiusProfile = (t: number) => number;

export interface Ellipse {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
}

export const round: RadiusProfile = () => 1;

/** Points on an ellipse whose radius is modulated by `profile`, starting at angle 0 and going clockwise on screen. */
export function radialPoints(e: Ellipse, samples: number, profile: RadiusProfile = round): Point[] {
  const points: Point[] = [];
  for (let i = 0; i < samples; i++) {
    const t = (i / samples) * Math.PI * 2;
    const r = profile(t);
    points.push({ x: e.cx + e.rx * r * Math.cos(t), y: e.cy + e.ry * r * Math.sin(t) });
  }
  return points;
}

/** The same ellipse shrunk by `by` units on both radii (how a shape's inner, background edge is made). */
export const inset = (e: Ellipse, by: number): Ellipse => ({ ...e, rx: e.rx - by, ry: e.ry - by });

/** Scalloped cloud edge: `bumps` round lobes meeting in pointed valleys `depth` deep. */
export const cloudProfile =
  (bumps: number, depth: number): RadiusProfile =>
  (t) =>
    1 - depth + depth * Math.abs(Math.sin((bumps * t) / 2));

/** A smooth wave around the outline, for nervous or frightened speech. */
export const waveProfile =
  (waves: number, depth: number, phase = 0): RadiusProfile =>
  (t) =>
    1 - depth / 2 + (depth / 2) * Math.sin(waves * t + phase);

/** A deterministic pseudo-random number in [0, 1) for an integer, so generated shapes look hand-drawn yet never change. */
export function hash01(n: number): number {
  const s = Math.sin(n * 12.9898 + 78.233) * 43758.5453;
  return s - Math.floor(s);
}

/** Star points alternating between the outer ellipse and `innerRatio` of it; `jitter` varies spike lengths. */
export function burstPoints(e: Ellipse, spikes: number, innerRatio: number, jitter = 0, seed = 1): Point[] {
  const points: Point[] = [];
  for (let i = 0; i < spikes * 2; i++) {
    const t = (i / (spikes * 2)) * Math.PI * 2;
    const outer = i % 2 === 0;
    const r = outer ? 1 - jitter * hash01(seed * 97 + i) : innerRatio;
    points.push({ x: e.cx + e.rx * r * Math.cos(t), y: e.cy + e.ry * r * Math.sin(t) });
  }
  return points;
}

/** A rectangle with circular corners of radius `r`, clockwise from the top edge. */
export function roundedRectPoints(x: number, y: number, w: number, h: number, r: number, cornerSamples = 10): Point[] {
  const radius = Math.max(0, Math.min(r, w / 2, h / 2));
  const corners: [number, number, number][] = [
    [x + w - radius, y + radius, -Math.PI / 2],
    [x + w - radius, y + h - radius, 0],
    [x + radius, y + h - radius, Math.PI / 2],
    [x + radius, y + radius, Math.PI],
  ];
  const points: Point[] = [];
  for (const [cx, cy, start] of corners) {
    if (radius === 0) {
      // A sharp corner is the arc's single point.
      points.push({ x: cx, y: cy });
      continue;
    }
    for (let i = 0; i <= cornerSamples; i++) {
      const t = start + (i / cornerSamples) * (Math.PI / 2);
      points.push({ x: cx + radius * Math.cos(t), y: cy + radius * Math.sin(t) });
    }
  }
  return points;
}

/** A regular polygon with `sides` corners inscribed in the ellipse, first corner at `rotation` radians. */
export function regularPolygonPoints(e: Ellipse, sides: number, rotation = 0): Point[] {
  const points: Point[] = [];
  for (let i = 0; i < sides; i++) {
    const t = rotation + (i / sides) * Math.PI * 2;
    points.push({ x: e.cx + e.rx * Math.cos(t), y: e.cy + e.ry * Math.sin(t) });
  }
  return points;
}

/** A circle as a polygon. */
export const circlePoints = (cx: number, cy: number, r: number, samples = 32): Point[] =>
  radialPoints({ cx, cy, rx: r, ry: r }, samples);

/**
 * Dash segments between two outlines sampled at the same parameters (outer[i] faces inner[i]):
 * `on` samples drawn, `off` skipped, each dash a closed quad strip — how a whisper's dashed border is drawn with fills only.
 */
export function dashedRing(outer: readonly Point[], inner: readonly Point[], on: number, off: number): Point[][] {
  const n = Math.min(outer.length, inner.length);
  const dashes: Point[][] = [];
  for (let start = 0; start + on <= n; start += on + off) {
    const strip: Point[] = [];
    for (let i = start; i <= start + on; i++) strip.push(outer[i % n]!);
    for (let i = start + on; i >= start; i--) strip.push(inner[i % n]!);
    dashes.push(strip);
  }
  return dashes;
}

/** Thin wedges radiating outwards from an ellipse: the "flash" lines drawn around an exclaiming bubble. */
export function flashLines(e: Ellipse, count: number, reach: number, halfWidth: number, seed = 3): Point[][] {
  const wedges: Point[][] = [];
  for (let i = 0; i < count; i++) {
    const t = (i / count) * Math.PI * 2;
    const len = reach * (0.55 + 0.45 * hash01(seed * 31 + i));
    const at = (angle: number, grow: number): Point => ({
      x: e.cx + (e.rx + grow) * Math.cos(angle),
      y: e.cy + (e.ry + grow) * Math.sin(angle),
    });
    const dt = halfWidth / Math.max(e.rx, e.ry);
    wedges.push([at(t - dt, -halfWidth), at(t, len), at(t + dt, -halfWidth)]);
  }
  return wedges;
}

/** Translates points (used to offset a drop shadow). */
export const offsetPoints = (points: readonly Point[], dx: number, dy: number): Point[] =>
  points.map((p) => ({ x: p.x + dx, y: p.y + dy }));
