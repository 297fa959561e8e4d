import { HANDLE_HIT_MARGIN, VERTEX_HIT_RADIUS, boundsOf, insideRect, type Point, type Size } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { setVertices } from '../commands/panel-helpers.ts';
import { pageBoundsFor, rootOf } from '../commands/helpers.ts';
import { CommandError } from '../commands/command.ts';
import { distanceToSegment, type Box } from './geometry.ts';

export const isPanel = (n: LayerNode | undefined): n is LayerNode<'PANEL'> => n?.type === 'PANEL';

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

/** A move of a panel shortened so that it stays inside its page. */
export function clampPanelDelta(node: LayerNode<'PANEL'>, dx: number, dy: number, page: Size | null): Point {
  if (!page) return { x: dx, y: dy };
  const box = boundsOf(node.data.vertices);
  return {
    x: Math.min(Math.max(dx, -box.x), page.width - box.x - box.width),
    y: Math.min(Math.max(dy, -box.y), page.height - box.y - box.height),
  };
}

export function translatePanel(node: LayerNode<'PANEL'>, dx: number, dy: number): void {
  setVertices(
    node,
    node.data.vertices.map((p) => ({ x: p.x + dx, y: p.y + dy })),
  );
}

/** Resize: the vertices scale into the new box, which must stay inside the page. */
export function placePanelBox(doc: DocState, node: LayerNode<'PANEL'>, { x, y, width, height }: Box): void {
  const page = pageBoundsFor(doc, rootOf(doc, node.id));
  if (page && (x < -1e-6 || y < -1e-6 || x + width > page.width + 1e-6 || y + height > page.height + 1e-6)) {
    throw new CommandError('The panel must stay inside the page');
  }
  const box = boundsOf(node.data.vertices);
  const sx = width / box.width;
  const sy = height / box.height;
  setVertices(
    node,
    node.data.vertices.map((p) => ({ x: x + (p.x - box.x) * sx, y: y + (p.y - box.y) * sy })),
  );
}

/** A copy starts with no neighbours and steps back from the page edge rather than leave its page. */
export function placePanelCopy(doc: DocState, copy: LayerNode<'PANEL'>, rootId: string, offset: number): void {
  copy.data.neighborPanels = { left: [], right: [], top: [], bottom: [] };
  const page = pageBoundsFor(doc, rootId);
  const box = boundsOf(copy.data.vertices);
  // Near the page edge the copy goes the other way, so that panels never leave their page.
  const shift = (start: number, size: number, limit: number | undefined) => {
    if (limit === undefined || start + size + offset <= limit) return offset;
    return start - offset >= 0 ? -offset : 0;
  };
  translatePanel(copy, shift(box.x, box.width, page?.width), shift(box.y, box.height, page?.height));
}

/** Neighbour lists are symmetric, the transform is the vertices' bounding box, a page's panels stay inside it. */
export function panelInvariants(doc: DocState, node: LayerNode<'PANEL'>): string[] {
  const problems: string[] = [];
  const id = node.id;
  const sides = node.data.neighborPanels;
  const back = { left: 'right', right: 'left', top: 'bottom', bottom: 'top' } as const;
  for (const side of ['left', 'right', 'top', 'bottom'] as const) {
    for (const other of sides[side]) {
      const o = doc.layers[other];
      if (!isPanel(o)) problems.push(`${id}: neighbour ${other} is not a panel`);
      else if (!o.data.neighborPanels[back[side]].includes(id))
        problems.push(`${id}: ${side} neighbour ${other} is one-sided`);
    }
  }
  const xs = node.data.vertices.map((v) => v.x);
  const ys = node.data.vertices.map((v) => v.y);
  const t = node.transform;
  const near = (a: number, b: number) => Math.abs(a - b) < 1e-6;
  if (
    !near(t.x, Math.min(...xs)) ||
    !near(t.y, Math.min(...ys)) ||
    !near(t.x + t.size.width, Math.max(...xs)) ||
    !near(t.y + t.size.height, Math.max(...ys))
  ) {
    problems.push(`${id}: transform is not the bounding box of its vertices`);
  }
  const onPage = doc.pages.some((page) => page.rootId === node.parent);
  if (onPage && !insideRect(node.data.vertices, doc.comicConfiguration)) problems.push(`${id}: panel leaves the page`);
  return problems;
}

/**
 * What a Panel-tool click at `p` splits: across at the pointer's height, or (Shift) down at its x, as a fraction of
 * the panel's box.
 */
export function splitArgsAt(
  panel: LayerNode<'PANEL'>,
  p: Point,
  vertical: boolean,
): { id: string; direction: 'horizontal' | 'vertical'; at: number } {
  const t = panel.transform;
  const at = vertical ? (p.x - t.x) / t.size.width : (p.y - t.y) / t.size.height;
  return { id: panel.id, direction: vertical ? 'vertical' : 'horizontal', at };
}
