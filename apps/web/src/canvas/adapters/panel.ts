import Konva from 'konva';
import { readingBadgeAt } from '@koma/domain';
import { frameWidthOnPage, type LayerNode } from '@koma/editor';
import { defineAdapter, type RenderContext } from './types.ts';

/** The frame line, or for a borderless panel the thin dashed guide the editor shows instead. */
function outline(group: Konva.Group, layer: LayerNode<'PANEL'>, ctx: RenderContext): void {
  const { x, y } = layer.transform;
  const points = layer.data.vertices.flatMap((v) => [v.x - x, v.y - y]);
  const border = layer.data.border;
  group.add(
    new Konva.Line({
      points,
      closed: true,
      stroke: border ? layer.data.borderColor : 'rgba(40, 90, 200, 0.6)',
      // In the standard export's pixels (editor.md §9), drawn at the page's scale so the screen matches the export.
      strokeWidth: border ? frameWidthOnPage(ctx.doc.comicConfiguration, layer.data.borderWidth) : 1.5 / ctx.zoom,
      dash: border ? undefined : [10 / ctx.zoom, 6 / ctx.zoom],
      // The export strokes by distance from the edges, which rounds the outer corners: so does the screen.
      lineJoin: 'round',
      listening: false,
      name: border ? 'panel-frame' : 'panel-guide',
    }),
  );
}

function badge(group: Konva.Group, layer: LayerNode<'PANEL'>, ctx: RenderContext): void {
  const { x, y } = layer.transform;
  const size = 56;
  // Inside the polygon at the corner reading starts from (issue 17), in the group's units.
  const at = readingBadgeAt(layer.data.vertices, ctx.doc.comicConfiguration.readingOrder, size);
  const cx = at.x - x;
  const cy = at.y - y;
  group.add(new Konva.Circle({ x: cx, y: cy, radius: size * 0.6, fill: '#1f2937', listening: false }));
  group.add(
    new Konva.Text({
      x: cx - size * 0.6,
      y: cy - size * 0.6,
      width: size * 1.2,
      height: size * 1.2,
      text: String(layer.data.position),
      fontSize: size * 0.7,
      fontStyle: 'bold',
      fill: '#fff',
      align: 'center',
      verticalAlign: 'middle',
      listening: false,
      name: 'reading-order',
    }),
  );
}

/**
 * A panel (its vertices are page coordinates, the group sits at the panel's box). Its body draws nothing: the frame
 * line and the badge go in `frame`, above the pictures clipped to the panel, exactly where the export puts the frame.
 */
export const panelAdapter = defineAdapter({
  type: 'PANEL',
  // The reading-order badge is drawn on the panel.
  dependsOn: (_layer, ctx) => [ctx.ui.showReadingOrder, ctx.doc.comicConfiguration.readingOrder],
  // A panel without a border is only a guide in the editor; an export draws panel borders from its plan, not here.
  // In a thumbnail the line is the frame part, above the art clipped to the panel, as on screen and in the export.
  picture(group, layer, ctx, use) {
    if (use.for === 'thumbnail' && use.part === 'frame' && layer.data.border) outline(group, layer, ctx);
  },
  build() {},
  frame(group, layer, ctx) {
    outline(group, layer, ctx);
    if (ctx.ui.showReadingOrder) badge(group, layer, ctx);
  },
});
