import { costOf } from '../costs.ts';
import { zTxt2ImgRequest } from '../requests/image-requests.ts';
import { normalizeTxt2Img, resolveModel } from '../requests/normalize.ts';
import { defineOperation, promptOnly, storeEach, storeOptional } from './define.ts';

/** Text to image (POST /api/diffusion/txt2img), with optional controlnets (pose, sketch) and an IP-adapter image. */
export const txt2img = defineOperation({
  kind: 'txt2img',
  endpoint: '/api/diffusion/txt2img',
  schema: zTxt2ImgRequest,
  normalize: normalizeTxt2Img,
  price: (r) => costOf({ kind: 'txt2img', modelType: r.modelType, lightning: r.lightning, numImages: r.num_images }),
  prompts: promptOnly,
  async storeImages(r, store) {
    const controlnets = await storeEach(r.controlnets, 'controlnets', 'image', store);
    return { ...r, controlnets, ip_adapter_image: await storeOptional(r.ip_adapter_image, 'ip_adapter_image', store) };
  },
  model: (r) => r.model,
  engineKey: (r) => ({ task: 'txt2img', model: resolveModel(r.model).id }),
});
