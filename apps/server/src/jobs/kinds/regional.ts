import type { NormalizedRequest } from '@koma/domain';
import type { RegionalTask } from '../../engines/types.ts';
import { defineHandler } from './handler.ts';
import { params, PIPELINE_MODEL, recipeOf, route } from './steps.ts';

/** Regional prompting runs the default SDXL pipeline; region corners are fractions, the engine takes pixels. */
function task(r: NormalizedRequest<'regional'>): RegionalTask {
  return {
    kind: 'regional',
    ...params(PIPELINE_MODEL, {
      prompt: r.prompt,
      negative_prompt: '',
      steps: PIPELINE_MODEL.defaultSteps,
      cfg: PIPELINE_MODEL.defaultGuidanceScale,
      seed: r.seed,
      num_images: 1,
      loras: [],
    }),
    width: r.width,
    height: r.height,
    regions: r.regions.map((g) => ({
      x0: Math.round(g.x0 * r.width),
      x1: Math.round(g.x1 * r.width),
      y0: Math.round(g.y0 * r.height),
      y1: Math.round(g.y1 * r.height),
      prompt: g.prompt,
      negativePrompt: g.negative_prompt,
    })),
  };
}

export const regional = defineHandler({
  kind: 'regional',
  target: (deps, r) => route(deps, task(r)),
  async run(ctx, r) {
    const t = task(r);
    const images = await ctx.engine(t);
    const recipe = recipeOf(PIPELINE_MODEL, { prompt: r.prompt, negative_prompt: '' }, t);
    return { images, recipe: { ...recipe, regions: r.regions } };
  },
});
