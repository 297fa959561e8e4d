import { OUTPAINT_MIN_STEPS, resolveModel, type NormalizedRequest } from '@koma/domain';
import type { OutpaintTask } from '../../engines/types.ts';
import { defineHandler } from './handler.ts';
import { EMPTY, params, recipeOf, route } from './steps.ts';

function task(r: NormalizedRequest<'outpaint'>, image: Buffer): OutpaintTask {
  const model = resolveModel(r.model);
  return {
    kind: 'outpaint',
    ...params(model, {
      ...r,
      // generation.md §9: outpaint runs at least 30 steps.
      steps: Math.max(OUTPAINT_MIN_STEPS, r.steps ?? model.defaultSteps),
      cfg: r.cfg ?? model.defaultGuidanceScale,
      num_images: 1,
    }),
    image,
    padding: { left: r.left, top: r.top, right: r.right, bottom: r.bottom },
    overlap: r.overlap,
    blur: r.blur,
  };
}

export const outpaint = defineHandler({
  kind: 'outpaint',
  target: (deps, r) => route(deps, task(r, EMPTY)),
  async run(ctx, r) {
    const t = task(r, await ctx.load(r.image));
    const images = await ctx.engine(t);
    return {
      images,
      recipe: { ...recipeOf(resolveModel(r.model), r, t), padding: t.padding },
    };
  },
});
