import Konva from 'konva';
import { HANDLE_HIT_MARGIN, VERTEX_HIT_RADIUS } from '@koma/domain';
import {
  canRotate,
  panelsUnder,
  placedBounds,
  placedCorners,
  placementOf,
  rotateHandle,
  rotationCentre,
  currentSplitPreview,
  type SplitPreview,
  tailTip,
  type DocState,
  type LayerNode,
  type UiState,
} from '@koma/editor';

const ACCENT = '#2563eb';
const GUIDE = '#e11d48';

/** Selection outlines, corner handles, the rubber band and panel vertices; sized in screen pixels. */
export function drawOverlay(layer: Konva.Layer, doc: DocState, ui: UiState, zoom: number, rootId: string): void {
  const px = 1 / zoom;
  for (const id of ui.selection) {
    const node = doc.layers[id];
    if (!node) continue;
    // The outline follows the layer as turned and flipped, where hit-testing and the corner handles take it.
    const corners = placedCorners(placementOf(node));
    layer.add(
      new Konva.Line({
        points: corners.flatMap((c) => [c.x, c.y]),
        closed: true,
        stroke: node.locked ? '#9ca3af' : ACCENT,
        strokeWidth: 2 * px,
        dash: node.locked ? [6 * px, 4 * px] : undefined,
        listening: false,
        name: 'selection-outline',
      }),
    );
    const tip = ui.selection.length === 1 && node.type === 'TEXT' && !node.locked ? tailTip(node, doc) : null;
    if (tip && ui.tool === 'MOVE') {
      layer.add(
        new Konva.Circle({
          x: tip.x,
          y: tip.y,
          radius: 7 * px,
          fill: ACCENT,
          stroke: '#fff',
          strokeWidth: 2 * px,
          listening: false,
        }),
      );
    }
    if (ui.selection.length === 1 && !node.locked && ui.tool === 'MOVE') {
      const s = HANDLE_HIT_MARGIN * px;
      for (const c of corners) {
        layer.add(
          new Konva.Rect({
            x: c.x - s / 2,
            y: c.y - s / 2,
            width: s,
            height: s,
            fill: '#fff',
            stroke: ACCENT,
            strokeWidth: 1.5 * px,
            listening: false,
          }),
        );
      }
      if (canRotate(node)) drawRotateHandle(layer, node, zoom, ui.interaction === 'ROTATE_LAYER');
    }
  }
  if (ui.snapGuides) {
    // Snap guides run across the whole visible canvas, thin and magenta as design tools draw them.
    const far = 100000;
    for (const x of ui.snapGuides.xs) {
      layer.add(
        new Konva.Line({
          points: [x, -far, x, far],
          stroke: GUIDE,
          strokeWidth: px,
          listening: false,
          name: 'snap-guide',
        }),
      );
    }
    for (const y of ui.snapGuides.ys) {
      layer.add(
        new Konva.Line({
          points: [-far, y, far, y],
          stroke: GUIDE,
          strokeWidth: px,
          listening: false,
          name: 'snap-guide',
        }),
      );
    }
  }
  if (ui.selectionRect) {
    const r = ui.selectionRect;
    layer.add(
      new Konva.Rect({
        ...r,
        fill: 'rgba(37, 99, 235, 0.08)',
        stroke: ACCENT,
        strokeWidth: px,
        dash: [4 * px, 3 * px],
        listening: false,
      }),
    );
  }
  const preview = currentSplitPreview(doc, rootId, ui, zoom);
  if (preview) drawSplitPreview(layer, preview, zoom);
  if (ui.tool === 'PANEL') {
    for (const panel of panelsUnder(doc, rootId)) {
      for (const v of panel.data.vertices) {
        layer.add(
          new Konva.Circle({
            x: v.x,
            y: v.y,
            radius: Math.min(VERTEX_HIT_RADIUS / 2, 7 * px),
            fill: '#fff',
            stroke: ACCENT,
            strokeWidth: 2 * px,
            listening: false,
          }),
        );
      }
    }
  }
  if (ui.tool === 'BRUSH' && ui.pointer) {
    layer.add(
      new Konva.Circle({
        x: ui.pointer.x,
        y: ui.pointer.y,
        radius: ui.brushSize,
        stroke: ACCENT,
        strokeWidth: px,
        listening: false,
      }),
    );
  }
  for (const [id, state] of Object.entries(ui.processing)) {
    const node = doc.layers[id];
    if (!node) continue;
    // The veil covers the layer as placed (turned or not); the bar runs level along the bottom of the box that holds
    // it, so that it reads left to right whatever the turn.
    const placement = placementOf(node);
    const b = placedBounds(placement);
    const barHeight = 8 * px;
    layer.add(
      new Konva.Line({
        points: placedCorners(placement).flatMap((c) => [c.x, c.y]),
        closed: true,
        fill: 'rgba(17, 24, 39, 0.25)',
        listening: false,
      }),
    );
    layer.add(
      new Konva.Rect({
        x: b.x,
        y: b.y + b.height - barHeight,
        width: b.width,
        height: barHeight,
        fill: 'rgba(255,255,255,0.7)',
        listening: false,
      }),
    );
    layer.add(
      new Konva.Rect({
        x: b.x,
        y: b.y + b.height - barHeight,
        width: b.width * (state.progress ?? 0),
        height: barHeight,
        fill: ACCENT,
        listening: false,
      }),
    );
  }
}

