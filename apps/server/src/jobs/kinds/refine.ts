import { resolveModel, type NormalizedRequest } from '@koma/domain';
import sharp from 'sharp';
import type { Img2ImgTask } from '../../engines/types.ts';
import { defineHandler } from './handler.ts';
import { EMPTY, params, recipeOf, route } from './steps.ts';

/** A refine is an img2img at the model's default steps and guidance, at the source's own size. */
function task(r: NormalizedRequest<'refine'>, image: Buffer, width: number, height: number): Img2ImgTask {
  const model = resolveModel(r.model);
  return {
    kind: 'img2img',
    ...params(model, {
      prompt: r.prompt,
      negative_prompt: r.negative_prompt,
      steps: model.defaultSteps,
      cfg: model.defaultGuidanceScale,
      seed: r.seed,
      num_images: 1,
      loras: [],
    }),
    width,
    height,
    image,
    strength: r.strength,
  };
}

export const refine = defineHandler({
  kind: 'refine',
  target: (deps, r) => route(deps, task(r, EMPTY, 512, 512)),
  async run(ctx, r) {
    const model = resolveModel(r.model);
    const image = await ctx.load(r.image);
    const meta = await sharp(image).metadata();
    const t = task(r, image, meta.width ?? 1024, meta.height ?? 1024);
    const images = await ctx.engine(t);
    return { images, recipe: { ...recipeOf(model, r, t), strength: r.strength } };
  },
});
