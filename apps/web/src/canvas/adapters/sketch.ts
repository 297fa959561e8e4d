import Konva from 'konva';
import { defineAdapter } from './types.ts';

/** Sketch strokes are vectors in the layer's own units. */
export const sketchAdapter = defineAdapter({
  type: 'SKETCH',
  build(group, layer) {
    for (const brush of layer.data.brushes) {
      for (const stroke of brush.strokes) {
        const points = stroke.points.length === 2 ? [...stroke.points, ...stroke.points] : stroke.points;
        group.add(
          new Konva.Line({
            points,
            stroke: brush.color,
            strokeWidth: stroke.radius,
            lineCap: 'round',
            lineJoin: 'round',
            globalCompositeOperation: stroke.erase ? 'destination-out' : 'source-over',
            listening: false,
          }),
        );
      }
    }
  },
});
