import { z } from 'zod';
import { CONTROLNET_MODELS } from '../document/generation-params.ts';
import { zImageRef } from './image-ref.ts';

/** A controlnet input of a request (generation.md §3); unlike the saved form, its image may also be inline. */
export const zControlnetInput = z.object({
  model: z.enum(CONTROLNET_MODELS),
  image: zImageRef,
  strength: z.number().min(0),
});
export type ControlnetInput = z.infer<typeof zControlnetInput>;
