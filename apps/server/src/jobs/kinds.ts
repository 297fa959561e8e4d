import {
  checkModelAccess,
  costOf,
  costOfRequest,
  enginePrompts,
  FACE_FIX_STEPS,
  INPAINT_MASK_DEFAULT_BLUR,
  isInlineImage,
  MODEL_CATALOGUE,
  moderateRequest,
  moderatePrompt,
  OUTPAINT_BLUR,
  OUTPAINT_DEFAULT_OVERLAP,
  OUTPAINT_MIN_STEPS,
  parseRequest,
  resolveModel,
  resolveSeed,
  toFieldErrors,
  withLoraTriggerWords,
  zImageRef,
  zLoras,
  zModelId,
  zOptionalPrompt,
  zSeed,
  zSteps,
  zCfg,
  type ModelCatalogueEntry,
  type NormalizedRequest,
  type RequestKind,
} from '@koma/domain';
import sharp from 'sharp';
import { z } from 'zod';
import { EngineError } from '../engines/errors.ts';
import type {
  DiffusionParams,
  EngineProgress,
  EngineResult,
  EngineTask,
  LoraRef,
  ModelRef,
} from '../engines/types.ts';
import { HttpError, invalidRequest, subscriptionRequired } from '../http/errors.ts';
import type { PublicUser } from '../repositories/users.ts';
import { recordFlowImage } from '../repositories/flow-images.ts';
import { expandPrompt } from './prompt-expansion.ts';
import { recordVideo } from './repository.ts';
import type { JobDeps } from './deps.ts';
import { builtinVideoPreview } from './video-preview.ts';

/** What a kind's prepare step decides before anything is charged. */
export interface PreparedJob {
  /** JSON-safe inputs: the normalised, moderated request with images as stored image ids. */
  inputs: unknown;
  cost: number;
  lane: string;
  engine: string;
}

/** A job as a runner sees it. */
export interface RunningJob {
  id: string;
  userId: string;
  kind: string;
  engine: string;
  inputs: unknown;
}

export type Report = (progress: EngineProgress) => void;

/** One entry of the typed registry: how to check and price a request, and how to run it. */
export interface JobKind {
  readonly name: string;
  prepare(deps: JobDeps, user: PublicUser, body: unknown): Promise<PreparedJob>;
  run(deps: JobDeps, job: RunningJob, report: Report, signal: AbortSignal): Promise<unknown>;
}

// ---------------------------------------------------------------------------------------------------------------
// Shared steps

/** Parses with the domain registry; 400 invalid_request naming every failing field and its limit. */
function parse<K extends RequestKind>(kind: K, body: unknown): NormalizedRequest<K> {
  const result = parseRequest(kind, body ?? {}, { random: Math.random });
  if (!result.ok) throw invalidRequest(result.errors.map((e) => e.message).join('; '));
  return result.value;
}

/** Parses a server-side schema the same way. */
function parseSchema<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw invalidRequest(toFieldErrors(result.error).map((e) => e.message).join('; '));
  return result.data;
}

/** 400 prompt_rejected when moderation refuses a prompt; else the request with nsfw terms stripped. */
function moderate<K extends RequestKind>(kind: K, request: NormalizedRequest<K>): NormalizedRequest<K> {
  const verdict = moderateRequest(kind, request);
  if (verdict.allowed) return verdict.request;
  const reasons = verdict.verdicts.flatMap((v) =>
    v.verdict.allowed ? [] : v.verdict.reasons.map((r) => ({ field: v.field, code: r.code, message: r.message })),
  );
  throw new HttpError(400, 'prompt_rejected', reasons.map((r) => `${r.field}: ${r.message}`).join(' '), { reasons });
}

function moderateText(field: string, prompt: string): string {
  if (prompt.trim() === '') return prompt;
  const verdict = moderatePrompt(prompt);
  if (verdict.allowed) return verdict.sanitizedPrompt;
  const reasons = verdict.reasons.map((r) => ({ field, code: r.code, message: r.message }));
  throw new HttpError(400, 'prompt_rejected', reasons.map((r) => `${field}: ${r.message}`).join(' '), { reasons });
}

function requireAccess(user: PublicUser, modelId: string): void {
  if (checkModelAccess(modelId, user.plan === 'subscriber') !== null) throw subscriptionRequired();
}

