import { z } from 'zod';

/** OpenPose candidate: x and y as fractions of the layer size, a confidence score, and the candidate's index. */
export const zPoseCandidate = z.tuple([z.number(), z.number(), z.number(), z.number()]);
export type PoseCandidate = z.infer<typeof zPoseCandidate>;

/**
 * OpenPose body: `subset` rows hold 18 candidate indices (-1 = missing), then the total score and the part count.
 */
export const zPoseBody = z.object({
  candidate: z.array(zPoseCandidate),
  subset: z.array(z.array(z.number()).length(20, 'a subset row has 18 joints, a score and a count')),
});
export type PoseBody = z.infer<typeof zPoseBody>;

export const zPoseData = z.object({
  body: zPoseBody,
  pairedLayerId: z.string().nullable().default(null),
  forceFullBody: z.boolean().default(true),
});
export type PoseData = z.infer<typeof zPoseData>;
