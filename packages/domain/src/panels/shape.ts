import type { Point, Size } from '../document/geometry.ts';
import type { NeighborPanels, NeighborSide } from '../document/layers/panel.ts';

/** What panel geometry needs to know of a PANEL layer. */
export interface PanelShape {
  id: string;
  vertices: Point[];
  neighborPanels: NeighborPanels;
  locked: boolean;
  ignoreNeighbors: boolean;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const SIDES: readonly NeighborSide[] = ['left', 'right', 'top', 'bottom'];
export const OPPOSITE: Record<NeighborSide, NeighborSide> = {
  left: 'right',
  right: 'left',
  top: 'bottom',
  bottom: 'top',
};

/** Vertex order of a four-sided panel. */
export const TL = 0;
export const TR = 1;
export const BR = 2;
export const BL = 3;

export function boundsOf(points: readonly Point[]): Rect {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of points) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

export function rectVertices(r: Rect): Point[] {
  return [
    { x: r.x, y: r.y },
    { x: r.x + r.width, y: r.y },
    { x: r.x + r.width, y: r.y + r.height },
    { x: r.x, y: r.y + r.height },
  ];
}

/** Signed area (shoelace); positive for clockwise order in screen coordinates (y down). */
export function signedArea(points: readonly Point[]): number {
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    sum += a.x * b.y - b.x * a.y;
  }
  return sum / 2;
}

/** True when the polygon is convex, keeps its clockwise winding and encloses some area. */
export function isConvexClockwise(points: readonly Point[]): boolean {
  if (signedArea(points) <= 0) return false;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    const c = points[(i + 2) % points.length]!;
    const cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (cross < 0) return false;
  }
  return true;
}

export function insideRect(points: readonly Point[], page: Size, epsilon = 1e-6): boolean {
  return points.every(
    (p) => p.x >= -epsilon && p.y >= -epsilon && p.x <= page.width + epsilon && p.y <= page.height + epsilon,
  );
}

/** Length of the overlap of two intervals; zero or negative when they do not overlap. */
export function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.min(a1, b1) - Math.max(a0, b0);
}

export function emptyNeighbors(): NeighborPanels {
  return { left: [], right: [], top: [], bottom: [] };
}
