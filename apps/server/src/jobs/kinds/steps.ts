// The shared steps of the job pipeline (pipeline.ts) and the helpers handlers build engine tasks with.
export { PIPELINE_MODEL } from '@koma/domain';
import {
  checkModelAccess,
  enginePrompts,
  isInlineImage,
  moderateRequest,
  parseRequest,
  withLoraTriggerWords,
  type ModelCatalogueEntry,
  type NormalizedRequest,
  type OperationKind,
} from '@koma/domain';
import { EngineError } from '../../engines/errors.ts';
import type { DiffusionParams, EngineResult, EngineTask, LoraRef, ModelRef } from '../../engines/types.ts';
import { HttpError, invalidRequest, subscriptionRequired } from '../../http/errors.ts';
import type { PublicUser } from '../../repositories/users.ts';
import { recordFlowImage } from '../../repositories/flow-images.ts';
import type { JobDeps } from '../deps.ts';
import type { Recipe, RunningJob, Target } from './handler.ts';

/** Parses with the domain registry; 400 invalid_request naming every failing field and its limit. */
export function parse<K extends OperationKind>(kind: K, body: unknown): NormalizedRequest<K> {
  const result = parseRequest(kind, body ?? {}, { random: Math.random });
  if (!result.ok) {
    // Every failing field with its sentence; `field` is the first, as in every other 400.
    throw new HttpError(400, 'invalid_request', result.errors.map((e) => e.message).join('; '), {
      field: result.errors[0]?.field ?? 'request',
      fields: result.errors,
    });
  }
  return result.value;
}

/** Words moderation took out of a prompt that it otherwise allowed, for the user to see. */
export interface StrippedTerms {
  field: string;
  terms: readonly string[];
}

/**
 * 400 prompt_rejected when moderation refuses a prompt, with each reason's field, rule (`code`) and the words
 * that broke it; else the request with nsfw terms stripped, and which words were stripped from which field.
 */
export function moderate<K extends OperationKind>(
  kind: K,
  request: NormalizedRequest<K>,
): { request: NormalizedRequest<K>; stripped: StrippedTerms[] } {
  const verdict = moderateRequest(kind, request);
  if (verdict.allowed) {
    const stripped = verdict.verdicts.flatMap((v) =>
      v.verdict.reasons
        .filter((r) => r.code === 'nsfw_stripped' && r.terms.length > 0)
        .map((r) => ({ field: v.field, terms: r.terms })),
    );
    return { request: verdict.request, stripped };
  }
  const reasons = verdict.verdicts.flatMap((v) =>
    v.verdict.allowed
      ? []
      : v.verdict.reasons.map((r) => ({ field: v.field, code: r.code, message: r.message, terms: r.terms })),
  );
  // `rule` and `words` name the first rule broken and every word of the prompt that broke a rule, for a client
  // that shows one line; `reasons` has each rule with its field and words.
  const words = [...new Set(reasons.flatMap((r) => r.terms))];
  const message = reasons
    .map((r) => `${r.field}: ${r.message}${r.terms.length > 0 ? ` (${r.terms.join(', ')})` : ''}`)
    .join(' ');
  throw new HttpError(400, 'prompt_rejected', message, { rule: reasons[0]?.code ?? 'unknown', words, reasons });
}

/** 403 SUBSCRIPTION_REQUIRED when the model is for subscribers and the user is not one. */
export function requireAccess(user: PublicUser, modelId: string): void {
  if (checkModelAccess(modelId, user.plan === 'subscriber') !== null) throw subscriptionRequired();
}

/** The price, or 400 naming the model when it has none. */
export function price(compute: () => number): number {
  try {
    return compute();
  } catch (err) {
    throw invalidRequest(`model: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Stores an inline image (validated by the image store) or checks that an image id is the user's. */
export async function storeRef(deps: JobDeps, userId: string, ref: string, field: string): Promise<string> {
  if (isInlineImage(ref)) {
    const comma = ref.indexOf(',');
    return deps.images.putUpload(userId, Buffer.from(ref.slice(comma + 1), 'base64'), field);
  }
  if (!(await deps.images.exists(userId, ref))) throw invalidRequest(`${field}: image ${ref} not found`);
  return ref;
}

export async function loadImage(deps: JobDeps, userId: string, id: string): Promise<Buffer> {
  const image = await deps.images.getImage(userId, id);
  if (!image) throw new EngineError('validation', `Image ${id} no longer exists`);
  return image.bytes;
}

/** The engine a task routes to (400 when no configured engine can run it). */
export function route(deps: JobDeps, task: EngineTask): Target {
  try {
    const engine = deps.router.engineFor(task);
    return { engine: engine.id, lane: engine.id === 'builtin' ? 'builtin' : 'remote' };
  } catch (err) {
    throw invalidRequest(err instanceof Error ? err.message : String(err));
  }
}

export function modelRef(model: ModelCatalogueEntry): ModelRef {
  return { id: model.id, path: model.path, modelType: model.modelType };
}

export function loraRefs(loras: readonly { name: string; url: string; strength: number }[]): LoraRef[] {
  return loras.map((l) => ({ name: l.name, url: l.url, strength: l.strength }));
}

export interface OutputImage {
  id: string;
  width: number;
  height: number;
  seed: number;
  /** The engine that made it (`builtin` is the preview engine, not a diffusion model). */
  engine: string;
}

/** Stores every image of a result for the user and records each as a flow image with its generation data. */
export async function storeResult(
  deps: JobDeps,
  job: RunningJob,
  result: EngineResult,
  data: Recipe,
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
    images.push({ id, width: image.width, height: image.height, seed: image.seed, engine: result.metadata.engine });
  }
  return { images };
}

/** The diffusion fields of an engine task: prompts with LoRA trigger words and the model's quality tags. */
export function params(
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

/**
 * The recipe of a diffusion result (docs/api-generation.md): `prompt` and `negative_prompt` as the engine got
 * them (quality tags and LoRA trigger words included), the user's own as `user_prompt` and
 * `user_negative_prompt`, and the settings that "use these settings" puts back into the editor.
 */
export function recipeOf(
  model: ModelCatalogueEntry,
  r: {
    prompt: string;
    negative_prompt: string;
    qualityTags?: boolean;
    loras?: readonly { name: string; url: string; strength: number; baseModel?: string }[];
    lightning?: string;
  },
  task: DiffusionParams,
): Recipe {
  return {
    prompt: task.prompt,
    negative_prompt: task.negativePrompt,
    user_prompt: r.prompt,
    user_negative_prompt: r.negative_prompt,
    model_name: model.id,
    num_inference_steps: task.steps,
    guidance_scale: task.cfg,
    quality_tags: r.qualityTags ?? false,
    loras: (r.loras ?? []).map((l) => ({
      name: l.name,
      url: l.url,
      strength: l.strength,
      baseModel: l.baseModel ?? 'none',
    })),
    lightning: r.lightning ?? 'none',
  };
}

/** Stands in for image bytes in the task a target is routed by (routing never reads pixels). */
export const EMPTY = Buffer.alloc(0);
