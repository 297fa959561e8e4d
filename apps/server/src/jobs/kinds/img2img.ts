import { resolveModel, type NormalizedRequest } from '@koma/domain';
import type { Img2ImgTask } from '../../engines/types.ts';
import { controlnetInputs } from './diffusion-inputs.ts';
import { defineHandler } from './handler.ts';
import { EMPTY, params, recipeOf, route } from './steps.ts';

function task(r: NormalizedRequest<'img2img'>, image: Buffer): Img2ImgTask {
  const model = resolveModel(r.model);
  return { kind: 'img2img', ...params(model, r), width: r.width, height: r.height, image, strength: r.strength };
}

export const img2img = defineHandler({
  kind: 'img2img',
  target: (deps, r) => route(deps, task(r, EMPTY)),
  async run(ctx, r) {
    const t = { ...task(r, await ctx.load(r.image)), controlnets: await controlnetInputs(ctx, r.controlnets) };
    const images = await ctx.engine(t);
    return { images, recipe: { ...recipeOf(resolveModel(r.model), r, t), strength: r.strength } };
  },
});
