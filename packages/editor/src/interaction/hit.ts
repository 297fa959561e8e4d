import { HANDLE_HIT_MARGIN, JOINT_HIT_RADIUS, VERTEX_HIT_RADIUS, type Point } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import type { Corner } from '../commands/transform.ts';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function boxOf(node: LayerNode): Box {
  const t = node.transform;
  return { x: t.x, y: t.y, width: t.size.width, height: t.size.height };
}

export function pointInBox(p: Point, b: Box, margin = 0): boolean {
  return p.x >= b.x - margin && p.x <= b.x + b.width + margin && p.y >= b.y - margin && p.y <= b.y + b.height + margin;
}

export function pointInPolygon(p: Point, polygon: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** True when a point is inside the drawn area of a layer (a panel's polygon, any other layer's box). */
export function containsPoint(node: LayerNode, p: Point): boolean {
  return node.type === 'PANEL' ? pointInPolygon(p, node.data.vertices) : pointInBox(p, boxOf(node));
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
    if (node.type === 'GROUP') {
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
  const b = boxOf(node);
  const m = HANDLE_HIT_MARGIN / zoom;
  const corners: [Corner, number, number][] = [
    ['top-left', b.x, b.y],
    ['top-right', b.x + b.width, b.y],
    ['bottom-right', b.x + b.width, b.y + b.height],
    ['bottom-left', b.x, b.y + b.height],
  ];
  for (const [corner, x, y] of corners) if (Math.abs(p.x - x) <= m && Math.abs(p.y - y) <= m) return corner;
  return null;
}

/** The pose joint (candidate index) within the joint hit radius, measured in fractions of the layer size. */
export function jointAt(node: LayerNode<'POSE'>, p: Point): number | null {
  const b = boxOf(node);
  if (b.width <= 0 || b.height <= 0) return null;
  const u = (p.x - b.x) / b.width;
  const v = (p.y - b.y) / b.height;
  let best: number | null = null;
  let bestDistance = JOINT_HIT_RADIUS;
  node.data.body.candidate.forEach(([x, y], i) => {
    const d = Math.hypot(u - x, v - y);
    if (d <= bestDistance) {
      bestDistance = d;
      best = i;
    }
  });
  return best;
}

/** The nearest panel vertex within the vertex hit radius (canvas units). */
export function vertexAt(panels: readonly LayerNode<'PANEL'>[], p: Point): { panelId: string; index: number } | null {
  let best: { panelId: string; index: number } | null = null;
  let bestDistance = VERTEX_HIT_RADIUS;
  for (const panel of panels) {
    panel.data.vertices.forEach((v, index) => {
      const d = Math.hypot(p.x - v.x, p.y - v.y);
      if (d <= bestDistance) {
        bestDistance = d;
        best = { panelId: panel.id, index };
      }
    });
  }
  return best;
}

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** A panel edge (as its two vertex indices) within the handle margin of a point, if any. */
export function edgeAt(
  panels: readonly LayerNode<'PANEL'>[],
  p: Point,
  zoom: number,
): { panelId: string; indices: [number, number] } | null {
  const margin = HANDLE_HIT_MARGIN / zoom;
  for (const panel of panels) {
    const v = panel.data.vertices;
    for (let i = 0; i < v.length; i++) {
      const j = (i + 1) % v.length;
      if (distanceToSegment(p, v[i]!, v[j]!) <= margin) return { panelId: panel.id, indices: [i, j] };
    }
  }
  return null;
}

/** Visible layers directly under a root (groups searched) whose box meets a rectangle. */
export function layersInRect(doc: DocState, rootId: string, r: Box): string[] {
  const out: string[] = [];
  const visit = (id: string) => {
    const node = doc.layers[id];
    if (!node?.visible) return;
    if (node.type === 'GROUP') {
      node.children.forEach(visit);
      return;
    }
    const b = boxOf(node);
    if (b.x <= r.x + r.width && b.x + b.width >= r.x && b.y <= r.y + r.height && b.y + b.height >= r.y) out.push(id);
  };
  doc.layers[rootId]?.children.forEach(visit);
  return out;
}
