import type { z } from 'zod';
import { costOf } from '../costs.ts';
import {
  zFaceEditRequest,
  zImg2ImgRequest,
  zInpaintRequest,
  zRefineRequest,
  zTxt2ImgRequest,
} from './image-requests.ts';
import { zRegionalRequest, zSmdRequest } from './composite-requests.ts';
import {
  zEditRequest,
  zFaceDetectionRequest,
  zImageOnlyRequest,
  zPromptExpansionRequest,
  zUpscaleRequest,
  zVideoRequest,
} from './other-requests.ts';
import { toFieldErrors, type FieldError } from './field-errors.ts';
import {
  normalizeImg2Img,
  normalizeInpaint,
  normalizeSeeded,
  normalizeTxt2Img,
  normalizeVideo,
  parseWith,
  resolveModel,
  type NormalizeContext,
  type RequestResult,
} from './normalize.ts';

const identity = <T>(v: T): T => v;

/** Every request kind: its schema and the normaliser applied after parsing. */
const REQUESTS = {
  txt2img: { schema: zTxt2ImgRequest, normalize: normalizeTxt2Img },
  img2img: { schema: zImg2ImgRequest, normalize: normalizeImg2Img },
  inpaint: { schema: zInpaintRequest, normalize: normalizeInpaint },
  smd: { schema: zSmdRequest, normalize: normalizeSeeded<z.output<typeof zSmdRequest>> },
  regional: { schema: zRegionalRequest, normalize: normalizeSeeded<z.output<typeof zRegionalRequest>> },
  refine: { schema: zRefineRequest, normalize: normalizeSeeded<z.output<typeof zRefineRequest>> },
  face_edit: { schema: zFaceEditRequest, normalize: normalizeSeeded<z.output<typeof zFaceEditRequest>> },
  edit: { schema: zEditRequest, normalize: identity<z.output<typeof zEditRequest>> },
  prompt_expansion: { schema: zPromptExpansionRequest, normalize: identity<z.output<typeof zPromptExpansionRequest>> },
  video: { schema: zVideoRequest, normalize: normalizeVideo },
  upscale: { schema: zUpscaleRequest, normalize: identity<z.output<typeof zUpscaleRequest>> },
  background: { schema: zImageOnlyRequest, normalize: identity<z.output<typeof zImageOnlyRequest>> },
  pose: { schema: zImageOnlyRequest, normalize: identity<z.output<typeof zImageOnlyRequest>> },
  face_detection: { schema: zFaceDetectionRequest, normalize: identity<z.output<typeof zFaceDetectionRequest>> },
} as const;

export type RequestKind = keyof typeof REQUESTS;
export const REQUEST_KINDS = Object.keys(REQUESTS) as RequestKind[];

/** The parsed (defaults applied) shape of a request kind, before normalisation. */
export type ParsedRequest<K extends RequestKind> = z.output<(typeof REQUESTS)[K]['schema']>;
/** The normalised shape of a request kind: what the server runs and charges for. */
export type NormalizedRequest<K extends RequestKind> = ReturnType<(typeof REQUESTS)[K]['normalize']>;

/** The zod schema of a request kind (for route schemas). */
export function requestSchema<K extends RequestKind>(kind: K): (typeof REQUESTS)[K]['schema'] {
  return REQUESTS[kind].schema;
}

/** Validates a payload of the given kind and applies its rules; errors name each field and its limit. */
export function parseRequest<K extends RequestKind>(
  kind: K,
  input: unknown,
  ctx: NormalizeContext,
): RequestResult<NormalizedRequest<K>> {
  const entry = REQUESTS[kind] as unknown as {
    schema: z.ZodType;
    normalize: (v: unknown, c: NormalizeContext) => NormalizedRequest<K>;
  };
  return parseWith(entry.schema, entry.normalize, input, ctx, toFieldErrors);
}

/** Credits a normalised request costs; the same number the editor shows and the server charges. */
export function costOfRequest<K extends RequestKind>(kind: K, request: NormalizedRequest<K>): number {
  // Each branch narrows by kind; the casts restate what the registry above already guarantees.
  switch (kind) {
    case 'txt2img':
    case 'img2img':
    case 'inpaint': {
      const r = request as NormalizedRequest<'txt2img' | 'img2img' | 'inpaint'>;
      return costOf({ kind, modelType: r.modelType, lightning: r.lightning, numImages: r.num_images });
    }
    case 'refine':
      return costOf({
        kind,
        modelType: resolveModel((request as NormalizedRequest<'refine'>).model).modelType,
        numImages: 1,
      });
    case 'face_edit':
      return costOf({ kind, modelType: resolveModel((request as NormalizedRequest<'face_edit'>).model).modelType });
    case 'smd':
    case 'regional':
      return costOf({ kind });
    case 'edit':
      return costOf({ kind, model: (request as NormalizedRequest<'edit'>).model });
    case 'video': {
      const r = request as NormalizedRequest<'video'>;
      return costOf({ kind, model: r.model, duration: r.duration });
    }
    case 'prompt_expansion':
    case 'upscale':
    case 'background':
    case 'pose':
    case 'face_detection':
      return costOf({ kind });
    default:
      throw new Error(`unknown request kind ${String(kind)}`);
  }
}

// Seeds never change a price, so quoting needs no real randomness.
const NO_RANDOM = (): number => 0;

/** The credits a payload would cost, or its field errors; what the editor shows before sending a job. */
export function quoteRequest(
  kind: RequestKind,
  input: unknown,
  globalPrompt?: string,
): { ok: true; credits: number } | { ok: false; errors: FieldError[] } {
  const parsed = parseRequest(kind, input, {
    random: NO_RANDOM,
    ...(globalPrompt === undefined ? {} : { globalPrompt }),
  });
  return parsed.ok ? { ok: true, credits: costOfRequest(kind, parsed.value) } : parsed;
}
