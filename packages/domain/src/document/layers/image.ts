import { z } from 'zod';
import { zStroke } from '../geometry.ts';
import { zGenerationParams } from '../generation-params.ts';
import { INPAINT_MASK_DEFAULT_BLUR } from '../../constants.ts';

/** One generated or uploaded version of an image layer. Pixels live in image storage; the document keeps the id. */
export const zVariation = z.object({ id: z.string().min(1) });
export type Variation = z.infer<typeof zVariation>;

export const zFaceDetection = z.object({
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  label: z.string(),
  score: z.number().min(0).max(1),
});
export type FaceDetection = z.infer<typeof zFaceDetection>;

export const zFilterParams = z.object({
  exposure: z.number().default(0),
  contrast: z.number().default(1),
  highlights: z.number().default(0),
  shadows: z.number().default(0),
  whites: z.number().default(1),
  blacks: z.number().default(1),
  vignette: z.number().default(0),
  grain: z.number().default(0),
  saturation: z.number().default(1),
});
export type FilterParams = z.infer<typeof zFilterParams>;
export const DEFAULT_FILTER_PARAMS: FilterParams = zFilterParams.parse({});

export const zMaskParams = z.object({
  /** Brush strokes in the image's own pixel space; white where the engine may paint. */
  mask: z.array(zStroke).default([]),
  maskImage: z.string().nullable().default(null),
  blurRadius: z.number().min(0).default(INPAINT_MASK_DEFAULT_BLUR),
  feathering: z.number().min(0).max(1).default(0),
  fullImage: z.boolean().default(false),
});
export type MaskParams = z.infer<typeof zMaskParams>;

/**
 * A clip made from the image by image-to-video. The bytes belong to the user and are served by the API
 * (`GET /api/videos/{id}`); the document keeps the id and what is needed to show it.
 */
export const zLayerVideo = z.object({
  id: z.string().min(1),
  /** `video/mp4` from a video model, `image/webp` for the builtin engine's animated preview. */
  mime: z.string().min(1),
  model: z.string().min(1),
  /** Seconds asked for. */
  duration: z.number().positive(),
  engine: z.string().default(''),
  /** What the engine says about the clip (the builtin one says it is not a video model). */
  note: z.string().nullable().default(null),
  /** The variation the clip starts from. */
  imageId: z.string().nullable().default(null),
});
export type LayerVideo = z.infer<typeof zLayerVideo>;

export const zImageData = z
  .object({
    params: zGenerationParams.nullable().default(null),
    variations: z.array(zVariation).default([]),
    variationsIdx: z.number().int().min(0).default(0),
    faceStore: z.record(z.string(), z.array(zFaceDetection)).default({}),
    filterParams: zFilterParams.default(() => ({ ...DEFAULT_FILTER_PARAMS })),
    maskParams: zMaskParams.default(() => zMaskParams.parse({})),
    /** Oldest first; added after the fact, so documents saved before it load with none. */
    videos: z.array(zLayerVideo).default([]),
  })
  .refine((d) => d.variations.length === 0 || d.variationsIdx < d.variations.length, {
    message: 'variationsIdx must point at an existing variation',
    path: ['variationsIdx'],
  });
export type ImageData = z.infer<typeof zImageData>;
