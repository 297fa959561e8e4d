import Konva from 'konva';
import { readingBadgeAt } from '@koma/domain';
import { defineAdapter } from './types.ts';

/** A panel's outline (its vertices are page coordinates, the group sits at the panel's box). */
export const panelAdapter = defineAdapter({
  type: 'PANEL',
  // The reading-order badge is drawn on the panel.
  dependsOn: (_layer, ctx) => [ctx.ui.showReadingOrder, ctx.doc.comicConfiguration.readingOrder],
  // A panel without a border is only a guide in the editor; an export draws panel borders from its plan, not here.
  picture(group, layer, ctx, use) {
    if (use.for === 'thumbnail' && layer.data.border) this.build(group, layer, ctx);
  },
  build(group, layer, ctx) {
    const { x, y } = layer.transform;
    const points = layer.data.vertices.flatMap((v) => [v.x - x, v.y - y]);
    group.add(
      new Konva.Line({
        points,
        closed: true,
        stroke: layer.data.border ? '#000' : 'rgba(40, 90, 200, 0.6)',
        strokeWidth: layer.data.border ? 5 : 1.5 / ctx.zoom,
        dash: layer.data.border ? undefined : [10 / ctx.zoom, 6 / ctx.zoom],
        listening: false,
      }),
    );
    if (ctx.ui.showReadingOrder) {
      const size = 56;
      // Inside the polygon at the corner reading starts from (issue 17), in the group's units.
      const badge = readingBadgeAt(layer.data.vertices, ctx.doc.comicConfiguration.readingOrder, size);
      const cx = badge.x - x;
      const cy = badge.y - y;
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
  },
});
