import type { LoraCatalogueEntry } from './lora.ts';
import { LORA_CATALOGUE } from './loras.data.ts';

const byId = new Map(LORA_CATALOGUE.map((l) => [l.id, l]));

/** The catalogue LoRA with this id (`GET /api/lora/models?id=`), or undefined. */
export function findLoraById(id: string): LoraCatalogueEntry | undefined {
  return byId.get(id);
}
