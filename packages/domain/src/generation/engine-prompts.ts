import type { ModelCatalogueEntry } from './model-catalogue.ts';
import { applyNegativeQualityTags, applyQualityTags } from './quality-tags.ts';

/** The prompt pair an engine receives: with the model's quality tags when the request asks for them. */
export function enginePrompts(
  model: ModelCatalogueEntry,
  prompt: string,
  negativePrompt: string,
  qualityTags: boolean,
): { prompt: string; negative_prompt: string } {
  if (!qualityTags) return { prompt, negative_prompt: negativePrompt };
  return { prompt: applyQualityTags(prompt, model), negative_prompt: applyNegativeQualityTags(negativePrompt, model) };
}
