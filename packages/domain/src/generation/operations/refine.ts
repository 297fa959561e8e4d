import { costOf } from '../costs.ts';
import { zRefineRequest, type RefineRequest } from '../requests/image-requests.ts';
import { normalizeModelSeeded, type NormalizeContext, resolveModel } from '../requests/normalize.ts';
import { defineOperation, promptOnly } from './define.ts';

/** Refine: a light img2img pass over an image at the model's default steps (POST /api/diffusion/refine). */
export const refine = defineOperation({
  kind: 'refine',
  endpoint: '/api/diffusion/refine',
  schema: zRefineRequest,
  normalize: (r: RefineRequest, ctx: NormalizeContext) => normalizeModelSeeded(r, ctx),
  price: (r) => costOf({ kind: 'refine', modelType: resolveModel(r.model).modelType, numImages: 1 }),
  prompts: promptOnly,
  async storeImages(r, store) {
    return { ...r, image: await store(r.image, 'image') };
  },
  model: (r) => r.model,
  engineKey: (r) => ({ task: 'img2img', model: resolveModel(r.model).id }),
});
