import { z } from 'zod';
import { DEFAULT_STRENGTH, OUTPAINT_BLUR, OUTPAINT_DEFAULT_OVERLAP } from '../../constants.ts';
import { zImageRef } from '../image-ref.ts';
import {
  zCfg,
  zControlnets,
  zIpAdapterImage,
  zIpAdapterStrength,
  zLightning,
  zLoras,
  zModelId,
  zNumImages,
  zOptionalPrompt,
  zPixels,
  zRequiredPrompt,
  zSeed,
  zSource,
  zSteps,
  zUnitStrength,
} from './fields.ts';

/** POST /api/diffusion/txt2img: the generation params plus seed, num_images, flow, add_lora_trigger_words. */
export const zTxt2ImgRequest = z.object({
  model: zModelId,
  prompt: zRequiredPrompt,
  negative_prompt: zOptionalPrompt,
  width: zPixels(512, 1536),
  height: zPixels(512, 1536),
  cfg: zCfg.optional(),
  steps: zSteps.optional(),
  seed: zSeed,
  num_images: zNumImages.optional(),
  loras: zLoras,
  lightning: zLightning,
  qualityTags: z.boolean().default(true),
  controlnets: zControlnets,
  ip_adapter_image: zIpAdapterImage,
  ip_adapter_strength: zIpAdapterStrength,
  flow: z.boolean().default(false),
  add_lora_trigger_words: z.boolean().default(true),
  source: zSource,
});
export type Txt2ImgRequest = z.infer<typeof zTxt2ImgRequest>;

/** POST /api/diffusion/img2img. */
export const zImg2ImgRequest = z.object({
  model: zModelId,
  prompt: zRequiredPrompt,
  negative_prompt: zOptionalPrompt,
  width: zPixels(256, 4096),
  height: zPixels(256, 4096),
  cfg: zCfg.optional(),
  steps: zSteps.optional(),
  seed: zSeed,
  num_images: zNumImages.optional(),
  strength: zUnitStrength.default(DEFAULT_STRENGTH),
  image: zImageRef,
  loras: zLoras,
  controlnets: zControlnets,
  lightning: zLightning,
  qualityTags: z.boolean().default(true),
  source: zSource,
});
export type Img2ImgRequest = z.infer<typeof zImg2ImgRequest>;

/** POST /api/diffusion/inpaint. Sizes need not be multiples of 8: normalisation rounds them down. */
export const zInpaintRequest = z.object({
  prompt: zOptionalPrompt,
  negative_prompt: zOptionalPrompt,
  model: zModelId,
  width: z.number().min(64).max(4096),
  height: z.number().min(64).max(4096),
  image: zImageRef,
  mask: zImageRef,
  num_images: zNumImages.optional(),
  strength: zUnitStrength.default(DEFAULT_STRENGTH),
  lightning: zLightning,
  ip_adapter_image: zIpAdapterImage,
  ip_adapter_strength: zIpAdapterStrength,
  loras: zLoras,
  steps: zSteps.optional(),
  cfg: zCfg.optional(),
  seed: zSeed,
});
export type InpaintRequest = z.infer<typeof zInpaintRequest>;

/** Refine: a light img2img pass over an image (path not in the spec). */
export const zRefineRequest = z.object({
  image: zImageRef,
  model: zModelId,
  prompt: zOptionalPrompt,
  negative_prompt: zOptionalPrompt,
  strength: zUnitStrength.default(0.75),
  seed: zSeed,
});
export type RefineRequest = z.infer<typeof zRefineRequest>;

/** Face edit: regenerate one detected face (path not in the spec); strength is a percentage. */
export const zFaceEditRequest = z.object({
  image: zImageRef,
  model: zModelId,
  prompt: zOptionalPrompt,
  negative_prompt: zOptionalPrompt,
  face_width: zPixels(256, 2048),
  face_height: zPixels(256, 2048),
  face_index: z.number().int().min(0).default(0),
  strength: z.number().min(0).max(100).default(50),
  seed: zSeed,
});
export type FaceEditRequest = z.infer<typeof zFaceEditRequest>;

/** Outpaint: extend an image by padding on each side (generation.md §9 defaults; path not in the spec). */
export const zOutpaintRequest = z
  .object({
    image: zImageRef,
    model: zModelId,
    prompt: zOptionalPrompt,
    negative_prompt: zOptionalPrompt,
    left: z.number().int().min(0).max(2048).default(0),
    top: z.number().int().min(0).max(2048).default(0),
    right: z.number().int().min(0).max(2048).default(0),
    bottom: z.number().int().min(0).max(2048).default(0),
    overlap: z.number().min(0).max(0.5).default(OUTPAINT_DEFAULT_OVERLAP),
    blur: z.number().min(0).max(200).default(OUTPAINT_BLUR),
    steps: zSteps.optional(),
    cfg: zCfg.optional(),
    seed: zSeed,
    loras: zLoras,
    qualityTags: z.boolean().default(true),
  })
  .superRefine((r, ctx) => {
    if (r.left + r.top + r.right + r.bottom === 0) {
      ctx.addIssue({ code: 'custom', path: ['left'], message: 'one of left, top, right or bottom must be above 0' });
    }
  });
export type OutpaintRequest = z.infer<typeof zOutpaintRequest>;
