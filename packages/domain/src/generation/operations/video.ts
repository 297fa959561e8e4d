import { costOf } from '../costs.ts';
import { zVideoRequest } from '../requests/other-requests.ts';
import { normalizeVideo } from '../requests/normalize.ts';
import { defineOperation, promptOnly, storeOptional } from './define.ts';

/** Image to video (POST /api/video): credits per second of the chosen model times the duration. */
export const video = defineOperation({
  kind: 'video',
  endpoint: '/api/video',
  schema: zVideoRequest,
  normalize: normalizeVideo,
  price: (r) => costOf({ kind: 'video', model: r.model, duration: r.duration }),
  prompts: promptOnly,
  async storeImages(r, store) {
    const image = await store(r.image, 'image');
    return { ...r, image, end_image: await storeOptional(r.end_image, 'end_image', store) };
  },
  engineKey: (r) => ({ task: 'video', model: r.model }),
});
