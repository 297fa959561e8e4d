// Regenerating an image layer from its own stored parameters: by their type (txt2img, inpaint, face enhance), with
// the seed plus the count of variations the layer already has (editor.md §4).
import { FACE_ENHANCE_CROP_SIZE, PANEL_GENERATE_KEEP_VARIATIONS, type OperationKind } from '@koma/domain';
import type { JobOp } from '../jobs.ts';
import { estimateMs, regenerationSeed } from '../processing.ts';
import { regenerateTxt2img } from '../requests.ts';
import { busy, imageLayer, type OperationContext } from './context.ts';
import type { WebOperation } from './types.ts';

/** The face-enhance request of one face of an image, with the Settings tab's face prompt and strength. */
export function faceEditPayload(
  ctx: OperationContext,
  image: string,
  faceIndex: number,
  seed: number,
): Record<string, unknown> {
  const s = ctx.settings.state;
  return {
    image,
    model: s.diffusion.model,
    prompt: s.face.prompt,
    negative_prompt: s.face.negativePrompt,
    face_width: FACE_ENHANCE_CROP_SIZE,
    face_height: FACE_ENHANCE_CROP_SIZE,
    face_index: faceIndex,
    strength: Math.round(s.face.strength * 100),
    seed,
  };
}

/** The request that regenerates a layer with its own stored settings, or null (no settings, no source image). */
export function regenerateRequest(
  ctx: OperationContext,
  layerId: string,
): { kind: OperationKind; payload: Record<string, unknown>; estimate: number; job: JobOp } | null {
  const { session } = ctx;
  const node = imageLayer(session, layerId);
  const params = node?.data.params;
  if (!node || !params) return null;
  const count = node.data.variations.length;
  const keepLast =
    node.clipTarget && session.editor.doc.layers[node.clipTarget]?.type === 'PANEL'
      ? PANEL_GENERATE_KEEP_VARIATIONS
      : undefined;
  const seed = regenerationSeed(params.seed, count);
  const job: JobOp = { op: 'generate', layerId, created: false, params, ...(keepLast ? { keepLast } : {}) };
  if (params.type === 'inpaint' && params.inpaintMask && params.referenceImages[0]) {
    const payload = {
      prompt: params.prompt,
      negative_prompt: params.negative_prompt,
      model: params.model,
      width: params.width,
      height: params.height,
      image: params.referenceImages[0],
      mask: params.inpaintMask,
      num_images: params.numImages,
      strength: params.strength,
      lightning: params.lightning,
      loras: params.loras,
      steps: params.steps,
      cfg: params.cfg,
      seed,
    };
    return { kind: 'inpaint', payload, estimate: estimateMs(params.numImages), job };
  }
  if (params.type === 'face enhance' && params.referenceImages[0]) {
    const payload = faceEditPayload(ctx, params.referenceImages[0], 0, seed);
    return { kind: 'face_edit', payload, estimate: estimateMs(1), job };
  }
  return { kind: 'txt2img', payload: regenerateTxt2img(params, count), estimate: estimateMs(params.numImages), job };
}

/**
 * "Regenerate with its settings": the layer's own stored parameters by their type (txt2img, inpaint, face
 * enhance), seed + the count of variations; a panel's image keeps its last 4. The one action that does not send
 * what the tabs show — it says so on its button, with its own price.
 */
export async function regenerate(ctx: OperationContext, layerId: string): Promise<void> {
  const request = regenerateRequest(ctx, layerId);
  if (!request || busy(ctx.session, layerId)) return;
  await ctx.submit(request.kind, request.payload, request.estimate, request.job);
}

export const regenerateOperation: WebOperation = {
  id: 'regenerate',
  kinds: ['txt2img', 'inpaint', 'face_edit'],
  button: {
    testId: 'op-regenerate',
    label: 'generation.request.regenerateWithIts',
    order: 0,
    shown: (node) => Boolean(node.data.params),
    credits: (ctx, node) => {
      const request = regenerateRequest(ctx, node.id);
      return request ? ctx.quote(request.kind, request.payload) : null;
    },
    action: { start: (ctx, node) => void regenerate(ctx, node.id) },
  },
};
