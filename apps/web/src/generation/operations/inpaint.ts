// Inpaint the painted mask of an image layer into a placeholder layer above it; a failure removes the placeholder.
import { api } from '../../api/endpoints.ts';
import { gridSize, maskBounds, renderMask } from '../mask.ts';
import { fullPrompt, paramsOf } from '../requests.ts';
import { busy, currentImage, imageLayer, type OperationContext } from './context.ts';
import { intoPlaceholder } from './placeholder.ts';
import type { WebOperation } from './types.ts';

/** What the inpaint form's prompt starts with: the layer's own prompt. */
export function inpaintPromptOf(ctx: OperationContext, layerId: string): string {
  return imageLayer(ctx.session, layerId)?.data.params?.prompt ?? '';
}

/**
 * The inpaint request of the layer from its painted mask (the mask itself still to render) with the prompt typed
 * in the inpaint form — empty falls back to the Prompt tab's (editor.md §5); null without a mask or data.
 */
export function inpaintPayload(ctx: OperationContext, layerId: string, typed: string) {
  const node = imageLayer(ctx.session, layerId);
  const image = currentImage(ctx.session, layerId);
  if (!node || !image || !maskBounds(node.data.maskParams.mask)) return null;
  const d = ctx.settings.state.diffusion;
  return {
    prompt: typed.trim() === '' ? fullPrompt(ctx.settings.state) : typed,
    negative_prompt: d.negativePrompt,
    model: d.model,
    width: gridSize(node.originalSize.width),
    height: gridSize(node.originalSize.height),
    image,
    mask: 'MASK',
    num_images: d.batchSize,
    strength: d.inpaintStrength,
    lightning: d.lightning,
    ip_adapter_image: d.ipAdapterImage,
    ip_adapter_strength: d.ipAdapterStrength,
    loras: d.loras,
    steps: d.lightning === 'none' ? d.steps : undefined,
    cfg: d.lightning === 'none' ? d.cfg : undefined,
    seed: d.seed,
  };
}

export async function inpaint(ctx: OperationContext, layerId: string, typed: string): Promise<void> {
  const node = imageLayer(ctx.session, layerId);
  const base = inpaintPayload(ctx, layerId, typed);
  if (!node || !base || busy(ctx.session, layerId)) return;
  const prompt = base.prompt;
  // The mask is stored first, so the layer can keep its id for regeneration (not a data URL in the document).
  let mask = renderMask(node.data.maskParams, node.originalSize);
  try {
    mask = (await api.images.upload(mask.slice(mask.indexOf(',') + 1), 'png')).id;
  } catch (error) {
    console.error('Upload failed', error); // the request still carries the mask inline
  }
  const payload = { ...base, prompt, mask };
  const params = paramsOf(ctx.settings.state.diffusion, prompt, 'inpaint', {
    inpaintMask: mask.startsWith('data:') ? null : mask,
    width: Number(payload.width),
    height: Number(payload.height),
    strength: ctx.settings.state.diffusion.inpaintStrength,
    srcLayerId: node.id,
    referenceImages: [String(payload.image)],
  });
  await intoPlaceholder(ctx, node, node.transform, 'inpaint', payload, params);
}

export const inpaintOperation: WebOperation = {
  id: 'inpaint',
  kinds: ['inpaint'],
  button: {
    testId: 'op-inpaint',
    label: 'generation.ops.inpaint',
    order: 4,
    ready: (_ctx, node) => maskBounds(node.data.maskParams.mask) !== null,
    hint: 'generation.ops.inpaintHint',
    credits: (ctx, node) => {
      const payload = inpaintPayload(ctx, node.id, inpaintPromptOf(ctx, node.id));
      return payload ? ctx.quote('inpaint', payload) : null;
    },
    action: { form: 'inpaint' },
  },
};
