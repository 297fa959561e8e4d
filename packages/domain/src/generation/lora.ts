import { z } from 'zod';

/** Base models a LoRA can be trained for; the saved value, not the label. */
export const LORA_BASE_MODELS = ['none', 'sd', 'sdxl', 'fluxs', 'fluxd', 'fluxp', 'illustrious'] as const;
export type LoraBaseModel = (typeof LORA_BASE_MODELS)[number];

export const zLora = z.object({
  name: z.string().min(1),
  civitaiModelId: z.string().nullable().optional(),
  thumbnailUrl: z.url().nullable().optional(),
  url: z.url(),
  strength: z.number().min(0),
  baseModel: z.enum(LORA_BASE_MODELS),
});
export type Lora = z.infer<typeof zLora>;
