import {
  costOf,
  costOfRequest,
  FACE_FIX_STEPS,
  INPAINT_MASK_DEFAULT_BLUR,
  OUTPAINT_BLUR,
  OUTPAINT_DEFAULT_OVERLAP,
  OUTPAINT_MIN_STEPS,
  resolveModel,
  resolveSeed,
  zImageRef,
  zLoras,
  zModelId,
  zOptionalPrompt,
  zSeed,
  zSteps,
  zCfg,
  type ModelCatalogueEntry,
  type NormalizedRequest,
} from '@koma/domain';
import sharp from 'sharp';
import { z } from 'zod';
import { EngineError } from '../../engines/errors.ts';
import { imageSize, keepUnmasked } from '../../engines/masks.ts';
import type { DiffusionParams, EngineTask } from '../../engines/types.ts';
import type { JobDeps } from '../deps.ts';
import { ellipseInRegion, ellipseMask, faceEllipse, faceMaskBlur, pasteFace } from './face-patch.ts';
import {
  parse,
  parseSchema,
  moderate,
  moderateText,
  requireAccess,
  price,
  storeRef,
  storeOptional,
  loadImage,
  route,
  runEngine,
  storeResult,
  params,
  dataOf,
  EMPTY,
  PIPELINE_MODEL,
  type JobKind,
} from './common.ts';
/** What a kind's prepare step decides before anything is charged. */

// ---------------------------------------------------------------------------------------------------------------
// Diffusion kinds

type Txt2Img = NormalizedRequest<'txt2img'>;

async function controlnetInputs(
  deps: JobDeps,
  userId: string,
  controlnets: Txt2Img['controlnets'],
): Promise<NonNullable<DiffusionParams['controlnets']>> {
  const out: NonNullable<DiffusionParams['controlnets']> = [];
  for (const c of controlnets) {
    out.push({ model: c.model, image: await loadImage(deps, userId, c.image), strength: c.strength });
  }
  return out;
}

const txt2img: JobKind = {
  name: 'txt2img',
  async prepare(deps, user, body) {
    const r = moderate('txt2img', parse('txt2img', body));
    requireAccess(user, r.model);
    const cost = price(() => costOfRequest('txt2img', r));
    const controlnets = await Promise.all(
      r.controlnets.map(async (c, i) => ({
        ...c,
        image: await storeRef(deps, user.id, c.image, `controlnets.${i}.image`),
      })),
    );
    const ipAdapter = await storeOptional(deps, user.id, r.ip_adapter_image, 'ip_adapter_image');
    const inputs: Txt2Img = { ...r, controlnets, ip_adapter_image: ipAdapter };
    const model = resolveModel(r.model);
    return { inputs, cost, ...route(deps, { kind: 'txt2img', ...params(model, r), width: r.width, height: r.height }) };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Txt2Img;
    const model = resolveModel(r.model);
    const task: EngineTask = {
      kind: 'txt2img',
      ...params(model, r),
      width: r.width,
      height: r.height,
      controlnets: await controlnetInputs(deps, job.userId, r.controlnets),
      ...(r.ip_adapter_image
        ? {
            ipAdapter: {
              image: await loadImage(deps, job.userId, r.ip_adapter_image),
              strength: r.ip_adapter_strength,
            },
          }
        : {}),
    };
    return storeResult(deps, job, await runEngine(deps, task, report, signal), dataOf(model, r));
  },
};

type Img2Img = NormalizedRequest<'img2img'>;

const img2img: JobKind = {
  name: 'img2img',
  async prepare(deps, user, body) {
    const r = moderate('img2img', parse('img2img', body));
    requireAccess(user, r.model);
    const cost = price(() => costOfRequest('img2img', r));
    const image = await storeRef(deps, user.id, r.image, 'image');
    const controlnets = await Promise.all(
      r.controlnets.map(async (c, i) => ({
        ...c,
        image: await storeRef(deps, user.id, c.image, `controlnets.${i}.image`),
      })),
    );
    const model = resolveModel(r.model);
    const stub: EngineTask = {
      kind: 'img2img',
      ...params(model, r),
      width: r.width,
      height: r.height,
      image: EMPTY,
      strength: r.strength,
    };
    return { inputs: { ...r, image, controlnets } satisfies Img2Img, cost, ...route(deps, stub) };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Img2Img;
    const model = resolveModel(r.model);
    const task: EngineTask = {
      kind: 'img2img',
      ...params(model, r),
      width: r.width,
      height: r.height,
      image: await loadImage(deps, job.userId, r.image),
      strength: r.strength,
      controlnets: await controlnetInputs(deps, job.userId, r.controlnets),
    };
    return storeResult(deps, job, await runEngine(deps, task, report, signal), {
      ...dataOf(model, r),
      strength: r.strength,
    });
  },
};

