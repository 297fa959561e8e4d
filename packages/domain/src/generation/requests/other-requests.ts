import { z } from 'zod';
import { UPSCALE_FACTOR } from '../../constants.ts';
import { DEFAULT_EDIT_MODEL, zEditModelId } from '../edit-models.ts';
import { zImageRef } from '../image-ref.ts';
import { VIDEO_MODELS, zVideoModelId } from '../video-models.ts';
import { zOptionalPrompt, zRequiredPrompt, zSeed } from './fields.ts';

/** POST /api/edit: edit a variation by instruction. */
export const zEditRequest = z.object({
  prompt: zRequiredPrompt,
  variationId: z.string().min(1),
  model: zEditModelId.default(DEFAULT_EDIT_MODEL),
});
export type EditRequest = z.infer<typeof zEditRequest>;

/** Prompt expansion: ask for num_sequences rewrites of a prompt. */
export const zPromptExpansionRequest = z.object({
  prompt: zRequiredPrompt,
  num_sequences: z.number().int().min(1).max(10).default(1),
});
export type PromptExpansionRequest = z.infer<typeof zPromptExpansionRequest>;

/** Image-to-video; duration in whole seconds, one of the model's durations (its first when omitted). */
export const zVideoRequest = z
  .object({
    image: zImageRef,
    model: zVideoModelId,
    prompt: zOptionalPrompt,
    duration: z.number().int().positive().optional(),
    end_image: zImageRef.nullable().default(null),
    seed: zSeed,
  })
  .superRefine((r, ctx) => {
    const model = VIDEO_MODELS.find((m) => m.id === r.model);
    if (!model) return;
    if (r.duration !== undefined && !model.durations.includes(r.duration)) {
      ctx.addIssue({
        code: 'custom',
        path: ['duration'],
        message: `must be one of ${model.durations.join(', ')} seconds for ${model.id}`,
      });
    }
    if (r.end_image !== null && !model.supports_end_frame) {
      ctx.addIssue({ code: 'custom', path: ['end_image'], message: `is not supported by ${model.id}` });
    }
  });
export type VideoRequest = z.infer<typeof zVideoRequest>;

/** POST /api/upscale. */
export const zUpscaleRequest = z.object({
  image: zImageRef,
  scale: z.number().min(1).max(4).default(UPSCALE_FACTOR),
});
export type UpscaleRequest = z.infer<typeof zUpscaleRequest>;

/** POST /api/background and POST /api/pose take one image. */
export const zImageOnlyRequest = z.object({ image: zImageRef });
export type ImageOnlyRequest = z.infer<typeof zImageOnlyRequest>;

/** POST /api/face_detection. */
export const zFaceDetectionRequest = z.object({ variationId: z.string().min(1) });
export type FaceDetectionRequest = z.infer<typeof zFaceDetectionRequest>;
