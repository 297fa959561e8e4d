import { z } from 'zod';

/** Model families of the catalogue; each has its own credit cost and engine pipeline. */
export const MODEL_TYPES = ['sdxl', 'fluxdev', 'fluxdevmanga', 'fluxpro', 'fluxschnell', 'gpt'] as const;
export type ModelType = (typeof MODEL_TYPES)[number];
export const zModelType = z.enum(MODEL_TYPES);

/** Sampler schedulers named as the engines name them (fal `fal-ai/lora` spelling); `none` for API-only models. */
export const SCHEDULERS = ['Euler A', 'Euler', 'DPM++ 2M Karras', 'DPM++ 2M SDE Karras', 'none'] as const;
export type Scheduler = (typeof SCHEDULERS)[number];
