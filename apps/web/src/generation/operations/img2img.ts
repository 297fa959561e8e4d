// Image to image with the Prompt tab's prompt and the Settings tab's img2img strength, into new variations.
import { estimateMs } from '../processing.ts';
import { fullPrompt } from '../requests.ts';
import { busy, type OperationContext } from './context.ts';
import type { WebOperation } from './types.ts';
import { variationsPayload } from './variations.ts';

export async function img2img(ctx: OperationContext, layerId: string): Promise<void> {
  const base = variationsPayload(ctx, layerId);
  const s = ctx.settings.state;
  if (!base || busy(ctx.session, layerId) || s.diffusion.prompt.trim() === '') return;
  const payload = {
    ...base,
    prompt: fullPrompt(s),
    num_images: s.diffusion.batchSize,
    strength: s.diffusion.img2imgStrength,
  };
  await ctx.submit('img2img', payload, estimateMs(s.diffusion.batchSize), { op: 'variations', layerId });
}

export const img2imgOperation: WebOperation = {
  id: 'img2img',
  kinds: ['img2img'],
  button: {
    testId: 'op-img2img',
    label: 'generation.ops.img2img',
    order: 2,
    ready: (ctx) => ctx.settings.state.diffusion.prompt.trim() !== '',
    action: { start: (ctx, node) => void img2img(ctx, node.id) },
  },
};
