import { DUPLICATE_OFFSET, createPanelLayer, zPanelData } from '@koma/domain';
import { addPanel } from '../commands/add.ts';
import { bleedPanel } from '../commands/bleed-panel.ts';
import { pageBoundsFor, rootOf } from '../commands/helpers.ts';
import { panelsUnder, renumberPanels, unlinkNeighbors } from '../commands/panel-helpers.ts';
import {
  applyLayoutPreset,
  applyRandomLayout,
  movePanelVertices,
  setPanelBorder,
  setPanelDetails,
  setReadingOrder,
  splitPanel,
  togglePanelBorder,
} from '../commands/panels.ts';
import { gestureDrag, withGuidesCleared, type Drag, type ToolHost } from '../interaction/drag.ts';
import { SNAP_DISTANCE_PX, snapPoint } from '../interaction/snap.ts';
import { docSnapTargets } from '../interaction/snap-targets.ts';
import type { Point, VertexMove } from '@koma/domain';
import { defineKind } from './kind.ts';
import { panelBlock } from './panel-export.ts';
import {
  clampPanelDelta,
  edgeAt,
  panelInvariants,
  placePanelBox,
  placePanelCopy,
  splitArgsAt,
  translatePanel,
  vertexAt,
} from './panel-geometry.ts';

/** Moves smaller than this (screen px) count as a click, not a drag. */
const CLICK_SLOP = 3;

/**
 * Drags panel vertices; the first one snaps to the page's margin, centre, gutters and the other panels' edges
 * (Alt moves freely), and the guides show where.
 */
function vertexDrag(
  host: ToolHost,
  state: 'MOVE_PANEL_VERTEX' | 'EXPAND_PANEL',
  start: { x: number; y: number },
  moves: VertexMove[],
): Drag {
  const first = moves[0];
  const panel = first ? host.doc.layers[first.panelId] : undefined;
  const origin = panel?.type === 'PANEL' ? panel.data.vertices[first!.index] : undefined;
  const targets = first ? docSnapTargets(host.doc, host.activeRoot(), new Set([first.panelId])) : null;
  const drag = gestureDrag(state, host.editor.beginGesture(movePanelVertices), (p, e) => {
    let dx = p.x - start.x;
    let dy = p.y - start.y;
    if (targets && origin && !e.alt) {
      const snapped = snapPoint({ x: origin.x + dx, y: origin.y + dy }, targets, SNAP_DISTANCE_PX / host.zoom());
      dx = snapped.point.x - origin.x;
      dy = snapped.point.y - origin.y;
      const shown = snapped.guides.xs.length + snapped.guides.ys.length > 0 ? snapped.guides : null;
      host.ui.update({ snapGuides: shown });
    } else if (host.ui.state.snapGuides) host.ui.update({ snapGuides: null });
    return { moves, dx, dy };
  });
  return withGuidesCleared(drag, host.ui);
}

/**
 * A click on a panel splits it there (Shift: vertically). A drag splits it through the point where it began, along
 * the drag: mostly sideways cuts across, mostly up or down cuts down; the cut shows while the pointer is down.
 */
function splitGesture(host: ToolHost, panelId: string, start: Point): Drag {
  /** The cut a drag to `e` makes; null within the click slop (a click). */
  const cutAt = (e: { screen: Point }) => {
    const down = host.downScreen();
    const dx = down ? e.screen.x - down.x : 0;
    const dy = down ? e.screen.y - down.y : 0;
    return Math.hypot(dx, dy) > CLICK_SLOP ? { at: start, vertical: Math.abs(dy) > Math.abs(dx) } : null;
  };
  const clear = () => host.ui.state.splitCut && host.ui.update({ splitCut: null });
  return {
    state: null,
    move(_p, e) {
      const cut = cutAt(e);
      if (!cut) return void clear();
      if (host.ui.state.splitCut?.vertical !== cut.vertical) host.ui.update({ splitCut: cut });
    },
    up(p, e) {
      const cut = cutAt(e);
      clear();
      const panel = host.doc.layers[panelId];
      if (panel?.type !== 'PANEL') return;
      const args = cut ? splitArgsAt(panel, cut.at, cut.vertical) : splitArgsAt(panel, p, !!e.shift);
      const result = host.editor.execute(splitPanel, args);
      if (result.ok) host.select([panelId, result.value]);
    },
    cancel: clear,
  };
}

/**
 * A comic panel: a polygon on its page (vertices in page units, the transform kept as their bounding box),
 * numbered in reading order, linked to its neighbours across gutters, carrying the pictures clipped to it.
 */
export const panelKind = defineKind({
  type: 'PANEL',
  schema: zPanelData,
  create: (id, transform) => createPanelLayer(id, transform),
  container: false,
  raster: false,
  keepAspect: false,
  carriesClipped: true,
  outline: (node) => node.data.vertices,
  limitMove: (doc, node, dx, dy) => clampPanelDelta(node, dx, dy, pageBoundsFor(doc, rootOf(doc, node.id))),
  translate: translatePanel,
  placeBox: placePanelBox,
  beforeRemove: unlinkNeighbors,
  afterDuplicate: (doc, copy, rootId) => placePanelCopy(doc, copy, rootId, DUPLICATE_OFFSET),
  afterRootChange: renumberPanels,
  invariants: panelInvariants,
  tool: {
    id: 'PANEL',
    down(host, _e, p) {
      const panels = panelsUnder(host.doc, host.activeRoot()).filter((n) => n.visible);
      const vertex = vertexAt(panels, p);
      if (vertex) {
        host.select([vertex.panelId]);
        return vertexDrag(host, 'MOVE_PANEL_VERTEX', p, [vertex]);
      }
      const edge = edgeAt(panels, p, host.zoom());
      if (edge) {
        host.select([edge.panelId]);
        const moves = edge.indices.map((index) => ({ panelId: edge.panelId, index }));
        return vertexDrag(host, 'EXPAND_PANEL', p, moves);
      }
      const hit = host.hitAt(p, (n) => n.type === 'PANEL');
      if (!hit) return 'pan';
      host.select([hit]);
      return splitGesture(host, hit, p);
    },
  },
  imageIds: () => [],
  export: {
    // Panels only ever export as their block.
    nodes: () => [],
    block: panelBlock,
    restore: true,
  },
  tab: ['panel.fields'],
  commands: {
    addPanel,
    splitPanel,
    movePanelVertices,
    togglePanelBorder,
    bleedPanel,
    setPanelBorder,
    setPanelDetails,
    applyLayoutPreset,
    applyRandomLayout,
    setReadingOrder,
  },
  keys: { m: togglePanelBorder },
});
