import { resolveModel } from '@koma/domain';
import { controlnetInputs, ipAdapterInput } from './diffusion-inputs.ts';
import { defineHandler } from './handler.ts';
import { params, recipeOf, route } from './steps.ts';

export const txt2img = defineHandler({
  kind: 'txt2img',
  target: (deps, r) =>
    route(deps, { kind: 'txt2img', ...params(resolveModel(r.model), r), width: r.width, height: r.height }),
  async run(ctx, r) {
    const model = resolveModel(r.model);
    const task = {
      kind: 'txt2img' as const,
      ...params(model, r),
      width: r.width,
      height: r.height,
      controlnets: await controlnetInputs(ctx, r.controlnets),
      ...(await ipAdapterInput(ctx, r)),
    };
    const images = await ctx.engine(task);
    return { images, recipe: recipeOf(model, r, task) };
  },
});
