import { costOf } from '../costs.ts';
import { zFaceEditRequest, type FaceEditRequest } from '../requests/image-requests.ts';
import { normalizeModelSeeded, type NormalizeContext, resolveModel } from '../requests/normalize.ts';
import { defineOperation, promptOnly } from './define.ts';

/** Face enhance: repaint one detected face of an image (POST /api/diffusion/face_edit). */
export const faceEdit = defineOperation({
  kind: 'face_edit',
  endpoint: '/api/diffusion/face_edit',
  schema: zFaceEditRequest,
  normalize: (r: FaceEditRequest, ctx: NormalizeContext) => normalizeModelSeeded(r, ctx),
  price: (r) => costOf({ kind: 'face_edit', modelType: resolveModel(r.model).modelType }),
  prompts: promptOnly,
  async storeImages(r, store) {
    return { ...r, image: await store(r.image, 'image') };
  },
  model: (r) => r.model,
  engineKey: (r) => ({ task: 'face_enhance', model: resolveModel(r.model).id }),
});