type Inpaint = NormalizedRequest<'inpaint'>;

const inpaint: JobKind = {
  name: 'inpaint',
  async prepare(deps, user, body) {
    const r = moderate('inpaint', parse('inpaint', body));
    requireAccess(user, r.model);
    const cost = price(() => costOfRequest('inpaint', r));
    const image = await storeRef(deps, user.id, r.image, 'image');
    const mask = await storeRef(deps, user.id, r.mask, 'mask');
    const ipAdapter = await storeOptional(deps, user.id, r.ip_adapter_image, 'ip_adapter_image');
    const model = resolveModel(r.model);
    const stub: EngineTask = {
      kind: 'inpaint',
      ...params(model, { ...r, loras: r.loras }),
      image: EMPTY,
      mask: EMPTY,
      strength: r.strength,
      maskBlur: INPAINT_MASK_DEFAULT_BLUR,
    };
    return { inputs: { ...r, image, mask, ip_adapter_image: ipAdapter } satisfies Inpaint, cost, ...route(deps, stub) };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Inpaint;
    const model = resolveModel(r.model);
    const image = await loadImage(deps, job.userId, r.image);
    // The request's size is the working size (rounded down to multiples of 8): image and mask are fitted to it.
    const sized = await sharp(image).resize(r.width, r.height, { fit: 'fill' }).png().toBuffer();
    const mask = await loadImage(deps, job.userId, r.mask);
    const task: EngineTask = {
      kind: 'inpaint',
      ...params(model, r),
      image: sized,
      mask,
      strength: r.strength,
      maskBlur: INPAINT_MASK_DEFAULT_BLUR,
      ...(r.ip_adapter_image
        ? {
            ipAdapter: {
              image: await loadImage(deps, job.userId, r.ip_adapter_image),
              strength: r.ip_adapter_strength,
            },
          }
        : {}),
    };
    const result = await runEngine(deps, task, report, signal);
    // Back at the source's own size, unmasked pixels the source's bytes: the placeholder lies exactly over it.
    const { width, height } = await imageSize(image, 'input image');
    const images = [];
    for (const out of result.images) {
      images.push({ ...out, bytes: await keepUnmasked(image, out.bytes, mask), mime: 'image/png', width, height });
    }
    return storeResult(
      deps,
      job,
      { ...result, images },
      {
        ...dataOf(model, r),
        strength: r.strength,
      },
    );
  },
};

type Smd = NormalizedRequest<'smd'>;

const smd: JobKind = {
  name: 'smd',
  async prepare(deps, user, body) {
    const r = moderate('smd', parse('smd', body));
    const cost = price(() => costOfRequest('smd', r));
    const brushes = await Promise.all(
      r.brushes.map(async (b, i) => ({ ...b, mask: await storeRef(deps, user.id, b.mask, `brushes.${i}.mask`) })),
    );
    const stub: EngineTask = { kind: 'smd', ...smdParams(r), width: r.width, height: r.height, brushes: [] };
    return { inputs: { ...r, brushes } satisfies Smd, cost, ...route(deps, stub) };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Smd;
    const brushes = [];
    for (const b of r.brushes) {
      brushes.push({
        prompt: b.prompt,
        negativePrompt: b.negativePrompt,
        mask: await loadImage(deps, job.userId, b.mask),
      });
    }
    const p = smdParams(r);
    const task: EngineTask = { kind: 'smd', ...p, width: r.width, height: r.height, brushes };
    return storeResult(deps, job, await runEngine(deps, task, report, signal), {
      ...dataOf(PIPELINE_MODEL, {
        prompt: r.backgroundPrompt,
        negative_prompt: r.backgroundNegativePrompt,
        steps: p.steps,
        cfg: p.cfg,
      }),
      brushes: r.brushes.map((b) => ({ prompt: b.prompt, negativePrompt: b.negativePrompt })),
    });
  },
};

function smdParams(r: Smd): DiffusionParams {
  return params(PIPELINE_MODEL, {
    prompt: r.backgroundPrompt,
    negative_prompt: r.backgroundNegativePrompt,
    steps: PIPELINE_MODEL.defaultSteps,
    cfg: PIPELINE_MODEL.defaultGuidanceScale,
    seed: r.seed,
    num_images: 1,
    loras: [],
  });
}

