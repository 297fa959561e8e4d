import { clampBox, FACE_NMS_IOU, FACE_SCORE_THRESHOLD, nonMaxSuppression, type Detection } from './boxes.ts';

/** Spec §9: the face model takes 640×640 and yields 8400 candidates (80² + 40² + 20² anchors of YOLOv8). */
export const YOLO_INPUT_SIZE = 640;
export const YOLO_CANDIDATES = 8400;

/** How the source image was fitted into the square model input: scaled by `scale`, then padded. */
export interface Letterbox {
  scale: number;
  padX: number;
  padY: number;
  width: number;
  height: number;
}

export function letterboxFor(width: number, height: number, size = YOLO_INPUT_SIZE): Letterbox {
  const scale = Math.min(size / width, size / height);
  return {
    scale,
    padX: Math.floor((size - Math.round(width * scale)) / 2),
    padY: Math.floor((size - Math.round(height * scale)) / 2),
    width,
    height,
  };
}

export interface YoloDecodeOptions {
  scoreThreshold?: number;
  iouThreshold?: number;
  label?: string;
}

/**
 * Decodes a YOLOv8-style head: `data` holds `dims` = [1, C, 8400] (channel-major, the ultralytics export) or
 * [1, 8400, C]; rows 0–3 are cx, cy, w, h in input pixels and row 4 the face score (rows after it, such as
 * landmarks, are ignored). Boxes are mapped back through the letterbox, filtered, and suppressed.
 */
export function decodeYoloFaces(
  data: Float32Array,
  dims: readonly number[],
  box: Letterbox,
  options: YoloDecodeOptions = {},
): Detection[] {
  const scoreThreshold = options.scoreThreshold ?? FACE_SCORE_THRESHOLD;
  const iouThreshold = options.iouThreshold ?? FACE_NMS_IOU;
  const label = options.label ?? 'face';
  if (dims.length !== 3 || dims[0] !== 1) throw new Error(`Unexpected YOLO output shape [${dims.join(', ')}]`);
  const [, a = 0, b = 0] = dims;
  const channelMajor = b === YOLO_CANDIDATES || (a !== YOLO_CANDIDATES && a < b);
  const channels = channelMajor ? a : b;
  const count = channelMajor ? b : a;
  if (channels < 5) throw new Error(`YOLO output needs at least 5 channels, got ${channels}`);
  if (data.length < channels * count) throw new Error('YOLO output is shorter than its shape');
  const at = channelMajor
    ? (c: number, i: number) => data[c * count + i] ?? 0
    : (c: number, i: number) => data[i * channels + c] ?? 0;

  const found: Detection[] = [];
  for (let i = 0; i < count; i++) {
    const score = at(4, i);
    if (!(score >= scoreThreshold)) continue;
    const cx = at(0, i);
    const cy = at(1, i);
    const w = at(2, i);
    const h = at(3, i);
    const x0 = (cx - w / 2 - box.padX) / box.scale;
    const y0 = (cy - h / 2 - box.padY) / box.scale;
    const x1 = (cx + w / 2 - box.padX) / box.scale;
    const y1 = (cy + h / 2 - box.padY) / box.scale;
    const bbox = clampBox([x0, y0, x1, y1], box.width, box.height);
    if (bbox[2] - bbox[0] <= 0 || bbox[3] - bbox[1] <= 0) continue;
    found.push({ bbox, label, score });
  }
  return nonMaxSuppression(found, iouThreshold);
}
