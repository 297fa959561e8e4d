import type { NormalizedRequest } from '@koma/domain';
import type { BrushTask } from '../../engines/types.ts';
import { defineHandler } from './handler.ts';
import { params, PIPELINE_MODEL, recipeOf, route } from './steps.ts';

/** Brush-based generation runs the default SDXL pipeline at its default steps and guidance, one image. */
function task(r: NormalizedRequest<'smd'>, brushes: BrushTask['brushes']): BrushTask {
  return {
    kind: 'smd',
    ...params(PIPELINE_MODEL, {
      prompt: r.backgroundPrompt,
      negative_prompt: r.backgroundNegativePrompt,
      steps: PIPELINE_MODEL.defaultSteps,
      cfg: PIPELINE_MODEL.defaultGuidanceScale,
      seed: r.seed,
      num_images: 1,
      loras: [],
    }),
    width: r.width,
    height: r.height,
    brushes,
  };
}

export const smd = defineHandler({
  kind: 'smd',
  target: (deps, r) => route(deps, task(r, [])),
  async run(ctx, r) {
    const brushes: BrushTask['brushes'] = [];
    for (const b of r.brushes) {
      brushes.push({ prompt: b.prompt, negativePrompt: b.negativePrompt, mask: await ctx.load(b.mask) });
    }
    const t = task(r, brushes);
    const images = await ctx.engine(t);
    const recipe = recipeOf(
      PIPELINE_MODEL,
      { prompt: r.backgroundPrompt, negative_prompt: r.backgroundNegativePrompt },
      t,
    );
    return {
      images,
      recipe: { ...recipe, brushes: r.brushes.map((b) => ({ prompt: b.prompt, negativePrompt: b.negativePrompt })) },
    };
  },
});
