import { costOf } from '../costs.ts';
import { zInpaintRequest } from '../requests/image-requests.ts';
import { normalizeInpaint, resolveModel } from '../requests/normalize.ts';
import { defineOperation, promptOnly, storeOptional } from './define.ts';

/** Inpaint a painted mask (POST /api/diffusion/inpaint); an empty prompt falls back to the global prompt. */
export const inpaint = defineOperation({
  kind: 'inpaint',
  endpoint: '/api/diffusion/inpaint',
  schema: zInpaintRequest,
  normalize: normalizeInpaint,
  price: (r) => costOf({ kind: 'inpaint', modelType: r.modelType, lightning: r.lightning, numImages: r.num_images }),
  prompts: promptOnly,
  async storeImages(r, store) {
    const image = await store(r.image, 'image');
    const mask = await store(r.mask, 'mask');
    return { ...r, image, mask, ip_adapter_image: await storeOptional(r.ip_adapter_image, 'ip_adapter_image', store) };
  },
  model: (r) => r.model,
  engineKey: (r) => ({ task: 'inpaint', model: resolveModel(r.model).id }),
});
