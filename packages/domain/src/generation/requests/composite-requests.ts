import { z } from 'zod';
import { zImageRef } from '../image-ref.ts';
import { MAX_BRUSHES, MAX_REGIONS, zOptionalPrompt, zPixels, zRequiredPrompt, zSeed } from './fields.ts';

const zBrush = z.object({
  prompt: zRequiredPrompt,
  negativePrompt: zOptionalPrompt,
  mask: zImageRef,
});

/**
 * POST /api/diffusion/smd: brush-based (sketch-map) generation. At least one brush: without one there is nothing
 * for the brush pipeline to do, and every engine refuses it, so it is refused here, before anything is charged.
 */
export const zSmdRequest = z.object({
  backgroundPrompt: zRequiredPrompt,
  backgroundNegativePrompt: zRequiredPrompt,
  brushes: z.array(zBrush).min(1).max(MAX_BRUSHES),
  seed: zSeed,
  width: zPixels(256, 2048),
  height: zPixels(256, 2048),
});
export type SmdRequest = z.infer<typeof zSmdRequest>;

/** Region corners are fractions of the image (0 = left or top edge, 1 = right or bottom edge). */
const zFraction = z.number().min(0).max(1);

const zRegion = z
  .object({
    x0: zFraction,
    x1: zFraction,
    y0: zFraction,
    y1: zFraction,
    prompt: zRequiredPrompt,
    negative_prompt: zRequiredPrompt,
  })
  .superRefine((r, ctx) => {
    if (r.x1 <= r.x0) ctx.addIssue({ code: 'custom', path: ['x1'], message: 'must be greater than x0' });
    if (r.y1 <= r.y0) ctx.addIssue({ code: 'custom', path: ['y1'], message: 'must be greater than y0' });
  });

/** POST /api/regional. */
export const zRegionalRequest = z.object({
  prompt: zRequiredPrompt,
  width: zPixels(256, 2048),
  height: zPixels(256, 2048),
  regions: z.array(zRegion).min(1).max(MAX_REGIONS),
  seed: zSeed,
});
export type RegionalRequest = z.infer<typeof zRegionalRequest>;
