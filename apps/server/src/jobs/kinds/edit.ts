import { defineHandler } from './handler.ts';
import { EMPTY, route } from './steps.ts';

export const edit = defineHandler({
  kind: 'edit',
  target: (deps, r) => route(deps, { kind: 'edit', model: r.model, prompt: r.prompt, image: EMPTY, seed: 0 }),
  async run(ctx, r) {
    const image = await ctx.load(r.variationId);
    const images = await ctx.engine({ kind: 'edit', model: r.model, prompt: r.prompt, image, seed: r.seed });
    return {
      images,
      recipe: {
        prompt: r.prompt,
        negative_prompt: '',
        model_name: r.model,
        num_inference_steps: 0,
        guidance_scale: 0,
        source_image: r.variationId,
      },
    };
  },
});
