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

const BASE_MODEL_LABELS: Readonly<Record<LoraBaseModel, string>> = {
  none: 'None',
  sd: 'SD',
  sdxl: 'SDXL',
  fluxs: 'FLUX Schnell',
  fluxd: 'FLUX',
  fluxp: 'FLUX Pro',
  illustrious: 'Illustrious',
};

/** Display label of a LoRA base model; any value outside the list shows "Unknown". */
export function loraBaseModelLabel(baseModel: string): string {
  return Object.hasOwn(BASE_MODEL_LABELS, baseModel) ? BASE_MODEL_LABELS[baseModel as LoraBaseModel] : 'Unknown';
}

/** Categories a LoRA catalogue entry belongs to. */
export const LORA_CATEGORIES = ['general', 'character', 'concept', 'style'] as const;
export type LoraCategory = (typeof LORA_CATEGORIES)[number];

/** Filter choices of the LoRA browser: every category plus `all`. */
export const LORA_FILTERS = ['all', ...LORA_CATEGORIES] as const;
export type LoraFilter = (typeof LORA_FILTERS)[number];

/** A LoRA offered by the catalogue (`GET /api/lora/models?id=`): a LoRA plus its id, category and trigger words. */
export const zLoraCatalogueEntry = zLora.extend({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'lowercase letters, digits, _ and -'),
  category: z.enum(LORA_CATEGORIES),
  triggerWords: z.array(z.string().min(1)).readonly(),
  description: z.string(),
});
export type LoraCatalogueEntry = z.infer<typeof zLoraCatalogueEntry>;

/** Entries of a catalogue that pass a filter; `all` keeps everything. */
export function filterLoras<T extends { category: LoraCategory }>(entries: readonly T[], filter: LoraFilter): T[] {
  return filter === 'all' ? [...entries] : entries.filter((e) => e.category === filter);
}

/** Which LoRA base models can run on a catalogue model type (sdxl checkpoints take SDXL and Illustrious LoRAs). */
export const LORA_BASES_BY_MODEL_TYPE: Readonly<Record<string, readonly LoraBaseModel[]>> = {
  sdxl: ['sdxl', 'illustrious'],
  fluxdev: ['fluxd'],
  fluxdevmanga: ['fluxd'],
  fluxschnell: ['fluxs', 'fluxd'],
  fluxpro: ['fluxp'],
  gpt: [],
};
