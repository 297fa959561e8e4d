import { HANDLE_HIT_MARGIN, type Point } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import type { Corner } from '../commands/transform.ts';
import { isContainer, kindOf } from '../kinds/lookup.ts';
import { pointInBox, pointInPolygon, type Box } from '../kinds/geometry.ts';
import { placedBounds, placedCorners, placementOf } from '../kinds/placement.ts';

/** The canvas box that holds a layer as placed. */
export function boxOf(node: LayerNode): Box {
  return placedBounds(placementOf(node));
}

/** True when a point is inside the drawn area of a layer: its kind's outline, else its placed box. */
export function containsPoint(node: LayerNode, p: Point): boolean {
  const outline = kindOf(node).outline?.(node);
  if (outline) return pointInPolygon(p, outline);
  const placement = placementOf(node);
  const [a, b, c, d] = placement.matrix;
  return a === 1 && b === 0 && c === 0 && d === 1
    ? pointInBox(p, placedBounds(placement))
    : pointInPolygon(p, placedCorners(placement));
}

/**
 * The topmost visible layer under a point, searching groups; a clipped layer only counts inside its clip target.
 * Returns null over empty canvas.
 */
export function hitLayer(doc: DocState, rootId: string, p: Point, accept?: (n: LayerNode) => boolean): string | null {
  const root = doc.layers[rootId];
  if (!root) return null;
  for (let i = root.children.length - 1; i >= 0; i--) {
    const node = doc.layers[root.children[i]!];
    if (!node?.visible) continue;
    if (isContainer(node)) {
      const inner = hitLayer(doc, node.id, p, accept);
      if (inner) return inner;
      continue;
    }
    if (accept && !accept(node)) continue;
    if (!containsPoint(node, p)) continue;
    const target = node.clipTarget ? doc.layers[node.clipTarget] : null;
    if (target && !containsPoint(target, p)) continue;
    return node.id;
  }
  return null;
}

/** The resize corner of a layer within the handle margin (in screen pixels) of a point, if any. */
export function cornerAt(node: LayerNode, p: Point, zoom: number): Corner | null {
  const m = HANDLE_HIT_MARGIN / zoom;
  const names: Corner[] = ['top-left', 'top-right', 'bottom-right', 'bottom-left'];
  const corners = placedCorners(placementOf(node));
  for (const [i, c] of corners.entries()) if (Math.abs(p.x - c.x) <= m && Math.abs(p.y - c.y) <= m) return names[i]!;
  return null;
}

/** Visible layers directly under a root (groups searched) whose box meets a rectangle. */
export function layersInRect(doc: DocState, rootId: string, r: Box): string[] {
  const out: string[] = [];
  const visit = (id: string) => {
    const node = doc.layers[id];
    if (!node?.visible) return;
    if (isContainer(node)) {
      node.children.forEach(visit);
      return;
    }
    const b = boxOf(node);
    if (b.x <= r.x + r.width && b.x + b.width >= r.x && b.y <= r.y + r.height && b.y + b.height >= r.y) out.push(id);
  };
  doc.layers[rootId]?.children.forEach(visit);
  return out;
}
