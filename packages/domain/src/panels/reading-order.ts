import type { ReadingOrder } from '../document/workspace.ts';
import type { Point } from '../document/geometry.ts';
import type { PanelShape } from './shape.ts';
import { boundsOf } from './shape.ts';

const ROW_TOLERANCE = 1;

/**
 * Orders panels for reading. A panel is read after the panels above it and after the panels before it in the
 * reading direction (left neighbours, or right neighbours when right-to-left); among the panels ready to read, the
 * highest comes first, then the one nearest the starting side. Returns ids, first to last.
 */
export function readingOrder(panels: readonly PanelShape[], order: ReadingOrder): string[] {
  const rtl = order === 'RIGHT_TO_LEFT';
  const byId = new Map(panels.map((p) => [p.id, p]));
  const box = new Map(panels.map((p) => [p.id, boundsOf(p.vertices)]));
  const before = new Map<string, Set<string>>();
  for (const p of panels) {
    const reqs = [...p.neighborPanels.top, ...(rtl ? p.neighborPanels.right : p.neighborPanels.left)];
    before.set(p.id, new Set(reqs.filter((id) => byId.has(id))));
  }
  const rank = (id: string): [number, number] => {
    const r = box.get(id)!;
    return [r.y, rtl ? -(r.x + r.width) : r.x];
  };
  const compare = (a: string, b: string): number => {
    const [ay, ax] = rank(a);
    const [by, bx] = rank(b);
    if (Math.abs(ay - by) > ROW_TOLERANCE) return ay - by;
    return ax - bx || (a < b ? -1 : a > b ? 1 : 0);
  };

  const done = new Set<string>();
  const result: string[] = [];
  while (result.length < panels.length) {
    const ready = panels.filter((p) => !done.has(p.id) && [...before.get(p.id)!].every((id) => done.has(id)));
    // A cycle cannot come from geometry, but a hand-edited document could hold one: fall back to position.
    const pool = ready.length > 0 ? ready : panels.filter((p) => !done.has(p.id));
    const next = pool.map((p) => p.id).sort(compare)[0]!;
    done.add(next);
    result.push(next);
  }
  return result;
}

/** Reading-order numbers, starting at 1, keyed by panel id. */
export function readingPositions(panels: readonly PanelShape[], order: ReadingOrder): Map<string, number> {
  return new Map(readingOrder(panels, order).map((id, i) => [id, i + 1]));
}

function insidePolygon(p: Point, polygon: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/**
 * Where a panel's reading-order badge goes (issue 17): inside the polygon, at the corner where reading starts —
 * top-left for left-to-right, top-right for right-to-left — `inset` along both edges that meet there, so a slanted
 * panel's badge never sits in its neighbour. Falls back to the vertices' centre for a panel too small for the inset.
 */
export function readingBadgeAt(vertices: readonly Point[], order: ReadingOrder, inset: number): Point {
  if (vertices.length < 3) return vertices[0] ?? { x: 0, y: 0 };
  const score = (v: Point) => (order === 'RIGHT_TO_LEFT' ? v.y - v.x : v.y + v.x);
  let at = 0;
  vertices.forEach((v, i) => {
    if (score(v) < score(vertices[at]!)) at = i;
  });
  const corner = vertices[at]!;
  const unit = (to: Point) => {
    const dx = to.x - corner.x;
    const dy = to.y - corner.y;
    const length = Math.hypot(dx, dy) || 1;
    return { x: dx / length, y: dy / length };
  };
  const a = unit(vertices[(at + 1) % vertices.length]!);
  const b = unit(vertices[(at + vertices.length - 1) % vertices.length]!);
  const p = { x: corner.x + (a.x + b.x) * inset, y: corner.y + (a.y + b.y) * inset };
  if (insidePolygon(p, vertices)) return p;
  const n = vertices.length;
  return { x: vertices.reduce((s, v) => s + v.x, 0) / n, y: vertices.reduce((s, v) => s + v.y, 0) / n };
}