type Regional = NormalizedRequest<'regional'>;

function regionalTask(r: Regional): EngineTask {
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
    // Region corners are fractions of the canvas; the engine takes pixels.
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

const regional: JobKind = {
  name: 'regional',
  prepare(deps, _user, body) {
    const r = moderate('regional', parse('regional', body));
    const cost = price(() => costOfRequest('regional', r));
    return Promise.resolve({ inputs: r, cost, ...route(deps, regionalTask(r)) });
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Regional;
    const task = regionalTask(r);
    return storeResult(deps, job, await runEngine(deps, task, report, signal), {
      ...dataOf(PIPELINE_MODEL, {
        prompt: r.prompt,
        negative_prompt: '',
        steps: PIPELINE_MODEL.defaultSteps,
        cfg: PIPELINE_MODEL.defaultGuidanceScale,
      }),
      regions: r.regions,
    });
  },
};

type Refine = NormalizedRequest<'refine'>;

const refine: JobKind = {
  name: 'refine',
  async prepare(deps, user, body) {
    const r = moderate('refine', parse('refine', body));
    requireAccess(user, r.model);
    const cost = price(() => costOfRequest('refine', r));
    const image = await storeRef(deps, user.id, r.image, 'image');
    const model = resolveModel(r.model);
    const stub: EngineTask = {
      kind: 'img2img',
      ...refineParams(model, r),
      width: 512,
      height: 512,
      image: EMPTY,
      strength: r.strength,
    };
    return { inputs: { ...r, image } satisfies Refine, cost, ...route(deps, stub) };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Refine;
    const model = resolveModel(r.model);
    const image = await loadImage(deps, job.userId, r.image);
    const meta = await sharp(image).metadata();
    const task: EngineTask = {
      kind: 'img2img',
      ...refineParams(model, r),
      width: meta.width ?? 1024,
      height: meta.height ?? 1024,
      image,
      strength: r.strength,
    };
    return storeResult(deps, job, await runEngine(deps, task, report, signal), {
      ...dataOf(model, { ...r, steps: model.defaultSteps, cfg: model.defaultGuidanceScale }),
      strength: r.strength,
    });
  },
};

function refineParams(model: ModelCatalogueEntry, r: Refine): DiffusionParams {
  return params(model, {
    prompt: r.prompt,
    negative_prompt: r.negative_prompt,
    steps: model.defaultSteps,
    cfg: model.defaultGuidanceScale,
    seed: r.seed,
    num_images: 1,
    loras: [],
  });
}

type FaceEdit = NormalizedRequest<'face_edit'>;

const faceEdit: JobKind = {
  name: 'face_edit',
  async prepare(deps, user, body) {
    const r = moderate('face_edit', parse('face_edit', body));
    requireAccess(user, r.model);
    const cost = price(() => costOfRequest('face_edit', r));
    const image = await storeRef(deps, user.id, r.image, 'image');
    const model = resolveModel(r.model);
    const stub: EngineTask = {
      kind: 'face_enhance',
      ...faceParams(model, r),
      image: EMPTY,
      mask: EMPTY,
      strength: r.strength / 100,
      maskBlur: faceMaskBlur(r.face_width, r.face_height),
    };
    return { inputs: { ...r, image } satisfies FaceEdit, cost, ...route(deps, stub) };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as FaceEdit;
    const model = resolveModel(r.model);
    const source = await loadImage(deps, job.userId, r.image);
    report({ logs: ['Detecting faces'] });
    const faces = await deps.vision.detectFaces(source);
    let face;
    try {
      face = deps.vision.faceAt(faces, r.face_index);
    } catch (err) {
      throw new EngineError('validation', err instanceof Error ? err.message : String(err));
    }
    const crop = await deps.vision.cropFace(source, face.bbox, 1024);
    const ellipse = faceEllipse(face.bbox);
    const maskBlur = faceMaskBlur(r.face_width, r.face_height);
    const toWork = (b: Buffer) => sharp(b).resize(r.face_width, r.face_height, { fit: 'fill' }).png().toBuffer();
    const task: EngineTask = {
      kind: 'face_enhance',
      ...faceParams(model, r),
      image: await toWork(crop.image),
      mask: await ellipseMask(
        ellipseInRegion(ellipse, crop.region, r.face_width, r.face_height),
        r.face_width,
        r.face_height,
      ),
      strength: r.strength / 100,
      maskBlur,
    };
    const result = await runEngine(deps, task, report, signal);
    // Back into the source through the same ellipse, its feather scaled to source pixels, keeping the source's size.
    const meta = await sharp(source).metadata();
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    const sourceBlur = (maskBlur * (crop.region[2] - crop.region[0])) / r.face_width;
    const images = [];
    for (const out of result.images) {
      const bytes = await pasteFace(source, out.bytes, crop.region, ellipse, sourceBlur);
      images.push({ ...out, bytes, mime: 'image/png', width, height });
    }
    return storeResult(
      deps,
      job,
      { ...result, images },
      {
        ...dataOf(model, { ...r, steps: FACE_FIX_STEPS, cfg: model.defaultGuidanceScale }),
        strength: r.strength,
        face_index: r.face_index,
        bbox: face.bbox,
      },
    );
  },
};

function faceParams(model: ModelCatalogueEntry, r: FaceEdit): DiffusionParams {
  return params(model, {
    prompt: r.prompt,
    negative_prompt: r.negative_prompt,
    steps: FACE_FIX_STEPS,
    cfg: model.defaultGuidanceScale,
    seed: r.seed,
    num_images: 1,
    loras: [],
    qualityTags: true,
  });
}

/** Outpaint has no domain schema yet: extend an image by padding on each side (generation.md §9 defaults). */
export const zOutpaintRequest = z
  .object({
    image: zImageRef,
    model: zModelId,
    prompt: zOptionalPrompt,
    negative_prompt: zOptionalPrompt,
    left: z.number().int().min(0).max(2048).default(0),
    top: z.number().int().min(0).max(2048).default(0),
    right: z.number().int().min(0).max(2048).default(0),
    bottom: z.number().int().min(0).max(2048).default(0),
    overlap: z.number().min(0).max(0.5).default(OUTPAINT_DEFAULT_OVERLAP),
    blur: z.number().min(0).max(200).default(OUTPAINT_BLUR),
    steps: zSteps.optional(),
    cfg: zCfg.optional(),
    seed: zSeed,
    loras: zLoras,
    qualityTags: z.boolean().default(true),
  })
  .superRefine((r, ctx) => {
    if (r.left + r.top + r.right + r.bottom === 0) {
      ctx.addIssue({ code: 'custom', path: ['left'], message: 'one of left, top, right or bottom must be above 0' });
    }
  });
type Outpaint = z.output<typeof zOutpaintRequest>;

function outpaintParams(model: ModelCatalogueEntry, r: Outpaint): DiffusionParams {
  return params(model, {
    ...r,
    // generation.md §9: outpaint runs at least 30 steps.
    steps: Math.max(OUTPAINT_MIN_STEPS, r.steps ?? model.defaultSteps),
    cfg: r.cfg ?? model.defaultGuidanceScale,
    num_images: 1,
  });
}

const outpaint: JobKind = {
  name: 'outpaint',
  async prepare(deps, user, body) {
    const parsed = parseSchema(zOutpaintRequest, body);
    const r: Outpaint = {
      ...parsed,
      prompt: moderateText('prompt', parsed.prompt),
      seed: resolveSeed(parsed.seed, Math.random),
    };
    requireAccess(user, r.model);
    const model = resolveModel(r.model);
    const cost = price(() => costOf({ kind: 'outpaint', modelType: model.modelType, numImages: 1 }));
    const image = await storeRef(deps, user.id, r.image, 'image');
    const stub: EngineTask = {
      kind: 'outpaint',
      ...outpaintParams(model, r),
      image: EMPTY,
      padding: { left: r.left, top: r.top, right: r.right, bottom: r.bottom },
      overlap: r.overlap,
      blur: r.blur,
    };
    return { inputs: { ...r, image }, cost, ...route(deps, stub) };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Outpaint;
    const model = resolveModel(r.model);
    const p = outpaintParams(model, r);
    const task: EngineTask = {
      kind: 'outpaint',
      ...p,
      image: await loadImage(deps, job.userId, r.image),
      padding: { left: r.left, top: r.top, right: r.right, bottom: r.bottom },
      overlap: r.overlap,
      blur: r.blur,
    };
    return storeResult(deps, job, await runEngine(deps, task, report, signal), {
      ...dataOf(model, { ...r, steps: p.steps, cfg: p.cfg }),
      padding: { left: r.left, top: r.top, right: r.right, bottom: r.bottom },
    });
  },
};

export const DIFFUSION_KINDS: readonly JobKind[] = [
  txt2img,
  img2img,
  inpaint,
  smd,
  regional,
  refine,
  faceEdit,
  outpaint,
];
