/** A detected box in pixels of the source image: [x0, y0, x1, y1] with x0 < x1, y0 < y1. */
export type Bbox = [number, number, number, number];

export interface Detection {
  bbox: Bbox;
  label: string;
  score: number;
}

/** Spec §generation: scores under 0.25 count as no detection; boxes overlapping by more than 0.7 are suppressed. */
export const FACE_SCORE_THRESHOLD = 0.25;
export const FACE_NMS_IOU = 0.7;

/** Intersection over union of two boxes; 0 when either is empty. */
export function iou(a: Bbox, b: Bbox): number {
  const iw = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const ih = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (iw <= 0 || ih <= 0) return 0;
  const inter = iw * ih;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
}

/** Greedy non-maximum suppression: keeps the best-scoring box of every group overlapping by more than `maxIou`. */
export function nonMaxSuppression<T extends { bbox: Bbox; score: number }>(items: readonly T[], maxIou: number): T[] {
  const sorted = [...items].sort((p, q) => q.score - p.score);
  const kept: T[] = [];
  for (const item of sorted) {
    if (kept.every((k) => iou(k.bbox, item.bbox) <= maxIou)) kept.push(item);
  }
  return kept;
}

/** Clamps a box to the image and rounds to 0.1 px so that results compare stably. */
export function clampBox(b: Bbox, width: number, height: number): Bbox {
  const r = (v: number, max: number) => Math.round(Math.min(Math.max(v, 0), max) * 10) / 10;
  return [r(b[0], width), r(b[1], height), r(b[2], width), r(b[3], height)];
}
