import { costOf } from '../costs.ts';
import { zSmdRequest, type SmdRequest } from '../requests/composite-requests.ts';
import { normalizeSeeded, type NormalizeContext } from '../requests/normalize.ts';
import { PIPELINE_MODEL } from '../models.ts';
import { defineOperation, storeEach } from './define.ts';

/** Brush-based (sketch-map) generation (POST /api/diffusion/smd): a background prompt and a prompt per brush. */
export const smd = defineOperation({
  kind: 'smd',
  endpoint: '/api/diffusion/smd',
  schema: zSmdRequest,
  normalize: (r: SmdRequest, ctx: NormalizeContext) => normalizeSeeded(r, ctx),
  price: () => costOf({ kind: 'smd' }),
  prompts: (r) => [
    { field: 'backgroundPrompt', text: r.backgroundPrompt },
    ...r.brushes.map((b, i) => ({ field: `brushes.${i}.prompt`, text: b.prompt })),
  ],
  async storeImages(r, store) {
    return { ...r, brushes: await storeEach(r.brushes, 'brushes', 'mask', store) };
  },
  engineKey: () => ({ task: 'smd', model: PIPELINE_MODEL.id }),
});