/** The rotate handle: a stem off the top edge and a round knob; while turning, the angle beside the pivot. */
function drawRotateHandle(layer: Konva.Layer, node: LayerNode, zoom: number, turning: boolean): void {
  const px = 1 / zoom;
  const { handle, stem } = rotateHandle(node, zoom);
  layer.add(
    new Konva.Line({
      points: [stem.x, stem.y, handle.x, handle.y],
      stroke: ACCENT,
      strokeWidth: 1.5 * px,
      listening: false,
    }),
  );
  layer.add(
    new Konva.Circle({
      x: handle.x,
      y: handle.y,
      radius: 7 * px,
      fill: turning ? ACCENT : '#fff',
      stroke: ACCENT,
      strokeWidth: 2 * px,
      listening: false,
      name: 'rotate-handle',
    }),
  );
  if (!turning) return;
  const c = rotationCentre(node);
  const degrees = Math.round((node.rotation ?? 0) * 10) / 10;
  layer.add(new Konva.Circle({ x: c.x, y: c.y, radius: 3 * px, fill: ACCENT, listening: false }));
  const label = new Konva.Label({ x: handle.x + 14 * px, y: handle.y - 14 * px, listening: false });
  label.add(new Konva.Tag({ fill: 'rgba(17, 24, 39, 0.85)', cornerRadius: 4 * px }));
  label.add(
    new Konva.Text({
      text: `${degrees}°`,
      fontSize: 13 * px,
      padding: 5 * px,
      fill: '#fff',
      name: 'rotate-angle',
    }),
  );
  layer.add(label);
}

/**
 * Where a click would split the panel: the gutter it would leave, tinted, between the two new edges, drawn dashed
 * (the frame is stroked on those edges once the split is made).
 */
function drawSplitPreview(layer: Konva.Layer, preview: SplitPreview, zoom: number): void {
  const px = 1 / zoom;
  const [[a0, a1], [b0, b1]] = preview.edges;
  layer.add(
    new Konva.Line({
      points: [a0.x, a0.y, a1.x, a1.y, b1.x, b1.y, b0.x, b0.y],
      closed: true,
      fill: 'rgba(37, 99, 235, 0.18)',
      listening: false,
      name: 'split-preview-gutter',
    }),
  );
  for (const [from, to] of preview.edges) {
    layer.add(
      new Konva.Line({
        points: [from.x, from.y, to.x, to.y],
        stroke: ACCENT,
        strokeWidth: 2 * px,
        dash: [8 * px, 5 * px],
        listening: false,
        name: 'split-preview',
      }),
    );
  }
}
