import type { Bbox, Detection } from './boxes.ts';
import { VisionInputError } from './errors.ts';
import { cropFace as cropFaceImpl, type FaceCrop, type FaceCropSize } from './face-crop.ts';
import { readImageInput } from './input.ts';
import { UPSCALE_MAX_PIXELS, UPSCALE_MAX_SIDE } from './upscale-limits.ts';
import type { PoseResult } from './pose.ts';
import { VisionWorker, type RunOptions } from './worker-client.ts';
import { detectFacesYolo } from './yolo-faces.ts';

export type { Bbox, Detection } from './boxes.ts';
export { FACE_NMS_IOU, FACE_SCORE_THRESHOLD } from './boxes.ts';
export { VisionAbortedError, VisionInputError, VisionModelError, type VisionInputErrorCode } from './errors.ts';
export type { FaceCrop, FaceCropSize } from './face-crop.ts';
export { readImageInput, VISION_MAX_PIXELS, VISION_MAX_SIDE, type ImageInput, type ImageLimits } from './input.ts';
export { OPENPOSE_JOINTS, POSE_MIN_SCORE, type Candidate, type OpenPoseBodies } from './openpose.ts';
export type { PoseResult } from './pose.ts';
export {
  UPSCALE_FACTOR,
  UPSCALE_MAX_PIXELS,
  UPSCALE_MAX_SIDE,
  upscaleRefusal,
  upscaleTiles,
} from './upscale-limits.ts';
export { decodeYoloFaces, YOLO_CANDIDATES, YOLO_INPUT_SIZE } from './yolo-decode.ts';

export type Progress = (done: number, total: number) => void;

// Three threads, each running one call at a time: faces and pose (under a second) never wait behind an upscale
// (tens of seconds at 1024 px) or a background removal (onnxruntime, ~1 GB), and at most one of each heavy
// job runs per process. Each tfjs thread holds its own wasm runtime (~100 MB).
const quickWorker = new VisionWorker('faces-pose');
const upscaleWorker = new VisionWorker('upscale');
const backgroundWorker = new VisionWorker('background');

export interface FaceDetectionOptions {
  /** A YOLOv8-style ONNX face model (640×640 in, 8400 candidates out); default: env KOMA_FACE_ONNX_MODEL. */
  onnxModelPath?: string;
}

/** Faces in an image, best first, `[]` when there are none. Refuses bad input with VisionInputError. */
export async function detectFaces(image: Uint8Array, options: FaceDetectionOptions = {}): Promise<Detection[]> {
  const input = await readImageInput(image);
  const onnx = options.onnxModelPath ?? process.env.KOMA_FACE_ONNX_MODEL;
  if (onnx) return detectFacesYolo(input.bytes, onnx);
  return quickWorker.run<Detection[]>('faces', input.bytes);
}

/** A square crop around a face, with context, as a size×size PNG (512 thumbnail, 1024 for face enhance). */
export async function cropFace(image: Uint8Array, bbox: Bbox, size: FaceCropSize): Promise<FaceCrop> {
  const input = await readImageInput(image);
  return cropFaceImpl(input.bytes, bbox, size);
}

/** One body in OpenPose's 18-joint candidate-and-subset form (no subset row when no joint is confident). */
export async function estimatePose(image: Uint8Array): Promise<PoseResult> {
  const input = await readImageInput(image);
  return quickWorker.run<PoseResult>('pose', input.bytes);
}

/** The image as a PNG with the background made transparent. Queued: one at a time per process. */
export async function removeBackground(
  image: Uint8Array,
  onProgress?: Progress,
  signal?: AbortSignal,
): Promise<Buffer> {
  const input = await readImageInput(image);
  return backgroundWorker.run<Buffer>('background', input.bytes, runOptions(onProgress, signal));
}

/** The image at twice its width and height, as a PNG; progress is reported per 128-px tile. */
export async function upscale(image: Uint8Array, onProgress?: Progress, signal?: AbortSignal): Promise<Buffer> {
  const input = await readImageInput(image, { maxSide: UPSCALE_MAX_SIDE, maxPixels: UPSCALE_MAX_PIXELS });
  return upscaleWorker.run<Buffer>('upscale', input.bytes, runOptions(onProgress, signal));
}

/** Calls the vision threads are working on now (for tests and health checks). */
export function visionCallsInFlight(): number {
  return quickWorker.callsInFlight + upscaleWorker.callsInFlight + backgroundWorker.callsInFlight;
}

/** Stops the vision threads and frees their models (server shutdown, end of tests). */
export async function closeVision(): Promise<void> {
  await Promise.all([quickWorker.close(), upscaleWorker.close(), backgroundWorker.close()]);
}

function runOptions(onProgress?: Progress, signal?: AbortSignal): RunOptions {
  return { ...(onProgress ? { onProgress } : {}), ...(signal ? { signal } : {}) };
}

/** The face at `index`, failing with the spec's messages: "No faces detected", "Face not detected". */
export function faceAt(faces: readonly Detection[], index: number): Detection {
  if (faces.length === 0) throw new VisionInputError('BAD_ARGUMENT', 'No faces detected');
  const face = faces[index];
  if (!face) throw new VisionInputError('BAD_ARGUMENT', 'Face not detected');
  return face;
}
