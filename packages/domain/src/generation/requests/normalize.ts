import type { z } from 'zod';
import { INPAINT_DIMENSION_MULTIPLE, LIGHTNING_PRESETS } from '../../constants.ts';
import type { Lightning } from '../../document/generation-params.ts';
import type { ModelCatalogueEntry } from '../model-catalogue.ts';
import type { ModelType } from '../model-types.ts';
import { LORA_BASES_BY_MODEL_TYPE, loraBaseModelLabel, type LoraBaseModel } from '../lora.ts';
import { findModelById, findModelByPath, UNKNOWN_MODEL } from '../models.ts';
import { resolveSeed, type RandomSource } from '../random.ts';
import { findVideoModel } from '../video-models.ts';
import type {
  FaceEditRequest,
  Img2ImgRequest,
  InpaintRequest,
  RefineRequest,
  Txt2ImgRequest,
} from './image-requests.ts';
import type { RegionalRequest, SmdRequest } from './composite-requests.ts';
import type { VideoRequest } from './other-requests.ts';
import type { FieldError } from './field-errors.ts';

/** What normalisation needs from outside: randomness, and for inpaint the editor's global prompt. */
export interface NormalizeContext {
  readonly random: RandomSource;
  /** The prompt of the editor's generation settings; an empty inpaint prompt falls back to it. */
  readonly globalPrompt?: string;
}

/** Thrown by a normaliser when a rule that needs more than the schema fails (for example an empty inpaint prompt). */
export class RequestRuleError extends Error {
  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((e) => e.message).join('; '));
    this.name = 'RequestRuleError';
  }
}

/** The catalogue entry a request's model names: by id, else by path, else Unknown (sdxl). */
export function resolveModel(model: string): ModelCatalogueEntry {
  return findModelById(model) ?? findModelByPath(model);
}

/**
 * The catalogue entry of a request's model; a model no catalogue entry has (by id, current or past path) is
 * refused, never run as Unknown and charged.
 */
export function catalogueModel(model: string): ModelCatalogueEntry {
  const entry = resolveModel(model);
  if (entry === UNKNOWN_MODEL) {
    throw new RequestRuleError([{ field: 'model', message: `model ${model} is not in the model catalogue` }]);
  }
  return entry;
}

/** LoRA bases a model runs; a LoRA of unknown base (`none`) runs on any model that takes LoRAs at all. */
export function loraBasesFor(model: ModelCatalogueEntry): readonly LoraBaseModel[] {
  const bases = LORA_BASES_BY_MODEL_TYPE[model.modelType] ?? [];
  return bases.length === 0 ? [] : [...bases, 'none'];
}

/** Refuses LoRAs trained for another base than the model's (a FLUX LoRA on an SDXL checkpoint), naming each. */
export function checkLoraBases(model: ModelCatalogueEntry, loras: readonly { baseModel: LoraBaseModel }[]): void {
  const bases = loraBasesFor(model);
  const errors: FieldError[] = [];
  loras.forEach((l, i) => {
    if (bases.includes(l.baseModel)) return;
    const field = `loras.${i}.baseModel`;
    const allowed = bases.filter((b) => b !== 'none').map(loraBaseModelLabel);
    const fits = allowed.length === 0 ? 'takes no LoRAs' : `takes ${allowed.join(' or ')} LoRAs`;
    errors.push({
      field,
      message: `${field} ${loraBaseModelLabel(l.baseModel)} does not fit ${model.id}, which ${fits}`,
    });
  });
  if (errors.length > 0) throw new RequestRuleError(errors);
}

/** Images per job: 1 for img2img or inpaint on fluxpro or gpt, otherwise the requested count or 4. */
export function imageCountFor(
  kind: 'txt2img' | 'img2img' | 'inpaint',
  modelType: ModelType,
  requested?: number,
): number {
  if ((kind === 'img2img' || kind === 'inpaint') && (modelType === 'fluxpro' || modelType === 'gpt')) return 1;
  return requested ?? 4;
}

/** Steps and cfg: a lightning mode forces its pair, otherwise the request's values or the model defaults. */
export function samplingFor(
  lightning: Lightning,
  model: ModelCatalogueEntry,
  steps: number | undefined,
  cfg: number | undefined,
): { steps: number; cfg: number } {
  if (lightning !== 'none') return { ...LIGHTNING_PRESETS[lightning] };
  return { steps: steps ?? model.defaultSteps, cfg: cfg ?? model.defaultGuidanceScale };
}

/** Rounds a size down to the inpaint grid (multiples of 8). */
export function roundDownToGrid(size: number, multiple: number = INPAINT_DIMENSION_MULTIPLE): number {
  return Math.floor(size / multiple) * multiple;
}

