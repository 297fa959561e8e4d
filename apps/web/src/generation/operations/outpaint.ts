// Outpaint: the image grown by the chosen pixels on each side (128 unless chosen; at least 30 steps, strength 1,
// overlap 0.05, blur 20), into a placeholder layer covering the grown area. Nothing is sent when no side grows.
import {
  DEFAULT_OUTPAINT_PADDING,
  OUTPAINT_BLUR,
  OUTPAINT_DEFAULT_OVERLAP,
  OUTPAINT_MIN_STEPS,
  extendsSomething,
  normalizeOutpaintPadding,
  outpaintedTransform,
  type OutpaintPadding,
} from '@koma/domain';
import { paramsOf } from '../requests.ts';
import { busy, currentImage, imageLayer, type OperationContext } from './context.ts';
import { intoPlaceholder } from './placeholder.ts';
import type { WebOperation } from './types.ts';
import { promptFor } from './variations.ts';

/** The outpaint request of the layer's shown image grown by `padding`, or null for a layer with no data. */
export function outpaintPayload(ctx: OperationContext, layerId: string, padding: OutpaintPadding) {
  const node = imageLayer(ctx.session, layerId);
  const image = currentImage(ctx.session, layerId);
  if (!node || !image) return null;
  const d = ctx.settings.state.diffusion;
  return {
    image,
    model: d.model,
    prompt: promptFor(ctx, layerId),
    negative_prompt: d.negativePrompt,
    ...padding,
    overlap: OUTPAINT_DEFAULT_OVERLAP,
    blur: OUTPAINT_BLUR,
    steps: Math.max(OUTPAINT_MIN_STEPS, Math.min(30, d.steps)),
    seed: d.seed,
    loras: d.loras,
  };
}

export async function outpaint(
  ctx: OperationContext,
  layerId: string,
  sides: Partial<OutpaintPadding> = DEFAULT_OUTPAINT_PADDING,
): Promise<void> {
  const node = imageLayer(ctx.session, layerId);
  const padding = normalizeOutpaintPadding(sides);
  const payload = outpaintPayload(ctx, layerId, padding);
  if (!node || !payload || busy(ctx.session, layerId) || !extendsSomething(padding)) return;
  const transform = outpaintedTransform(node.transform, node.originalSize, padding);
  const d = ctx.settings.state.diffusion;
  const params = paramsOf(d, payload.prompt, 'inpaint', { strength: 1, srcLayerId: node.id, numImages: 1 });
  await intoPlaceholder(ctx, node, transform, 'outpaint', payload, params);
}

/** The price of an outpaint of the layer with the default padding (the padding never changes it). */
export function outpaintQuote(ctx: OperationContext, layerId: string): number | null {
  return ctx.quote('outpaint', outpaintPayload(ctx, layerId, normalizeOutpaintPadding(DEFAULT_OUTPAINT_PADDING)));
}

export const outpaintOperation: WebOperation = {
  id: 'outpaint',
  kinds: ['outpaint'],
  button: {
    testId: 'op-outpaint',
    label: 'generation.ops.outpaint',
    order: 5,
    credits: (ctx, node) => outpaintQuote(ctx, node.id),
    action: { form: 'outpaint' },
  },
};
