import type { PoseBody, PoseCandidate } from './layers/pose.ts';

/** OpenPose's 18 keypoints, in its order. */
export const OPENPOSE_KEYPOINTS = [
  'nose',
  'neck',
  'right_shoulder',
  'right_elbow',
  'right_wrist',
  'left_shoulder',
  'left_elbow',
  'left_wrist',
  'right_hip',
  'right_knee',
  'right_ankle',
  'left_hip',
  'left_knee',
  'left_ankle',
  'right_eye',
  'left_eye',
  'right_ear',
  'left_ear',
] as const;

/** OpenPose limb pairs (keypoint indices) and their colours, as OpenPose draws them. */
export const OPENPOSE_LIMBS: readonly (readonly [number, number])[] = [
  [1, 2],
  [1, 5],
  [2, 3],
  [3, 4],
  [5, 6],
  [6, 7],
  [1, 8],
  [8, 9],
  [9, 10],
  [1, 11],
  [11, 12],
  [12, 13],
  [1, 0],
  [0, 14],
  [14, 16],
  [0, 15],
  [15, 17],
];
export const OPENPOSE_COLORS: readonly string[] = [
  '#ff0000',
  '#ff5500',
  '#ffaa00',
  '#ffff00',
  '#aaff00',
  '#55ff00',
  '#00ff00',
  '#00ff55',
  '#00ffaa',
  '#00ffff',
  '#00aaff',
  '#0055ff',
  '#0000ff',
  '#5500ff',
  '#aa00ff',
  '#ff00ff',
  '#ff00aa',
  '#ff0055',
];

/**
 * Each keypoint's mirror image: right and left trade places, the nose and neck stay. OpenPose colours a limb by the
 * side of the body it belongs to, and a detector looking at a mirrored figure sees its left arm as the right one.
 */
export const OPENPOSE_MIRROR: readonly number[] = [0, 1, 5, 6, 7, 2, 3, 4, 11, 12, 13, 8, 9, 10, 15, 14, 17, 16];

/** A subset row with its keypoints traded for their mirror images (score and part count kept). */
export function mirroredPoseRow(row: readonly number[]): number[] {
  return row.map((index, j) => (j < OPENPOSE_MIRROR.length ? (row[OPENPOSE_MIRROR[j]!] ?? -1) : index));
}

/** Builds an OpenPose body from 18 points (fractions of the layer size); null marks a missing joint. */
export function bodyFromPoints(points: readonly ([number, number] | null)[]): PoseBody {
  const candidate: PoseCandidate[] = [];
  const row: number[] = [];
  for (const point of points) {
    if (point) {
      row.push(candidate.length);
      candidate.push([point[0], point[1], 1, candidate.length]);
    } else row.push(-1);
  }
  row.push(candidate.length, candidate.length);
  return { candidate, subset: [row] };
}

const FULL_BODY: [number, number][] = [
  [0.5, 0.1],
  [0.5, 0.2],
  [0.38, 0.2],
  [0.33, 0.35],
  [0.3, 0.48],
  [0.62, 0.2],
  [0.67, 0.35],
  [0.7, 0.48],
  [0.43, 0.5],
  [0.42, 0.7],
  [0.42, 0.9],
  [0.57, 0.5],
  [0.58, 0.7],
  [0.58, 0.9],
  [0.48, 0.085],
  [0.52, 0.085],
  [0.45, 0.095],
  [0.55, 0.095],
];
const UPPER_BODY: ([number, number] | null)[] = [
  [0.5, 0.2],
  [0.5, 0.4],
  [0.3, 0.42],
  [0.22, 0.7],
  [0.2, 0.95],
  [0.7, 0.42],
  [0.78, 0.7],
  [0.8, 0.95],
  null,
  null,
  null,
  null,
  null,
  null,
  [0.46, 0.17],
  [0.54, 0.17],
  [0.41, 0.19],
  [0.59, 0.19],
];

/** The pose a new POSE layer starts with: a standing figure, whole or from the waist up. */
export function defaultPoseBody(fullBody: boolean): PoseBody {
  return bodyFromPoints(fullBody ? FULL_BODY : UPPER_BODY);
}
