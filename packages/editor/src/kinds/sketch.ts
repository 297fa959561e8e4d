import { createSketchLayer, zSketchData } from '@koma/domain';
import { addSketch } from '../commands/add.ts';
import { addSketchStroke } from '../commands/sketch.ts';
import { defineKind } from './kind.ts';
import { shapeNodes } from './shape-export.ts';

/** Vector brush strokes in the layer's own units; a stroke on empty canvas starts one. */
export const sketchKind = defineKind({
  type: 'SKETCH',
  schema: zSketchData,
  create: (id, transform) => createSketchLayer(id, transform),
  container: false,
  raster: false,
  keepAspect: false,
  carriesClipped: false,
  brush: {
    // The whole stroke is one gesture: it grows while drawing and lands as one history entry.
    start(host, node, p) {
      const points = [p.x - node.transform.x, p.y - node.transform.y];
      // A pen's pressure widens or narrows the stroke (host.brushRadius); otherwise it is the brush size.
      const args = () => ({ id: node.id, color: host.ui.state.brushColor, radius: host.brushRadius(), points });
      const gesture = host.editor.beginGesture(addSketchStroke);
      gesture.update(args());
      return {
        state: 'PAINT_CANVAS',
        move(q) {
          const current = host.doc.layers[node.id];
          if (!current) return;
          points.push(q.x - current.transform.x, q.y - current.transform.y);
          gesture.update(args());
        },
        up: () => void gesture.commit(),
        cancel: () => gesture.cancel(),
      };
    },
  },
  createForBrush(host, p, root) {
    // Covering the page, or the area around the stroke on the infinite canvas.
    const doc = host.doc;
    const page = doc.pages.some((pg) => pg.rootId === root);
    const transform = page
      ? { x: 0, y: 0, size: { width: doc.comicConfiguration.width, height: doc.comicConfiguration.height } }
      : { x: p.x - 512, y: p.y - 512, size: { width: 1024, height: 1024 } };
    const created = host.editor.execute(addSketch, { parentId: root, transform });
    if (!created.ok) return null;
    const node = host.doc.layers[created.value];
    return node?.type === 'SKETCH' ? node : null;
  },
  imageIds: () => [],
  export: { nodes: shapeNodes, restore: true },
  tab: ['generation.operations'],
  commands: { addSketch, addSketchStroke },
});
