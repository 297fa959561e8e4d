import { z } from 'zod';

/** Edit-by-instruction models, cheapest first; kontext-dev is the default (generation.md §3, §9). */
export const EDIT_MODEL_IDS = ['kontext-dev', 'kontext-pro', 'kontext-max', 'nano-banana'] as const;
export type EditModelId = (typeof EDIT_MODEL_IDS)[number];
export const zEditModelId = z.enum(EDIT_MODEL_IDS);
export const DEFAULT_EDIT_MODEL: EditModelId = 'kontext-dev';

/** An edit-by-instruction model: its credits per edit and the provider endpoint that runs it. */
export interface EditModel {
  readonly id: EditModelId;
  readonly name: string;
  readonly credits: number;
  readonly providerModelId: string;
}

export const EDIT_MODELS: readonly EditModel[] = [
  { id: 'kontext-dev', name: 'FLUX.1 Kontext [dev]', credits: 20, providerModelId: 'fal-ai/flux-kontext/dev' },
  { id: 'kontext-pro', name: 'FLUX.1 Kontext [pro]', credits: 40, providerModelId: 'fal-ai/flux-pro/kontext' },
  { id: 'kontext-max', name: 'FLUX.1 Kontext [max]', credits: 60, providerModelId: 'fal-ai/flux-pro/kontext/max' },
  { id: 'nano-banana', name: 'Nano Banana', credits: 150, providerModelId: 'fal-ai/nano-banana/edit' },
];

/** The edit model with this id, or undefined. */
export function findEditModel(id: string): EditModel | undefined {
  return EDIT_MODELS.find((m) => m.id === id);
}
