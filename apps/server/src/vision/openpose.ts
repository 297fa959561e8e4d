import { OPENPOSE_KEYPOINTS } from '@koma/domain';

/** A keypoint in COCO order as MoveNet gives it: pixels of the source image and a confidence in [0, 1]. */
export interface Keypoint {
  x: number;
  y: number;
  score: number;
}

/** OpenPose candidate row: x, y (source pixels), score, id (its index in the candidate list). */
export type Candidate = [number, number, number, number];

/**
 * OpenPose body in the candidate-and-subset form of the ControlNet annotators: `subset` has one row per person of
 * 20 numbers, the candidate id of each of the 18 joints (-1 when missing), the total score and the joint count.
 */
export interface OpenPoseBodies {
  candidate: Candidate[];
  subset: number[][];
}

/** OpenPose's 18 joints in order; one list shared with the document's pose layers. */
export const OPENPOSE_JOINTS = OPENPOSE_KEYPOINTS;

/** For each OpenPose joint, its COCO-17 index; the neck (-1) is derived from both shoulders. */
const COCO_FOR_OPENPOSE = [0, -1, 6, 8, 10, 5, 7, 9, 12, 14, 16, 11, 13, 15, 2, 1, 4, 3] as const;
const COCO_LEFT_SHOULDER = 5;
const COCO_RIGHT_SHOULDER = 6;

/** Below this MoveNet confidence a joint is reported missing. */
export const POSE_MIN_SCORE = 0.3;

/** Maps people given as 17 COCO keypoints each to OpenPose's 18-joint candidate-and-subset form. */
export function cocoToOpenPose(people: readonly (readonly Keypoint[])[], minScore = POSE_MIN_SCORE): OpenPoseBodies {
  const candidate: Candidate[] = [];
  const subset: number[][] = [];
  for (const kps of people) {
    if (kps.length !== 17) throw new Error(`Expected 17 COCO keypoints, got ${kps.length}`);
    const row: number[] = [];
    let total = 0;
    let count = 0;
    for (const coco of COCO_FOR_OPENPOSE) {
      let point: Keypoint | undefined;
      if (coco === -1) {
        const l = kps[COCO_LEFT_SHOULDER];
        const r = kps[COCO_RIGHT_SHOULDER];
        // The neck exists only when both shoulders do; its confidence is the weaker shoulder's.
        if (l && r && l.score >= minScore && r.score >= minScore) {
          point = { x: (l.x + r.x) / 2, y: (l.y + r.y) / 2, score: Math.min(l.score, r.score) };
        }
      } else {
        const k = kps[coco];
        if (k && k.score >= minScore) point = k;
      }
      if (!point) {
        row.push(-1);
        continue;
      }
      const id = candidate.length;
      candidate.push([round(point.x), round(point.y), round(point.score, 1000), id]);
      row.push(id);
      total += point.score;
      count++;
    }
    if (count === 0) continue;
    subset.push([...row, round(total, 1000), count]);
  }
  return { candidate, subset };
}

function round(v: number, scale = 10): number {
  return Math.round(v * scale) / scale;
}
