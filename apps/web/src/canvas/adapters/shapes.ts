import Konva from 'konva';
import { OPENPOSE_COLORS, OPENPOSE_LIMBS, POSE_DOT_RADIUS, POSE_LINE_WIDTH } from '@koma/domain';
import type { LayerAdapter } from './types.ts';

/** A panel's outline (its vertices are page coordinates, the group sits at the panel's box). */
export const panelAdapter: LayerAdapter = {
  build(group, layer, ctx) {
    if (layer.type !== 'PANEL') return;
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
      group.add(new Konva.Circle({ x: size, y: size, radius: size * 0.6, fill: '#1f2937', listening: false }));
      group.add(
        new Konva.Text({
          x: size * 0.4,
          y: size * 0.4,
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
};

export const fillAdapter: LayerAdapter = {
  build(group, layer) {
    if (layer.type !== 'FILL') return;
    group.add(new Konva.Rect({ ...layer.transform.size, fill: layer.data.color, listening: false }));
  },
};

/** OpenPose skeleton: 4 px limbs and 8 px joints in OpenPose's colours; coordinates are fractions of the box. */
export const poseAdapter: LayerAdapter = {
  build(group, layer) {
    if (layer.type !== 'POSE') return;
    const { width, height } = layer.transform.size;
    const body = layer.data.body;
    const row = body.subset[0];
    if (!row) return;
    const at = (joint: number): [number, number] | null => {
      const index = row[joint];
      const c = index === undefined || index < 0 ? undefined : body.candidate[index];
      return c ? [c[0] * width, c[1] * height] : null;
    };
    group.add(new Konva.Rect({ width, height, fill: 'rgba(0,0,0,0.04)', listening: false }));
    OPENPOSE_LIMBS.forEach(([a, b], i) => {
      const p = at(a);
      const q = at(b);
      if (p && q)
        group.add(
          new Konva.Line({
            points: [...p, ...q],
            stroke: OPENPOSE_COLORS[i % 18],
            strokeWidth: POSE_LINE_WIDTH,
            opacity: 0.8,
            listening: false,
          }),
        );
    });
    for (let j = 0; j < 18; j++) {
      const p = at(j);
      if (p)
        group.add(
          new Konva.Circle({ x: p[0], y: p[1], radius: POSE_DOT_RADIUS, fill: OPENPOSE_COLORS[j], listening: false }),
        );
    }
  },
};

/** Sketch strokes are vectors in the layer's own units. */
export const sketchAdapter: LayerAdapter = {
  build(group, layer) {
    if (layer.type !== 'SKETCH') return;
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
};
