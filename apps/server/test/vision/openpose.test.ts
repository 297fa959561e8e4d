import { describe, expect, it } from 'vitest';
import { cocoToOpenPose, OPENPOSE_JOINTS, type Keypoint } from '../../src/vision/openpose.ts';

/** 17 COCO keypoints where joint i sits at (i, 100 + i) with the given scores. */
function person(scores: number[] = Array<number>(17).fill(0.9)): Keypoint[] {
  return scores.map((score, i) => ({ x: i, y: 100 + i, score }));
}

describe('cocoToOpenPose', () => {
  it('orders 18 joints as OpenPose does, the neck being the shoulders midpoint', () => {
    const { candidate, subset } = cocoToOpenPose([person()]);
    expect(OPENPOSE_JOINTS).toHaveLength(18);
    expect(candidate).toHaveLength(18);
    expect(subset).toHaveLength(1);
    const row = subset[0] ?? [];
    expect(row).toHaveLength(20);
    const at = (joint: (typeof OPENPOSE_JOINTS)[number]) => candidate[row[OPENPOSE_JOINTS.indexOf(joint)] ?? -1];
    // COCO: 0 nose, 1 l-eye, 2 r-eye, 3 l-ear, 4 r-ear, 5 l-shoulder, 6 r-shoulder, ... 16 r-ankle.
    expect(at('nose')?.slice(0, 2)).toEqual([0, 100]);
    expect(at('neck')?.slice(0, 2)).toEqual([5.5, 105.5]);
    expect(at('right_shoulder')?.slice(0, 2)).toEqual([6, 106]);
    expect(at('left_shoulder')?.slice(0, 2)).toEqual([5, 105]);
    expect(at('right_wrist')?.slice(0, 2)).toEqual([10, 110]);
    expect(at('left_hip')?.slice(0, 2)).toEqual([11, 111]);
    expect(at('right_ankle')?.slice(0, 2)).toEqual([16, 116]);
    expect(at('right_eye')?.slice(0, 2)).toEqual([2, 102]);
    expect(at('left_ear')?.slice(0, 2)).toEqual([3, 103]);
    // Candidate ids are their own indices; the row ends with total score and joint count.
    candidate.forEach((c, i) => expect(c[3]).toBe(i));
    expect(row[19]).toBe(18);
    expect(row[18]).toBeCloseTo(18 * 0.9, 3);
  });

  it('marks joints under the threshold missing, and the neck missing without both shoulders', () => {
    const scores = Array<number>(17).fill(0.9);
    scores[6] = 0.1; // right shoulder
    scores[15] = 0.29; // left ankle
    const { candidate, subset } = cocoToOpenPose([person(scores)]);
    const row = subset[0] ?? [];
    expect(row[OPENPOSE_JOINTS.indexOf('right_shoulder')]).toBe(-1);
    expect(row[OPENPOSE_JOINTS.indexOf('neck')]).toBe(-1);
    expect(row[OPENPOSE_JOINTS.indexOf('left_ankle')]).toBe(-1);
    expect(row[19]).toBe(15);
    expect(candidate).toHaveLength(15);
  });

  it('numbers candidates across several people and skips a person with no confident joint', () => {
    const { candidate, subset } = cocoToOpenPose([person(), person(Array<number>(17).fill(0.05)), person()]);
    expect(subset).toHaveLength(2);
    expect(candidate).toHaveLength(36);
    expect(subset[1]?.[0]).toBe(18);
  });

  it('refuses a person without 17 keypoints', () => {
    expect(() => cocoToOpenPose([person().slice(0, 16)])).toThrow('Expected 17 COCO keypoints, got 16');
  });
});
