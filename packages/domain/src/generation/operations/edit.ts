import { costOf } from '../costs.ts';
import { zEditRequest, type EditRequest } from '../requests/other-requests.ts';
import type { NormalizeContext } from '../requests/normalize.ts';
import { resolveSeed } from '../random.ts';
import { RANDOM_SEED } from '../../constants.ts';
import { defineOperation, promptOnly } from './define.ts';

/** Edit by instruction (POST /api/edit): a flat price per edit model; the seed is drawn here, it takes none. */
export const edit = defineOperation({
  kind: 'edit',
  endpoint: '/api/edit',
  schema: zEditRequest,
  normalize: (r: EditRequest, ctx: NormalizeContext) => ({ ...r, seed: resolveSeed(RANDOM_SEED, ctx.random) }),
  price: (r) => costOf({ kind: 'edit', model: r.model }),
  prompts: promptOnly,
  async storeImages(r, store) {
    return { ...r, variationId: await store(r.variationId, 'variationId') };
  },
  engineKey: (r) => ({ task: 'edit', model: r.model }),
});
