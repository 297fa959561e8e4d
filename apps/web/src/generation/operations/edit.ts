// Edit by instruction (kontext, nano-banana): the instruction and edit model of the layer tab, into a variation.
import type { EditModelId } from '@koma/domain';
import { estimateMs } from '../processing.ts';
import { busy, currentImage, type OperationContext } from './context.ts';
import type { WebOperation } from './types.ts';

export function editPayload(
  ctx: OperationContext,
  layerId: string,
  prompt: string,
  model: EditModelId,
): Record<string, unknown> | null {
  const variationId = currentImage(ctx.session, layerId);
  return variationId ? { prompt, variationId, model } : null;
}

export async function edit(ctx: OperationContext, layerId: string, prompt: string, model: EditModelId): Promise<void> {
  const payload = editPayload(ctx, layerId, prompt, model);
  if (!payload || prompt.trim() === '' || busy(ctx.session, layerId)) return;
  await ctx.submit('edit', payload, estimateMs(1), { op: 'variations', layerId });
}

export const editOperation: WebOperation = { id: 'edit', kinds: ['edit'] };
