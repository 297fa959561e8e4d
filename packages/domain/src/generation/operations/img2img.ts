import { costOf } from '../costs.ts';
import { zImg2ImgRequest } from '../requests/image-requests.ts';
import { normalizeImg2Img, resolveModel } from '../requests/normalize.ts';
import { defineOperation, promptOnly, storeEach } from './define.ts';

/** Image to image (POST /api/diffusion/img2img); the editor's variations are this at strength 0.5. */
export const img2img = defineOperation({
  kind: 'img2img',
  endpoint: '/api/diffusion/img2img',
  schema: zImg2ImgRequest,
  normalize: normalizeImg2Img,
  price: (r) => costOf({ kind: 'img2img', modelType: r.modelType, lightning: r.lightning, numImages: r.num_images }),
  prompts: promptOnly,
  async storeImages(r, store) {
    const image = await store(r.image, 'image');
    return { ...r, image, controlnets: await storeEach(r.controlnets, 'controlnets', 'image', store) };
  },
  model: (r) => r.model,
  engineKey: (r) => ({ task: 'img2img', model: resolveModel(r.model).id }),
});
