import { createRequire } from 'node:module';
import path from 'node:path';
import type * as tfTypes from '@tensorflow/tfjs';
import { clampBox, FACE_NMS_IOU, FACE_SCORE_THRESHOLD, nonMaxSuppression, type Detection } from './boxes.ts';
import { decodeRgb } from './input.ts';
import { initTf, packageDir } from './tf-runtime.ts';

const require = createRequire(import.meta.url);

/** The part of @vladmandic/face-api this module uses (its node-wasm build brings its own large typings). */
interface FaceApi {
  nets: {
    ssdMobilenetv1: { loadFromDisk(dir: string): Promise<void> };
    tinyFaceDetector: { loadFromDisk(dir: string): Promise<void> };
  };
  SsdMobilenetv1Options: new (o: { minConfidence: number; maxResults: number }) => unknown;
  TinyFaceDetectorOptions: new (o: { scoreThreshold: number; inputSize: number }) => unknown;
  detectAllFaces(
    input: tfTypes.Tensor3D,
    options: unknown,
  ): Promise<{ score: number; box: { x: number; y: number; width: number; height: number } }[]>;
}

let loaded: Promise<FaceApi> | undefined;

/**
 * face-api's SSD MobileNet v1 and Tiny Face Detector. On our fixtures SSD gives the tightest boxes on photos
 * and is the only one to find the toon-shaded anime face, but misses the flat drawn face that the tiny detector
 * (and Human's BlazeFace) find; so both run and their results are merged (docs/decisions/vision.md).
 */
function faceApi(): Promise<FaceApi> {
  loaded ??= (async () => {
    await initTf();
    // The node-wasm build shares the process's @tensorflow/tfjs instance, hence the wasm backend set up above.
    const api = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
    const dir = path.join(packageDir('@vladmandic/face-api'), 'model');
    await api.nets.ssdMobilenetv1.loadFromDisk(dir);
    await api.nets.tinyFaceDetector.loadFromDisk(dir);
    return api;
  })();
  return loaded;
}

type Found = { score: number; box: { x: number; y: number; width: number; height: number } }[];

function toDetections(found: Found, width: number, height: number): Detection[] {
  return found.map((d) => ({
    bbox: clampBox([d.box.x, d.box.y, d.box.x + d.box.width, d.box.y + d.box.height], width, height),
    label: 'face',
    score: Math.round(d.score * 1000) / 1000,
  }));
}

/**
 * SSD's detections, plus the tiny detector's where SSD found nothing: a tiny box that holds the centre of an
 * SSD box is the same face, drawn looser (its boxes run ~1.6× wider on the photo fixture), and is dropped.
 */
export function mergeDetections(ssd: readonly Detection[], tiny: readonly Detection[]): Detection[] {
  const centreIn = (outer: Detection, inner: Detection) => {
    const cx = (inner.bbox[0] + inner.bbox[2]) / 2;
    const cy = (inner.bbox[1] + inner.bbox[3]) / 2;
    return outer.bbox[0] <= cx && cx <= outer.bbox[2] && outer.bbox[1] <= cy && cy <= outer.bbox[3];
  };
  const extra = tiny.filter((t) => !ssd.some((s) => centreIn(t, s) || centreIn(s, t)));
  return nonMaxSuppression([...ssd, ...extra], FACE_NMS_IOU);
}

/** Faces in an encoded image, best first; boxes in source pixels. Runs on the calling thread (use the worker). */
export async function detectFacesFaceApi(image: Buffer): Promise<Detection[]> {
  const [api, tf] = await Promise.all([faceApi(), initTf()]);
  const { data, width, height } = await decodeRgb(image);
  const input = tf.tensor3d(data, [height, width, 3], 'int32');
  try {
    const ssd = await api.detectAllFaces(
      input,
      new api.SsdMobilenetv1Options({ minConfidence: FACE_SCORE_THRESHOLD, maxResults: 100 }),
    );
    const tiny = await api.detectAllFaces(
      input,
      new api.TinyFaceDetectorOptions({ scoreThreshold: FACE_SCORE_THRESHOLD, inputSize: 416 }),
    );
    return mergeDetections(toDetections(ssd, width, height), toDetections(tiny, width, height));
  } finally {
    input.dispose();
  }
}
