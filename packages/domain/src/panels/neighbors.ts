import type { NeighborPanels } from '../document/layers/panel.ts';
import { boundsOf, emptyNeighbors, overlap, type Rect } from './shape.ts';
import type { Point } from '../document/geometry.ts';

/** Spans shorter than this do not make two panels neighbours (a shared corner is not a shared edge). */
const MIN_SHARED_SPAN = 1;

/**
 * Finds each panel's neighbours from geometry: B is A's right neighbour when B's left side lies within `maxGap`
 * to the right of A's right side and the two overlap vertically; likewise for the other sides. Symmetric by
 * construction.
 */
export function computeNeighbors(
  panels: readonly { id: string; vertices: Point[] }[],
  maxGap: number,
): Map<string, NeighborPanels> {
  const boxes = panels.map((p) => ({ id: p.id, r: boundsOf(p.vertices) }));
  const out = new Map<string, NeighborPanels>(panels.map((p) => [p.id, emptyNeighbors()]));
  for (const a of boxes) {
    for (const b of boxes) {
      if (a.id === b.id) continue;
      if (isRightOf(a.r, b.r, maxGap)) {
        out.get(a.id)!.right.push(b.id);
        out.get(b.id)!.left.push(a.id);
      }
      if (isBelow(a.r, b.r, maxGap)) {
        out.get(a.id)!.bottom.push(b.id);
        out.get(b.id)!.top.push(a.id);
      }
    }
  }
  return out;
}

function isRightOf(a: Rect, b: Rect, maxGap: number): boolean {
  const gap = b.x - (a.x + a.width);
  return gap >= -0.5 && gap <= maxGap && overlap(a.y, a.y + a.height, b.y, b.y + b.height) >= MIN_SHARED_SPAN;
}

function isBelow(a: Rect, b: Rect, maxGap: number): boolean {
  const gap = b.y - (a.y + a.height);
  return gap >= -0.5 && gap <= maxGap && overlap(a.x, a.x + a.width, b.x, b.x + b.width) >= MIN_SHARED_SPAN;
}