function price(compute: () => number): number {
  try {
    return compute();
  } catch (err) {
    throw invalidRequest(`model: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Stores an inline image (validated by the image store) or checks that an image id is the user's. */
async function storeRef(deps: JobDeps, userId: string, ref: string, field: string): Promise<string> {
  if (isInlineImage(ref)) {
    const comma = ref.indexOf(',');
    try {
      return await deps.images.putImage(userId, Buffer.from(ref.slice(comma + 1), 'base64'));
    } catch (err) {
      if (err instanceof HttpError) throw new HttpError(err.statusCode, err.code, err.message.replace(/^encoded/, field));
      throw err;
    }
  }
  if (!(await deps.images.exists(userId, ref))) throw invalidRequest(`${field}: image ${ref} not found`);
  return ref;
}

async function storeOptional(deps: JobDeps, userId: string, ref: string | null, field: string) {
  return ref === null ? null : storeRef(deps, userId, ref, field);
}

async function loadImage(deps: JobDeps, userId: string, id: string): Promise<Buffer> {
  const image = await deps.images.getImage(userId, id);
  if (!image) throw new EngineError('validation', `Image ${id} no longer exists`);
  return image.bytes;
}

/** The engine a task routes to (400 when no configured engine can run it). */
function route(deps: JobDeps, task: EngineTask): { engine: string; lane: string } {
  try {
    const engine = deps.router.engineFor(task);
    return { engine: engine.id, lane: engine.id === 'builtin' ? 'builtin' : 'remote' };
  } catch (err) {
    throw invalidRequest(err instanceof Error ? err.message : String(err));
  }
}

async function runEngine(
  deps: JobDeps,
  task: EngineTask,
  report: Report,
  signal: AbortSignal,
): Promise<EngineResult> {
  return deps.router.engineFor(task).run(task, { onProgress: report }, signal);
}

function modelRef(model: ModelCatalogueEntry): ModelRef {
  return { id: model.id, path: model.path, modelType: model.modelType };
}

function loraRefs(loras: readonly { name: string; url: string; strength: number }[]): LoraRef[] {
  return loras.map((l) => ({ name: l.name, url: l.url, strength: l.strength }));
}

/** What a flow image records about the generation behind it (editor.md §3). */
interface GenerationData {
  prompt: string;
  negative_prompt: string;
  seed: number;
  image_size: { width: number; height: number };
  model_name: string;
  num_inference_steps: number;
  guidance_scale: number;
  [key: string]: unknown;
}

export interface OutputImage {
  id: string;
  width: number;
  height: number;
  seed: number;
}

/** Stores every image of a result for the user and records each as a flow image with its generation data. */
async function storeResult(
  deps: JobDeps,
  job: RunningJob,
  result: EngineResult,
  data: Omit<GenerationData, 'seed' | 'image_size'>,
): Promise<{ images: OutputImage[] }> {
  const images: OutputImage[] = [];
  for (const image of result.images) {
    const id = await deps.images.putImage(job.userId, image.bytes);
    await recordFlowImage(
      deps.db,
      job.userId,
      {
        variationId: id,
        generationData: {
          ...data,
          seed: image.seed,
          image_size: { width: image.width, height: image.height },
          kind: job.kind,
          job_id: job.id,
          engine: result.metadata.engine,
        },
      },
      deps.now(),
    );
    images.push({ id, width: image.width, height: image.height, seed: image.seed });
  }
  return { images };
}

function params(
  model: ModelCatalogueEntry,
  r: {
    prompt: string;
    negative_prompt: string;
    qualityTags?: boolean;
    steps: number;
    cfg: number;
    seed: number;
    num_images: number;
    loras: readonly { name: string; url: string; strength: number }[];
    add_lora_trigger_words?: boolean;
  },
): DiffusionParams {
  const withTriggers = r.add_lora_trigger_words === false ? r.prompt : withLoraTriggerWords(r.prompt, r.loras);
  const prompts = enginePrompts(model, withTriggers, r.negative_prompt, r.qualityTags ?? false);
  return {
    model: modelRef(model),
    prompt: prompts.prompt,
    negativePrompt: prompts.negative_prompt,
    steps: r.steps,
    cfg: r.cfg,
    seed: r.seed,
    numImages: r.num_images,
    loras: loraRefs(r.loras),
  };
}

function dataOf(
  model: ModelCatalogueEntry,
  r: { prompt: string; negative_prompt: string; steps: number; cfg: number },
): Omit<GenerationData, 'seed' | 'image_size'> {
  return {
    prompt: r.prompt,
    negative_prompt: r.negative_prompt,
    model_name: model.id,
    num_inference_steps: r.steps,
    guidance_scale: r.cfg,
  };
}

const EMPTY = Buffer.alloc(0);
const PIPELINE_MODEL: ModelCatalogueEntry =
  MODEL_CATALOGUE.find((m) => m.modelType === 'sdxl' && m.recommended) ??
  MODEL_CATALOGUE.find((m) => m.modelType === 'sdxl') ??
  resolveModel('sdxl');

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
      r.controlnets.map(async (c, i) => ({ ...c, image: await storeRef(deps, user.id, c.image, `controlnets.${i}.image`) })),
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
        ? { ipAdapter: { image: await loadImage(deps, job.userId, r.ip_adapter_image), strength: r.ip_adapter_strength } }
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
      r.controlnets.map(async (c, i) => ({ ...c, image: await storeRef(deps, user.id, c.image, `controlnets.${i}.image`) })),
    );
    const model = resolveModel(r.model);
    const stub: EngineTask = { kind: 'img2img', ...params(model, r), width: r.width, height: r.height, image: EMPTY, strength: r.strength };
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
    const task: EngineTask = {
      kind: 'inpaint',
      ...params(model, r),
      image: sized,
      mask: await loadImage(deps, job.userId, r.mask),
      strength: r.strength,
      maskBlur: INPAINT_MASK_DEFAULT_BLUR,
      ...(r.ip_adapter_image
        ? { ipAdapter: { image: await loadImage(deps, job.userId, r.ip_adapter_image), strength: r.ip_adapter_strength } }
        : {}),
    };
    return storeResult(deps, job, await runEngine(deps, task, report, signal), {
      ...dataOf(model, r),
      strength: r.strength,
    });
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
      brushes.push({ prompt: b.prompt, negativePrompt: b.negativePrompt, mask: await loadImage(deps, job.userId, b.mask) });
    }
    const p = smdParams(r);
    const task: EngineTask = { kind: 'smd', ...p, width: r.width, height: r.height, brushes };
    return storeResult(deps, job, await runEngine(deps, task, report, signal), {
      ...dataOf(PIPELINE_MODEL, { prompt: r.backgroundPrompt, negative_prompt: r.backgroundNegativePrompt, steps: p.steps, cfg: p.cfg }),
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
  async prepare(deps, _user, body) {
    const r = moderate('regional', parse('regional', body));
    const cost = price(() => costOfRequest('regional', r));
    return { inputs: r, cost, ...route(deps, regionalTask(r)) };
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
    const stub: EngineTask = { kind: 'img2img', ...refineParams(model, r), width: 512, height: 512, image: EMPTY, strength: r.strength };
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
      maskBlur: INPAINT_MASK_DEFAULT_BLUR,
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
    const [rx0, ry0, rx1, ry1] = crop.region;
    const scale = 1024 / (rx1 - rx0);
    // The mask covers the face box inside the crop (an ellipse, feathered by the engine's mask blur).
    const [fx0, fy0, fx1, fy1] = face.bbox;
    const cx = ((fx0 + fx1) / 2 - rx0) * scale;
    const cy = ((fy0 + fy1) / 2 - ry0) * scale;
    const rx = ((fx1 - fx0) / 2) * scale * 1.1;
    const ry = ((fy1 - fy0) / 2) * scale * 1.2;
    const maskSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024"><rect width="1024" height="1024" fill="black"/><ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="white"/></svg>`;
    const toWork = (b: Buffer) => sharp(b).resize(r.face_width, r.face_height, { fit: 'fill' }).png().toBuffer();
    const task: EngineTask = {
      kind: 'face_enhance',
      ...faceParams(model, r),
      image: await toWork(crop.image),
      mask: await toWork(Buffer.from(maskSvg)),
      strength: r.strength / 100,
      maskBlur: INPAINT_MASK_DEFAULT_BLUR,
    };
    const result = await runEngine(deps, task, report, signal);
    // Paste each enhanced crop back where it was cut, keeping the source's size.
    const meta = await sharp(source).metadata();
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    const regionSize = Math.round(rx1 - rx0);
    const images = [];
    for (const out of result.images) {
      const patch = await sharp(out.bytes).resize(regionSize, regionSize, { fit: 'fill' }).png().toBuffer();
      const left = Math.round(rx0);
      const top = Math.round(ry0);
      const clipped = await sharp(patch)
        .extract({
          left: Math.max(0, -left),
          top: Math.max(0, -top),
          width: Math.min(regionSize, width - left) - Math.max(0, -left),
          height: Math.min(regionSize, height - top) - Math.max(0, -top),
        })
        .png()
        .toBuffer();
      const bytes = await sharp(source)
        .composite([{ input: clipped, left: Math.max(0, left), top: Math.max(0, top) }])
        .png()
        .toBuffer();
      images.push({ ...out, bytes, mime: 'image/png', width, height });
    }
    return storeResult(deps, job, { ...result, images }, {
      ...dataOf(model, { ...r, steps: FACE_FIX_STEPS, cfg: model.defaultGuidanceScale }),
      strength: r.strength,
      face_index: r.face_index,
      bbox: face.bbox,
    });
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
    const r: Outpaint = { ...parsed, prompt: moderateText('prompt', parsed.prompt), seed: resolveSeed(parsed.seed, Math.random) };
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

// ---------------------------------------------------------------------------------------------------------------
// Edit, video, prompt expansion

type Edit = NormalizedRequest<'edit'> & { seed: number };

const edit: JobKind = {
  name: 'edit',
  async prepare(deps, user, body) {
    const r = moderate('edit', parse('edit', body));
    const cost = price(() => costOfRequest('edit', r));
    const variationId = await storeRef(deps, user.id, r.variationId, 'variationId');
    const inputs: Edit = { ...r, variationId, seed: resolveSeed(-1, Math.random) };
    return { inputs, cost, ...route(deps, { kind: 'edit', model: r.model, prompt: r.prompt, image: EMPTY, seed: 0 }) };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Edit;
    const task: EngineTask = {
      kind: 'edit',
      model: r.model,
      prompt: r.prompt,
      image: await loadImage(deps, job.userId, r.variationId),
      seed: r.seed,
    };
    return storeResult(deps, job, await runEngine(deps, task, report, signal), {
      prompt: r.prompt,
      negative_prompt: '',
      model_name: r.model,
      num_inference_steps: 0,
      guidance_scale: 0,
      source_image: r.variationId,
    });
  },
};

type Video = NormalizedRequest<'video'>;

const video: JobKind = {
  name: 'video',
  async prepare(deps, user, body) {
    const r = moderate('video', parse('video', body));
    const cost = price(() => costOfRequest('video', r));
    const image = await storeRef(deps, user.id, r.image, 'image');
    const endImage = await storeOptional(deps, user.id, r.end_image, 'end_image');
    const stub: EngineTask = { kind: 'video', model: r.model, prompt: r.prompt, image: EMPTY, durationSeconds: r.duration, seed: r.seed };
    // The builtin engine has no video model: it renders a labelled animated preview instead (docs/decisions/jobs.md).
    let target = { engine: 'builtin', lane: 'builtin' };
    try {
      const engine = deps.router.engineFor(stub);
      target = { engine: engine.id, lane: engine.id === 'builtin' ? 'builtin' : 'remote' };
    } catch {
      // keep the builtin preview
    }
    return { inputs: { ...r, image, end_image: endImage } satisfies Video, cost, ...target };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Video;
    const image = await loadImage(deps, job.userId, r.image);
    let bytes: Buffer;
    let mime: string;
    let note: string | undefined;
    if (job.engine === 'builtin') {
      const preview = await builtinVideoPreview(image, r.duration, report, signal);
      bytes = preview.bytes;
      mime = preview.mime;
      note = preview.note;
    } else {
      const task: EngineTask = {
        kind: 'video',
        model: r.model,
        prompt: r.prompt,
        negativePrompt: '',
        image,
        ...(r.end_image ? { endImage: await loadImage(deps, job.userId, r.end_image) } : {}),
        durationSeconds: r.duration,
        seed: r.seed,
      };
      const result = await runEngine(deps, task, report, signal);
      const first = result.videos?.[0];
      if (!first) throw new EngineError('engine_failed', 'The engine returned no video');
      bytes = first.bytes;
      mime = first.mime;
      note = result.metadata.note;
    }
    const id = await recordVideo(deps.db, job.userId, mime, bytes.length, deps.now());
    await deps.blobs.put(`video-${id}`, bytes, mime);
    return { video: { id, mime }, engine: job.engine, ...(note ? { note } : {}) };
  },
};

type Expansion = NormalizedRequest<'prompt_expansion'>;

const promptExpansion: JobKind = {
  name: 'prompt_expansion',
  async prepare(deps, _user, body) {
    const r = moderate('prompt_expansion', parse('prompt_expansion', body));
    const cost = price(() => costOfRequest('prompt_expansion', r));
    return { inputs: r, cost, lane: 'chat', engine: deps.config.chat ? 'chat' : 'builtin' };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Expansion;
    report({ logs: [`Expanding the prompt into ${r.num_sequences} variant(s)`] });
    const result = await expandPrompt(deps.config.chat, r.prompt, r.num_sequences, signal);
    // Expanded prompts are moderated like typed ones: a rejected variant is dropped, nsfw terms stripped.
    const prompts = result.prompts.flatMap((p) => {
      const verdict = moderatePrompt(p);
      return verdict.allowed ? [verdict.sanitizedPrompt] : [];
    });
    return { prompts, engine: result.engine };
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Vision kinds (issue 6)

type Upscale = NormalizedRequest<'upscale'>;

const upscale: JobKind = {
  name: 'upscale',
  async prepare(deps, user, body) {
    const r = parse('upscale', body);
    const cost = price(() => costOfRequest('upscale', r));
    const image = await storeRef(deps, user.id, r.image, 'image');
    // ×2 is the vision upscaler (ESRGAN); other factors go to the engine router's upscale task.
    const target = r.scale === 2 ? { engine: 'vision', lane: 'vision' } : route(deps, { kind: 'upscale', image: EMPTY, scale: r.scale });
    return { inputs: { ...r, image } satisfies Upscale, cost, ...target };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Upscale;
    const source = await loadImage(deps, job.userId, r.image);
    let bytes: Buffer;
    if (job.engine === 'vision') {
      bytes = await deps.vision.upscale(source, tileProgress(report), signal);
    } else {
      const result = await runEngine(deps, { kind: 'upscale', image: source, scale: r.scale }, report, signal);
      const first = result.images[0];
      if (!first) throw new EngineError('engine_failed', 'The engine returned no image');
      bytes = first.bytes;
    }
    const id = await deps.images.putImage(job.userId, bytes);
    const stored = await deps.images.getImage(job.userId, id);
    return { image: `data:${stored?.mime ?? 'image/png'};base64,${bytes.toString('base64')}`, id };
  },
};

function tileProgress(report: Report) {
  return (done: number, total: number) =>
    report({ logs: [`Progress: ${done}/${total}`], progress: total > 0 ? done / total : 0 });
}

type ImageOnly = NormalizedRequest<'background'>;

const background: JobKind = {
  name: 'background',
  async prepare(deps, user, body) {
    const r = parse('background', body);
    const cost = price(() => costOfRequest('background', r));
    const image = await storeRef(deps, user.id, r.image, 'image');
    return { inputs: { image } satisfies ImageOnly, cost, engine: 'vision', lane: 'background' };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as ImageOnly;
    const bytes = await deps.vision.removeBackground(await loadImage(deps, job.userId, r.image), tileProgress(report), signal);
    const id = await deps.images.putImage(job.userId, bytes);
    return { encoded: bytes.toString('base64'), id };
  },
};

const pose: JobKind = {
  name: 'pose',
  async prepare(deps, user, body) {
    const r = parse('pose', body);
    const image = await storeRef(deps, user.id, r.image, 'image');
    return { inputs: { image } satisfies ImageOnly, cost: price(() => costOfRequest('pose', r)), engine: 'vision', lane: 'vision' };
  },
  async run(deps, job) {
    const r = job.inputs as ImageOnly;
    const result = await deps.vision.estimatePose(await loadImage(deps, job.userId, r.image));
    return { pose: { bodies: result.bodies }, width: result.width, height: result.height };
  },
};

type FaceDetection = NormalizedRequest<'face_detection'>;

const faceDetection: JobKind = {
  name: 'face_detection',
  async prepare(deps, user, body) {
    const r = parse('face_detection', body);
    const variationId = await storeRef(deps, user.id, r.variationId, 'variationId');
    return {
      inputs: { variationId } satisfies FaceDetection,
      cost: price(() => costOfRequest('face_detection', r)),
      engine: 'vision',
      lane: 'vision',
    };
  },
  async run(deps, job) {
    const r = job.inputs as FaceDetection;
    const faces = await deps.vision.detectFaces(await loadImage(deps, job.userId, r.variationId));
    return { bboxes: faces.map((f) => ({ bbox: f.bbox, label: f.label, score: f.score })) };
  },
};

/** The typed registry: every job kind by name. */
export const JOB_KINDS: Readonly<Record<string, JobKind>> = Object.fromEntries(
  [
    txt2img,
    img2img,
    inpaint,
    smd,
    regional,
    refine,
    faceEdit,
    outpaint,
    edit,
    video,
    promptExpansion,
    upscale,
    background,
    pose,
    faceDetection,
  ].map((k) => [k.name, k]),
);

export type JobKindName = keyof typeof JOB_KINDS;
