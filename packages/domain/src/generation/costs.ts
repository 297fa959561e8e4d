import type { Lightning } from '../document/generation-params.ts';
import { findEditModel } from './edit-models.ts';
import { findVideoModel } from './video-models.ts';

/** Model types that have a price: the catalogue types plus `sd` (SD 1.5 checkpoints, priced like sdxl). */
export const PRICED_MODEL_TYPES = ['sd', 'sdxl', 'fluxdev', 'fluxdevmanga', 'fluxpro', 'fluxschnell', 'gpt'] as const;
export type PricedModelType = (typeof PRICED_MODEL_TYPES)[number];

/** Thrown when a cost is asked for a model type that has no price. */
export class UnknownModelTypeError extends Error {
  readonly code = 'unknown_model_type';
  constructor(readonly modelType: string) {
    super(`Unknown model type for cost: ${JSON.stringify(modelType)}`);
    this.name = 'UnknownModelTypeError';
  }
}

/** Thrown when an edit or video cost names a model that is not in its catalogue. */
export class UnknownPricedModelError extends Error {
  readonly code = 'unknown_model';
  constructor(
    readonly kind: 'edit' | 'video',
    readonly model: string,
  ) {
    super(`Unknown ${kind} model for cost: ${JSON.stringify(model)}`);
    this.name = 'UnknownPricedModelError';
  }
}

const PER_IMAGE: Readonly<Record<PricedModelType, number>> = {
  sd: 6,
  sdxl: 6,
  fluxschnell: 2,
  fluxdev: 20,
  fluxdevmanga: 20,
  fluxpro: 30,
  gpt: 80,
};
const LIGHTNING_PER_IMAGE = 4;

/** Credits for operations the spec does not price (docs/decisions/generation.md). */
export const FLAT_COSTS = {
  upscale: 4,
  background: 4,
  pose: 0,
  face_detection: 0,
  prompt_expansion: 0,
} as const;

/** Brush-based (smd) and regional generation run on the default SDXL pipeline. */
const SDXL_PIPELINE: PricedModelType = 'sdxl';

function isPriced(modelType: string): modelType is PricedModelType {
  return Object.hasOwn(PER_IMAGE, modelType);
}

/** Credits for one image of a model type (generation.md §9); lightning lowers sd and sdxl from 6 to 4. */
export function perImageCost(input: { modelType: string; lightning?: Lightning }): number {
  const { modelType, lightning = 'none' } = input;
  if (!isPriced(modelType)) throw new UnknownModelTypeError(modelType);
  if (lightning !== 'none' && (modelType === 'sd' || modelType === 'sdxl')) return LIGHTNING_PER_IMAGE;
  return PER_IMAGE[modelType];
}

/** What a job needs to be priced: the operation and the few request fields that change its price. */
export type GenerationCostInput =
  | {
      kind: 'txt2img' | 'img2img' | 'inpaint' | 'outpaint' | 'refine';
      modelType: string;
      lightning?: Lightning;
      numImages: number;
    }
  | { kind: 'smd' | 'regional'; numImages?: number }
  | { kind: 'face_enhance' | 'face_edit'; modelType: string; faces?: number }
  | { kind: 'edit'; model: string }
  | { kind: 'video'; model: string; duration: number }
  | { kind: keyof typeof FLAT_COSTS };

function count(n: number | undefined, field: string): number {
  const v = n ?? 1;
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${field} must be a whole number of at least 1, got ${v}`);
  return v;
}

/**
 * Credits a job costs: what the server charges and the editor shows before sending. Image operations cost the
 * per-image price times the number of images (or faces); edits a flat price per model; video credits per second
 * times the duration.
 */
export function costOf(input: GenerationCostInput): number {
  switch (input.kind) {
    case 'txt2img':
    case 'img2img':
    case 'inpaint':
    case 'outpaint':
    case 'refine':
      return perImageCost(input) * count(input.numImages, 'numImages');
    case 'smd':
    case 'regional':
      return perImageCost({ modelType: SDXL_PIPELINE }) * count(input.numImages, 'numImages');
    case 'face_enhance':
    case 'face_edit':
      return perImageCost({ modelType: input.modelType }) * count(input.faces, 'faces');
    case 'edit': {
      const model = findEditModel(input.model);
      if (!model) throw new UnknownPricedModelError('edit', input.model);
      return model.credits;
    }
    case 'video': {
      const model = findVideoModel(input.model);
      if (!model) throw new UnknownPricedModelError('video', input.model);
      if (!(input.duration > 0) || !Number.isFinite(input.duration)) {
        throw new RangeError(`duration must be a positive number of seconds, got ${input.duration}`);
      }
      return Math.ceil(model.credits_per_second * input.duration);
    }
    default:
      return FLAT_COSTS[input.kind];
  }
}
