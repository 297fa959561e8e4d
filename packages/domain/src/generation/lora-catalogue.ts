import type { LoraCatalogueEntry } from './lora.ts';
import { LORA_CATALOGUE } from './loras.data.ts';

const byId = new Map(LORA_CATALOGUE.map((l) => [l.id, l]));

/** The catalogue LoRA with this id (`GET /api/lora/models?id=`), or undefined. */
export function findLoraById(id: string): LoraCatalogueEntry | undefined {
  return byId.get(id);
}

const byUrl = new Map(LORA_CATALOGUE.map((l) => [l.url, l]));

/** Trigger words of the catalogue LoRAs among `loras` (matched by url); LoRAs from elsewhere have none known. */
export function loraTriggerWords(loras: readonly { url: string }[]): string[] {
  return loras.flatMap((l) => byUrl.get(l.url)?.triggerWords ?? []);
}

/** Appends the trigger words the prompt does not already contain (for `add_lora_trigger_words`). */
export function withLoraTriggerWords(prompt: string, loras: readonly { url: string }[]): string {
  const lower = prompt.toLowerCase();
  const missing = [...new Set(loraTriggerWords(loras))].filter((w) => !lower.includes(w.toLowerCase()));
  if (missing.length === 0) return prompt;
  return prompt.trim() === '' ? missing.join(', ') : `${prompt}, ${missing.join(', ')}`;
}
