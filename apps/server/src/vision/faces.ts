import { createRequire } from 'node:module';
import path from 'node:path';
import type * as tfTypes from '@tensorflow/tfjs';
import { clampBox, FACE_NMS_IOU, FACE_SCORE_THRESHOLD, nonMaxSuppression, type Detection } from './boxes.ts';
import { decodeRgb } from './input.ts';
import { initTf, packageDir } from './tf-runtime.ts';

const require = createRequire(import.meta.url);

/** The part of @vladmandic/face-api this module uses (its node-wasm build brings its own large typings). */
interface FaceApi {
  nets: { ssdMobilenetv1: { loadFromDisk(dir: string): Promise<void>; isLoaded: boolean } };
  SsdMobilenetv1Options: new (o: { minConfidence: number; maxResults: number }) => unknown;
  detectAllFaces(
    input: tfTypes.Tensor3D,
    options: unknown,
  ): Promise<{ score: number; box: { x: number; y: number; width: number; height: number } }[]>;
}

let loaded: Promise<FaceApi> | undefined;

/**
 * face-api's SSD MobileNet v1, chosen over its tiny detector and Human's BlazeFace because on our fixtures it is
 * the one that finds the drawn (anime-style) face as well as photographed ones (docs/decisions/vision.md).
 */
function faceApi(): Promise<FaceApi> {
  loaded ??= (async () => {
    await initTf();
    // The node-wasm build shares the process's @tensorflow/tfjs instance, hence the wasm backend set up above.
    const api = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
    await api.nets.ssdMobilenetv1.loadFromDisk(path.join(packageDir('@vladmandic/face-api'), 'model'));
    return api;
  })();
  return loaded;
}

/** Faces in an encoded image, best first; boxes in source pixels. Runs on the calling thread (use the worker). */
export async function detectFacesSsd(image: Buffer): Promise<Detection[]> {
  const [api, tf] = await Promise.all([faceApi(), initTf()]);
  const { data, width, height } = await decodeRgb(image);
  const input = tf.tensor3d(data, [height, width, 3], 'int32');
  try {
    const found = await api.detectAllFaces(
      input,
      new api.SsdMobilenetv1Options({ minConfidence: FACE_SCORE_THRESHOLD, maxResults: 100 }),
    );
    const detections: Detection[] = found.map((d) => ({
      bbox: clampBox([d.box.x, d.box.y, d.box.x + d.box.width, d.box.y + d.box.height], width, height),
      label: 'face',
      score: Math.round(d.score * 1000) / 1000,
    }));
    return nonMaxSuppression(detections, FACE_NMS_IOU);
  } finally {
    input.dispose();
  }
}
