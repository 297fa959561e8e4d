// Variations of the shown image: img2img at strength 0.5, 4 images, added to the layer as new variations.
import { VARIATIONS_NUM_IMAGES, VARIATIONS_STRENGTH } from '@koma/domain';
import { estimateMs } from '../processing.ts';
import { fullPrompt } from '../requests.ts';
import { effectiveSampling } from '../settings.ts';
import { busy, currentImage, imageLayer, type OperationContext } from './context.ts';
import type { WebOperation } from './types.ts';

/** The prompt an operation on an image sends: the Prompt tab's, or the image's own when the tab is empty. */
export function promptFor(ctx: OperationContext, layerId: string): string {
  return fullPrompt(ctx.settings.state) || imageLayer(ctx.session, layerId)?.data.params?.prompt || '';
}

/**
 * The variations request of the layer's shown image, or null for a layer with no data: img2img at strength 0.5,
 * 4 images, with everything else as the Prompt, Model and Settings tabs show it (model, prompt, negative prompt,
 * steps, cfg, lightning, LoRAs, seed, quality tags); an empty Prompt tab uses the image's own prompt.
 */
export function variationsPayload(ctx: OperationContext, layerId: string): Record<string, unknown> | null {
  const node = imageLayer(ctx.session, layerId);
  const image = currentImage(ctx.session, layerId);
  if (!node || !image) return null;
  const d = ctx.settings.state.diffusion;
  const clamp = (v: number) => Math.min(4096, Math.max(256, Math.round(v)));
  return {
    model: d.model,
    prompt: promptFor(ctx, layerId) || 'variation',
    negative_prompt: d.negativePrompt,
    width: clamp(node.originalSize.width),
    height: clamp(node.originalSize.height),
    ...effectiveSampling(d),
    seed: d.seed,
    num_images: VARIATIONS_NUM_IMAGES,
    strength: VARIATIONS_STRENGTH,
    image,
    loras: d.loras,
    lightning: d.lightning,
    qualityTags: d.qualityTags,
  };
}

export async function variations(ctx: OperationContext, layerId: string): Promise<void> {
  const payload = variationsPayload(ctx, layerId);
  if (!payload || busy(ctx.session, layerId)) return;
  await ctx.submit('img2img', payload, estimateMs(VARIATIONS_NUM_IMAGES), { op: 'variations', layerId });
}

export const variationsOperation: WebOperation = {
  id: 'variations',
  kinds: ['img2img'],
  button: {
    testId: 'op-variations',
    label: 'generation.ops.variations',
    order: 1,
    credits: (ctx, node) => ctx.quote('img2img', variationsPayload(ctx, node.id)),
    action: { start: (ctx, node) => void variations(ctx, node.id) },
  },
};
