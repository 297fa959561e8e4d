import Konva from 'konva';
import { OPENPOSE_COLORS, OPENPOSE_LIMBS, POSE_DOT_RADIUS, POSE_LINE_WIDTH } from '@koma/domain';
import { poseRowsAsShown } from '@koma/editor';
import { defineAdapter } from './types.ts';

/** OpenPose skeleton: 4 px limbs and 8 px joints in OpenPose's colours; coordinates are fractions of the box. */
export const poseAdapter = defineAdapter({
  type: 'POSE',
  build(group, layer) {
    const { width, height } = layer.transform.size;
    const body = layer.data.body;
    // Drawn unmirrored in the layer's box; the group mirrors it, so the rows are taken as the figure will be seen.
    const row = poseRowsAsShown(layer)[0];
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
});
