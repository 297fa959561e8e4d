import { z } from 'zod';
import { zLora } from '../generation/lora.ts';
import { DEFAULT_CFG, DEFAULT_STEPS, DEFAULT_STRENGTH, RANDOM_SEED } from '../constants.ts';

export const GENERATION_TYPES = ['txt2img', 'img2img', 'inpaint', 'face enhance', 'upscale'] as const;
export type GenerationType = (typeof GENERATION_TYPES)[number];

export const LIGHTNING_OPTIONS = ['none', 'lightning-2', 'lightning-4', 'lightning-8'] as const;
export type Lightning = (typeof LIGHTNING_OPTIONS)[number];

export const CONTROLNET_MODELS = ['controlnet-openpose', 'controlnet-anytest'] as const;

export const zControlnet = z.object({
  model: z.enum(CONTROLNET_MODELS),
  /** Image id of the control image. */
  image: z.string().min(1),
  strength: z.number().min(0),
});
export type Controlnet = z.infer<typeof zControlnet>;

export const DEFAULT_MODEL_ID = 'animaginexl4.0';

/** The parameters an IMAGE layer was generated with (editor.md §3), kept so it can be regenerated. */
export const zGenerationParams = z.object({
  model: z.string().min(1).default(DEFAULT_MODEL_ID),
  type: z.enum(GENERATION_TYPES).default('txt2img'),
  prompt: z.string().default(''),
  negative_prompt: z.string().default(''),
  width: z.number().int().positive().default(1024),
  height: z.number().int().positive().default(1024),
  cfg: z.number().min(0).default(DEFAULT_CFG),
  steps: z.number().int().positive().default(DEFAULT_STEPS),
  seed: z.number().int().min(RANDOM_SEED).default(RANDOM_SEED),
  numImages: z.number().int().positive().default(1),
  loras: z.array(zLora).default([]),
  lightning: z.enum(LIGHTNING_OPTIONS).default('none'),
  qualityTags: z.boolean().default(true),
  strength: z.number().min(0).max(1).default(DEFAULT_STRENGTH),
  ip_adapter_image: z.string().nullable().default(null),
  ip_adapter_strength: z.number().min(0).default(DEFAULT_STRENGTH),
  controlnets: z.array(zControlnet).default([]),
  inpaintMask: z.string().nullable().default(null),
  srcLayerId: z.string().nullable().default(null),
  referenceImages: z.array(z.string()).default([]),
});
export type GenerationParams = z.infer<typeof zGenerationParams>;
