import { mirroredPoseRow } from '@koma/domain';
import type { LayerNode } from '../store/state.ts';
import { placementOf } from './placement.ts';

/**
 * The pose's subset rows as the figure is seen on the canvas: a pose mirrored by its placement (one flip; two flips
 * are a half turn) shows each limb on the other side, so it takes the other side's keypoints, and with them
 * OpenPose's colour for that side. The canvas, the layer thumbnail and the openpose control image all draw these.
 */
export function poseRowsAsShown(node: LayerNode<'POSE'>): readonly (readonly number[])[] {
  const [a, b, c, d] = placementOf(node).matrix;
  const { subset } = node.data.body;
  return a * d - b * c < 0 ? subset.map(mirroredPoseRow) : subset;
}
