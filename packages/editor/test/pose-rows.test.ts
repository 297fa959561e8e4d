import { describe, expect, it } from 'vitest';
import { OPENPOSE_KEYPOINTS } from '@koma/domain';
import { addPose, flipLayers, poseRowsAsShown, type LayerNode } from '../src/index.ts';
import { makeEditor, ok } from './support.ts';

// A flipped pose showed each limb in the colour of the other side of the body: the openpose controlnet reads the
// colours as sides, so the generated figure came out with its left and right crossed.

function pose() {
  const editor = makeEditor('COMIC');
  const root = editor.doc.pages[0]!.rootId;
  const id = String(
    ok(editor.execute(addPose, { parentId: root, transform: { x: 0, y: 0, size: { width: 100, height: 200 } } })),
  );
  const node = () => editor.doc.layers[id] as LayerNode<'POSE'>;
  return { editor, id, node };
}

/** The keypoint name each joint slot of the first row holds, by the candidate it points at in the upright row. */
function namesAsShown(node: LayerNode<'POSE'>): string[] {
  const upright = node.data.body.subset[0]!;
  const shown = poseRowsAsShown(node)[0]!;
  return OPENPOSE_KEYPOINTS.map((_, j) => OPENPOSE_KEYPOINTS[upright.indexOf(shown[j]!)] ?? 'missing');
}

describe('poseRowsAsShown', () => {
  it('is the pose itself when it is not mirrored', () => {
    const { node } = pose();
    expect(poseRowsAsShown(node())).toEqual(node().data.body.subset);
  });

  it('trades left and right when the pose is flipped once, keeping the score and part count', () => {
    const { editor, id, node } = pose();
    ok(editor.execute(flipLayers, { ids: [id], axis: 'horizontal' }));
    const names = namesAsShown(node());
    expect(names.slice(0, 8)).toEqual([
      'nose',
      'neck',
      'left_shoulder',
      'left_elbow',
      'left_wrist',
      'right_shoulder',
      'right_elbow',
      'right_wrist',
    ]);
    expect(names.slice(14)).toEqual(['left_eye', 'right_eye', 'left_ear', 'right_ear']);
    expect(poseRowsAsShown(node())[0]!.slice(18)).toEqual(node().data.body.subset[0]!.slice(18));
  });

  it('keeps the sides when flipped both ways (a half turn, not a mirror image)', () => {
    const { editor, id, node } = pose();
    ok(editor.execute(flipLayers, { ids: [id], axis: 'horizontal' }));
    ok(editor.execute(flipLayers, { ids: [id], axis: 'vertical' }));
    expect(poseRowsAsShown(node())).toEqual(node().data.body.subset);
  });
});
