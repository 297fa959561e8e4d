import { z } from 'zod';
import { zLora } from './lora.ts';
import { findLoraById } from './lora-catalogue.ts';
import { findModelById } from './models.ts';
import { PRESET_ROWS } from './presets.data.ts';
import { perImageCost } from './costs.ts';

/** A comic preset (generation.md §3). */
export const zComicPreset = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  modelId: z.string().min(1),
  basePrompt: z.string().min(1),
  tags: z.array(z.string().min(1)),
  thumbnail: z.string().min(1),
  loras: z.array(zLora),
  previews: z.array(z.string().min(1)),
  recommended: z.boolean().optional(),
  credit: z.number().int().nonnegative().optional(),
});
export type ComicPreset = z.infer<typeof zComicPreset>;

const PREVIEWS_PER_PRESET = 4;

function build(row: (typeof PRESET_ROWS)[number]): ComicPreset {
  const model = findModelById(row.modelId);
  if (!model) throw new Error(`preset ${row.id}: unknown model ${row.modelId}`);
  const loras = row.loraIds.map((id) => {
    const entry = findLoraById(id);
    if (!entry) throw new Error(`preset ${row.id}: unknown LoRA ${id}`);
    const { name, civitaiModelId, thumbnailUrl, url, strength, baseModel } = entry;
    return { name, civitaiModelId, thumbnailUrl, url, strength, baseModel };
  });
  return {
    id: row.id,
    name: row.name,
    modelId: row.modelId,
    basePrompt: row.basePrompt,
    tags: [...row.tags],
    thumbnail: `/presets/${row.id}/thumbnail.webp`,
    loras,
    previews: Array.from({ length: PREVIEWS_PER_PRESET }, (_, i) => `/presets/${row.id}/preview_${i + 1}.webp`),
    ...(row.recommended === undefined ? {} : { recommended: row.recommended }),
    // Credit is derived from the model so the preset card can never disagree with what is charged.
    credit: perImageCost({ modelType: model.modelType, lightning: 'none' }),
  };
}

/** The 15 comic presets, in display order. */
export const COMIC_PRESETS: readonly ComicPreset[] = Object.freeze(PRESET_ROWS.map(build));

/** The preset with this id, or undefined. */
export function findComicPreset(id: string): ComicPreset | undefined {
  return COMIC_PRESETS.find((p) => p.id === id);
}