type WithResolved<T> = Omit<T, 'steps' | 'cfg' | 'num_images' | 'seed'> & {
  steps: number;
  cfg: number;
  num_images: number;
  seed: number;
  modelType: ModelType;
};

export type NormalizedTxt2Img = WithResolved<Txt2ImgRequest>;
export type NormalizedImg2Img = WithResolved<Img2ImgRequest>;
export type NormalizedInpaint = WithResolved<InpaintRequest>;

/** Applies the txt2img rules: random seed, lightning, model defaults, image count, pose/sketch quality tags. */
export function normalizeTxt2Img(req: Txt2ImgRequest, ctx: NormalizeContext): NormalizedTxt2Img {
  const model = catalogueModel(req.model);
  checkLoraBases(model, req.loras);
  return {
    ...req,
    ...samplingFor(req.lightning, model, req.steps, req.cfg),
    seed: resolveSeed(req.seed, ctx.random),
    num_images: imageCountFor('txt2img', model.modelType, req.num_images),
    qualityTags: req.source === 'prompt' ? req.qualityTags : true,
    modelType: model.modelType,
  };
}

/** Applies the img2img rules (as txt2img, and one image on fluxpro or gpt). */
export function normalizeImg2Img(req: Img2ImgRequest, ctx: NormalizeContext): NormalizedImg2Img {
  const model = catalogueModel(req.model);
  checkLoraBases(model, req.loras);
  return {
    ...req,
    ...samplingFor(req.lightning, model, req.steps, req.cfg),
    seed: resolveSeed(req.seed, ctx.random),
    num_images: imageCountFor('img2img', model.modelType, req.num_images),
    qualityTags: req.source === 'prompt' ? req.qualityTags : true,
    modelType: model.modelType,
  };
}

/** Applies the inpaint rules: sizes down to multiples of 8, empty prompt falls back to the global prompt. */
export function normalizeInpaint(req: InpaintRequest, ctx: NormalizeContext): NormalizedInpaint {
  const model = catalogueModel(req.model);
  checkLoraBases(model, req.loras);
  const prompt = req.prompt.trim() === '' ? (ctx.globalPrompt ?? '') : req.prompt;
  if (prompt.trim() === '') {
    throw new RequestRuleError([
      {
        field: 'prompt',
        message: 'prompt is required (at least 1 character), and there is no global prompt to fall back to',
      },
    ]);
  }
  return {
    ...req,
    prompt,
    width: roundDownToGrid(req.width),
    height: roundDownToGrid(req.height),
    ...samplingFor(req.lightning, model, req.steps, req.cfg),
    seed: resolveSeed(req.seed, ctx.random),
    num_images: imageCountFor('inpaint', model.modelType, req.num_images),
    modelType: model.modelType,
  };
}

/** Resolves the seed of a request that names a catalogue model (and LoRAs for it): both are checked first. */
export function normalizeModelSeeded<
  T extends { seed: number; model: string; loras?: readonly { baseModel: LoraBaseModel }[] },
>(req: T, ctx: NormalizeContext): T {
  const model = catalogueModel(req.model);
  if (req.loras) checkLoraBases(model, req.loras);
  return normalizeSeeded(req, ctx);
}

/** Resolves the seed of requests whose only rule is the random seed. */
export function normalizeSeeded<T extends { seed: number }>(req: T, ctx: NormalizeContext): T {
  return { ...req, seed: resolveSeed(req.seed, ctx.random) };
}

export type NormalizedVideo = Omit<VideoRequest, 'duration'> & { duration: number };

/** Resolves the seed and fills the duration with the model's default. */
export function normalizeVideo(req: VideoRequest, ctx: NormalizeContext): NormalizedVideo {
  const model = findVideoModel(req.model);
  const duration = req.duration ?? model?.durations[0];
  if (duration === undefined)
    throw new RequestRuleError([{ field: 'model', message: `model ${req.model} is unknown` }]);
  return { ...req, duration, seed: resolveSeed(req.seed, ctx.random) };
}

export type NormalizedSmd = SmdRequest;
export type NormalizedRegional = RegionalRequest;
export type NormalizedRefine = RefineRequest;
export type NormalizedFaceEdit = FaceEditRequest;

/** A parse-and-normalise outcome: the value, or every field error at once. */
export type RequestResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** Parses with a schema, then normalises; zod issues and rule failures both come back as field errors. */
export function parseWith<S extends z.ZodType, T>(
  schema: S,
  normalize: (parsed: z.output<S>, ctx: NormalizeContext) => T,
  input: unknown,
  ctx: NormalizeContext,
  toErrors: (e: z.ZodError) => FieldError[],
): RequestResult<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: toErrors(parsed.error) };
  try {
    return { ok: true, value: normalize(parsed.data, ctx) };
  } catch (e) {
    if (e instanceof RequestRuleError) return { ok: false, errors: [...e.errors] };
    throw e;
  }
}
