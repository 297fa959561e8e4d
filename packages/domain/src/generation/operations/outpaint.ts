import { costOf } from '../costs.ts';
import { zOutpaintRequest, type OutpaintRequest } from '../requests/image-requests.ts';
import { normalizeModelSeeded, type NormalizeContext, resolveModel } from '../requests/normalize.ts';
import { defineOperation, promptOnly } from './define.ts';

/** Outpaint: the image grown by padding on each side (POST /api/diffusion/outpaint), one image. */
export const outpaint = defineOperation({
  kind: 'outpaint',
  endpoint: '/api/diffusion/outpaint',
  schema: zOutpaintRequest,
  normalize: (r: OutpaintRequest, ctx: NormalizeContext) => normalizeModelSeeded(r, ctx),
  price: (r) => costOf({ kind: 'outpaint', modelType: resolveModel(r.model).modelType, numImages: 1 }),
  prompts: promptOnly,
  async storeImages(r, store) {
    return { ...r, image: await store(r.image, 'image') };
  },
  model: (r) => r.model,
  engineKey: (r) => ({ task: 'outpaint', model: resolveModel(r.model).id }),
});
