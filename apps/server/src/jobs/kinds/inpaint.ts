import { INPAINT_MASK_DEFAULT_BLUR, resolveModel, type NormalizedRequest } from '@koma/domain';
import sharp from 'sharp';
import { imageSize, keepUnmasked } from '../../engines/masks.ts';
import type { InpaintTask } from '../../engines/types.ts';
import { ipAdapterInput } from './diffusion-inputs.ts';
import { defineHandler } from './handler.ts';
import { EMPTY, params, recipeOf, route } from './steps.ts';

function task(r: NormalizedRequest<'inpaint'>, image: Buffer, mask: Buffer): InpaintTask {
  const model = resolveModel(r.model);
  return {
    kind: 'inpaint',
    ...params(model, r),
    image,
    mask,
    strength: r.strength,
    maskBlur: INPAINT_MASK_DEFAULT_BLUR,
  };
}

export const inpaint = defineHandler({
  kind: 'inpaint',
  target: (deps, r) => route(deps, task(r, EMPTY, EMPTY)),
  async run(ctx, r) {
    const image = await ctx.load(r.image);
    // The request's size is the working size (rounded down to multiples of 8): image and mask are fitted to it.
    const sized = await sharp(image).resize(r.width, r.height, { fit: 'fill' }).png().toBuffer();
    const mask = await ctx.load(r.mask);
    const t = { ...task(r, sized, mask), ...(await ipAdapterInput(ctx, r)) };
    const result = await ctx.engine(t);
    // Back at the source's own size, unmasked pixels the source's bytes: the placeholder lies exactly over it.
    const { width, height } = await imageSize(image, 'input image');
    const images = [];
    for (const out of result.images) {
      images.push({ ...out, bytes: await keepUnmasked(image, out.bytes, mask), mime: 'image/png', width, height });
    }
    return {
      images: { ...result, images },
      recipe: { ...recipeOf(resolveModel(r.model), r, t), strength: r.strength },
    };
  },
});
