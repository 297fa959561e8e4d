import { JOINT_HIT_RADIUS, createPoseLayer, zPoseData, type Point } from '@koma/domain';
import type { LayerNode } from '../store/state.ts';
import { addPose } from '../commands/add.ts';
import { moveJoint, pairPose } from '../commands/pose.ts';
import { gestureDrag } from '../interaction/drag.ts';
import { defineKind } from './kind.ts';
import { placementOf, toLocal } from './placement.ts';
import { shapeNodes } from './shape-export.ts';

/** A canvas point as fractions of the layer's box, the units pose joints are kept in. */
function toFractions(node: LayerNode, p: Point): Point {
  const placement = placementOf(node);
  const local = toLocal(placement, p);
  return { x: local.x / placement.size.width, y: local.y / placement.size.height };
}

/** The pose joint (candidate index) within the joint hit radius, measured in fractions of the layer size. */
export function jointAt(node: LayerNode<'POSE'>, p: Point): number | null {
  const { width, height } = node.transform.size;
  if (width <= 0 || height <= 0) return null;
  const { x: u, y: v } = toFractions(node, p);
  let best: number | null = null;
  let bestDistance = JOINT_HIT_RADIUS;
  node.data.body.candidate.forEach(([x, y], i) => {
    const d = Math.hypot(u - x, v - y);
    if (d <= bestDistance) {
      bestDistance = d;
      best = i;
    }
  });
  return best;
}

/** An OpenPose skeleton (18 joints) that guides generation; its own tool drags joints. */
export const poseKind = defineKind({
  type: 'POSE',
  schema: zPoseData,
  create: (id, transform) => createPoseLayer(id, transform),
  container: false,
  raster: false,
  keepAspect: false,
  carriesClipped: false,
  tool: {
    id: 'POSE',
    down(host, _e, p) {
      const hit = host.hitAt(p, (n) => n.type === 'POSE');
      if (!hit) return 'pan';
      const pose = host.doc.layers[hit] as LayerNode<'POSE'>;
      host.select([hit]);
      const candidate = jointAt(pose, p);
      if (candidate === null || pose.locked) return null;
      return gestureDrag('MOVE_JOINT', host.editor.beginGesture(moveJoint), (q) => {
        const node = host.doc.layers[hit];
        if (!node) return null;
        const at = toFractions(node, q);
        return { id: hit, candidate, x: at.x, y: at.y };
      });
    },
  },
  imageIds: () => [],
  export: { nodes: shapeNodes, restore: true },
  tab: ['generation.operations'],
  commands: { addPose, moveJoint, pairPose },
});
