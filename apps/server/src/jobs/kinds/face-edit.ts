import { FACE_FIX_STEPS, resolveModel, type NormalizedRequest } from '@koma/domain';
import sharp from 'sharp';
import { EngineError } from '../../engines/errors.ts';
import type { FaceEnhanceTask } from '../../engines/types.ts';
import { ellipseInRegion, ellipseMask, faceEllipse, faceMaskBlur, pasteFace } from './face-patch.ts';
import { defineHandler } from './handler.ts';
import { EMPTY, params, recipeOf, route } from './steps.ts';

/** Face enhance is an inpaint of the face's crop at the face settings (steps 15, quality tags on). */
function task(r: NormalizedRequest<'face_edit'>, image: Buffer, mask: Buffer): FaceEnhanceTask {
  const model = resolveModel(r.model);
  return {
    kind: 'face_enhance',
    ...params(model, {
      prompt: r.prompt,
      negative_prompt: r.negative_prompt,
      steps: FACE_FIX_STEPS,
      cfg: model.defaultGuidanceScale,
      seed: r.seed,
      num_images: 1,
      loras: [],
      qualityTags: true,
    }),
    image,
    mask,
    strength: r.strength / 100,
    maskBlur: faceMaskBlur(r.face_width, r.face_height),
  };
}

export const faceEdit = defineHandler({
  kind: 'face_edit',
  target: (deps, r) => route(deps, task(r, EMPTY, EMPTY)),
  async run(ctx, r) {
    const model = resolveModel(r.model);
    const source = await ctx.load(r.image);
    ctx.report({ logs: ['Detecting faces'] });
    const faces = await ctx.deps.vision.detectFaces(source);
    let face;
    try {
      face = ctx.deps.vision.faceAt(faces, r.face_index);
    } catch (err) {
      throw new EngineError('validation', err instanceof Error ? err.message : String(err));
    }
    const crop = await ctx.deps.vision.cropFace(source, face.bbox, 1024);
    const ellipse = faceEllipse(face.bbox);
    const { face_width: w, face_height: h } = r;
    const work = await sharp(crop.image).resize(w, h, { fit: 'fill' }).png().toBuffer();
    const mask = await ellipseMask(ellipseInRegion(ellipse, crop.region, w, h), w, h);
    const t = task(r, work, mask);
    const result = await ctx.engine(t);
    // Back into the source through the same ellipse, its feather scaled to source pixels, keeping the source's size.
    const meta = await sharp(source).metadata();
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    const sourceBlur = (t.maskBlur * (crop.region[2] - crop.region[0])) / w;
    const images = [];
    for (const out of result.images) {
      const bytes = await pasteFace(source, out.bytes, crop.region, ellipse, sourceBlur);
      images.push({ ...out, bytes, mime: 'image/png', width, height });
    }
    return {
      images: { ...result, images },
      recipe: {
        ...recipeOf(model, { ...r, qualityTags: true }, t),
        strength: r.strength,
        face_index: r.face_index,
        bbox: face.bbox,
      },
    };
  },
});
