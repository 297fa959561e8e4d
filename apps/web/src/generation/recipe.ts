// "Use these settings": a picture's recipe put back into the Prompt, Model and Settings tabs.
import { LORA_BASE_MODELS, findModelById, type DiffusionSettings, type LoraBaseModel } from '@koma/domain';
import type { Recipe } from './results.ts';
import type { GenerationSettings } from './settings.ts';

/**
 * The settings with the recipe's model (when it is a catalogue model), prompts, seed, steps, cfg, lightning,
 * quality tags and LoRAs; the comic preset is cleared, as the recipe's prompt already carries its words.
 */
export function settingsFromRecipe(settings: GenerationSettings, recipe: Recipe): GenerationSettings {
  const d = settings.diffusion;
  const model = findModelById(recipe.model);
  const lightning = (['none', 'lightning-2', 'lightning-4', 'lightning-8'] as const).find(
    (l) => l === recipe.lightning,
  );
  const isBase = (b: string): b is LoraBaseModel => (LORA_BASE_MODELS as readonly string[]).includes(b);
  const diffusion: DiffusionSettings = {
    ...d,
    ...(model ? { model: model.id } : {}),
    prompt: recipe.prompt,
    negativePrompt: recipe.negativePrompt,
    ...(recipe.seed !== null ? { seed: recipe.seed } : {}),
    ...(recipe.steps !== null && recipe.steps >= 1 ? { steps: Math.round(recipe.steps) } : {}),
    ...(recipe.cfg !== null ? { cfg: recipe.cfg } : {}),
    lightning: lightning ?? 'none',
    qualityTags: recipe.qualityTags,
    loras: recipe.loras.slice(0, 10).map((l) => ({
      name: l.name,
      url: l.url,
      strength: l.strength,
      baseModel: isBase(l.baseModel) ? l.baseModel : 'none',
    })),
  };
  return { ...settings, diffusion, comicPreset: null };
}
