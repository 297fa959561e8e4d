// Refine: a light pass over the shown image with its own prompt, into a new variation.
import { estimateMs } from '../processing.ts';
import { busy, currentImage, type OperationContext } from './context.ts';
import { promptFor } from './variations.ts';
import type { WebOperation } from './types.ts';

export function refinePayload(ctx: OperationContext, layerId: string): Record<string, unknown> | null {
  const image = currentImage(ctx.session, layerId);
  if (!image) return null;
  const s = ctx.settings.state;
  return {
    image,
    model: s.diffusion.model,
    prompt: promptFor(ctx, layerId),
    negative_prompt: s.diffusion.negativePrompt,
    seed: s.diffusion.seed,
  };
}

export async function refine(ctx: OperationContext, layerId: string): Promise<void> {
  const payload = refinePayload(ctx, layerId);
  if (!payload || busy(ctx.session, layerId)) return;
  await ctx.submit('refine', payload, estimateMs(1), { op: 'variations', layerId });
}

export const refineOperation: WebOperation = {
  id: 'refine',
  kinds: ['refine'],
  button: {
    testId: 'op-refine',
    label: 'generation.ops.refine',
    order: 3,
    credits: (ctx, node) => ctx.quote('refine', refinePayload(ctx, node.id)),
    action: { start: (ctx, node) => void refine(ctx, node.id) },
  },
};
