// Pose estimation (`e`): the pose of the selected image, placed (POST /api/pose: OpenPose candidates in source
// pixels) as a pose layer over it.
import { addPose, moveJoint, pairPose, type LayerNode } from '@koma/editor';
import type { EditorSession } from '../../editor/session.ts';
import { i18n } from '../../i18n/index.ts';
import { estimateMs } from '../processing.ts';
import { busy, currentImage, type OperationContext } from './context.ts';
import { refusalText } from '../../editor/refusals.ts';
import type { WebOperation } from './types.ts';

export function addEstimatedPose(
  session: EditorSession,
  image: LayerNode<'IMAGE'>,
  bodies: { candidate: number[][]; subset: number[][] },
  width = image.originalSize.width,
  height = image.originalSize.height,
): void {
  const editor = session.editor;
  const added = editor.execute(addPose, {
    parentId: image.parent ?? session.activeRoot(),
    transform: { x: image.transform.x, y: image.transform.y, size: { ...image.transform.size } },
    fullBody: true,
  });
  if (!added.ok) return;
  const pose = editor.doc.layers[added.value];
  const row = bodies.subset[0];
  if (pose?.type !== 'POSE' || !row) return;
  const own = pose.data.body.subset[0] ?? [];
  for (let joint = 0; joint < 18; joint++) {
    const found = bodies.candidate[row[joint] ?? -1];
    const target = own[joint] ?? -1;
    if (!found || target < 0 || found.length < 2) continue;
    editor.execute(moveJoint, { id: added.value, candidate: target, x: found[0]! / width, y: found[1]! / height });
  }
  editor.execute(pairPose, { id: added.value, imageLayerId: image.id });
  session.ui.update({ selection: [added.value] });
}

/** Places the output of POST /api/pose (`{ pose: { bodies }, width, height }`), or says that no pose was found. */
export function placeEstimatedPose(
  session: EditorSession,
  node: LayerNode<'IMAGE'> | undefined,
  output: unknown,
): void {
  const result = output as {
    pose?: { bodies?: { candidate?: unknown; subset?: unknown } };
    width?: number;
    height?: number;
  };
  const bodies = result?.pose?.bodies;
  if (
    !node ||
    !bodies ||
    !Array.isArray(bodies.candidate) ||
    bodies.candidate.length === 0 ||
    !Array.isArray(bodies.subset)
  ) {
    session.ui.notify(i18n.t('generation.pose.none'), 'error');
    return;
  }
  addEstimatedPose(session, node, bodies as { candidate: number[][]; subset: number[][] }, result.width, result.height);
}

/** `e`: estimates the pose of the selected image (a pose layer is added over it). */
export function estimatePose(ctx: OperationContext): void {
  const id = ctx.session.ui.state.selection[0];
  const node = id ? ctx.session.editor.doc.layers[id] : undefined;
  if (node?.type !== 'IMAGE') return ctx.session.ui.notify(refusalText('poseImage'));
  const image = currentImage(ctx.session, node.id);
  if (!image) return ctx.session.ui.notify(refusalText('poseImage'));
  if (busy(ctx.session, node.id)) return ctx.session.ui.notify(refusalText('processing'));
  void ctx.submit('pose', { image }, estimateMs(), { op: 'pose', layerId: node.id });
}

export const poseOperation: WebOperation = {
  id: 'pose',
  kinds: ['pose'],
  button: {
    testId: 'op-estimate-pose',
    label: 'generation.ops.estimatePose',
    order: 9,
    action: { start: (ctx) => estimatePose(ctx) },
  },
};
