import { boundsOf, readingPositions, type PanelShape, type Point } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { getLayer } from './helpers.ts';

export function panelsUnder(doc: DocState, rootId: string): LayerNode<'PANEL'>[] {
  return getLayer(doc, rootId)
    .children.map((id) => doc.layers[id])
    .filter((n): n is LayerNode<'PANEL'> => n?.type === 'PANEL');
}

export function toShape(node: LayerNode<'PANEL'>): PanelShape {
  return {
    id: node.id,
    vertices: node.data.vertices,
    neighborPanels: node.data.neighborPanels,
    locked: node.locked,
    ignoreNeighbors: node.data.ignoreNeighbors,
  };
}

export function shapesUnder(doc: DocState, rootId: string): Map<string, PanelShape> {
  return new Map(panelsUnder(doc, rootId).map((p) => [p.id, toShape(p)]));
}

/** Sets a panel's vertices and keeps its transform equal to their bounding box. */
export function setVertices(node: LayerNode<'PANEL'>, vertices: Point[]): void {
  node.data.vertices = vertices;
  const box = boundsOf(vertices);
  node.transform = { x: box.x, y: box.y, size: { width: box.width, height: box.height } };
}

/** Renumbers the panels of a page (or canvas root) in reading order. */
export function renumberPanels(doc: DocState, rootId: string): void {
  const panels = panelsUnder(doc, rootId);
  const positions = readingPositions(panels.map(toShape), doc.comicConfiguration.readingOrder);
  for (const panel of panels) {
    const position = positions.get(panel.id)!;
    if (panel.data.position !== position) panel.data.position = position;
  }
}

/** Drops a panel from its neighbours' lists. */
export function unlinkNeighbors(doc: DocState, panel: LayerNode<'PANEL'>): void {
  for (const side of ['left', 'right', 'top', 'bottom'] as const) {
    for (const id of panel.data.neighborPanels[side]) {
      const other = doc.layers[id];
      if (other?.type !== 'PANEL') continue;
      for (const s of ['left', 'right', 'top', 'bottom'] as const) {
        if (other.data.neighborPanels[s].includes(panel.id)) {
          other.data.neighborPanels[s] = other.data.neighborPanels[s].filter((x) => x !== panel.id);
        }
      }
    }
  }
}
