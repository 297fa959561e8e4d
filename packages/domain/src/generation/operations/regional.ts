import { costOf } from '../costs.ts';
import { zRegionalRequest, type RegionalRequest } from '../requests/composite-requests.ts';
import { normalizeSeeded, type NormalizeContext } from '../requests/normalize.ts';
import { PIPELINE_MODEL } from '../models.ts';
import { defineOperation, noImages } from './define.ts';

/** Regional prompting (POST /api/regional): a prompt for the whole image and one per region. */
export const regional = defineOperation({
  kind: 'regional',
  endpoint: '/api/regional',
  schema: zRegionalRequest,
  normalize: (r: RegionalRequest, ctx: NormalizeContext) => normalizeSeeded(r, ctx),
  price: () => costOf({ kind: 'regional' }),
  prompts: (r) => [
    { field: 'prompt', text: r.prompt },
    ...r.regions.map((g, i) => ({ field: `regions.${i}.prompt`, text: g.prompt })),
  ],
  storeImages: noImages,
  engineKey: () => ({ task: 'regional', model: PIPELINE_MODEL.id }),
});
