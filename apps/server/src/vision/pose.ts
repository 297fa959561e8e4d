import path from 'node:path';
import type { GraphModel, Tensor } from '@tensorflow/tfjs';
import { decodeRgb } from './input.ts';
import { cocoToOpenPose, type Keypoint, type OpenPoseBodies } from './openpose.ts';
import { initTf, loadGraphModel, packageDir } from './tf-runtime.ts';

/** MoveNet SinglePose Lightning takes a 192×192 int32 image. */
const MOVENET_SIZE = 192;

export interface PoseResult {
  bodies: OpenPoseBodies;
  width: number;
  height: number;
}

let model: Promise<GraphModel> | undefined;

/** MoveNet Lightning as shipped in @vladmandic/human's models folder (Apache-2.0 weights, MIT package). */
function movenet(): Promise<GraphModel> {
  model ??= loadGraphModel(
    path.join(packageDir('@vladmandic/human', '@vladmandic/human'), 'models', 'movenet-lightning.json'),
  );
  return model;
}

/** Runs MoveNet on the whole image, letterboxed to a square so that the figure is not stretched. */
export async function estimatePoseMovenet(image: Buffer): Promise<PoseResult> {
  const [tf, net] = await Promise.all([initTf(), movenet()]);
  const { data, width, height } = await decodeRgb(image);
  const side = Math.max(width, height);
  const padX = Math.floor((side - width) / 2);
  const padY = Math.floor((side - height) / 2);
  const raw = tf.tidy(() => {
    const img = tf.tensor3d(data, [height, width, 3], 'int32');
    const square = tf.pad(img, [
      [padY, side - height - padY],
      [padX, side - width - padX],
      [0, 0],
    ]);
    const input = tf.image.resizeBilinear(square, [MOVENET_SIZE, MOVENET_SIZE]).toInt().expandDims(0);
    return net.execute(input) as Tensor;
  });
  try {
    // Output [1, 1, 17, 3]: y, x (0..1 of the padded square), score.
    const values = (await raw.data()) as Float32Array;
    const keypoints: Keypoint[] = [];
    for (let i = 0; i < 17; i++) {
      keypoints.push({
        x: (values[i * 3 + 1] ?? 0) * side - padX,
        y: (values[i * 3] ?? 0) * side - padY,
        score: values[i * 3 + 2] ?? 0,
      });
    }
    return { bodies: cocoToOpenPose([keypoints]), width, height };
  } finally {
    raw.dispose();
  }
}
