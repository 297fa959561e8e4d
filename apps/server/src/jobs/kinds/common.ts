import {
  checkModelAccess,
  enginePrompts,
  isInlineImage,
  MODEL_CATALOGUE,
  moderateRequest,
  moderatePrompt,
  parseRequest,
  resolveModel,
  toFieldErrors,
  withLoraTriggerWords,
  type ModelCatalogueEntry,
  type NormalizedRequest,
  type RequestKind,
} from '@koma/domain';
import type { z } from 'zod';
import { EngineError } from '../../engines/errors.ts';
import type {
  DiffusionParams,
  EngineProgress,
  EngineResult,
  EngineTask,
  LoraRef,
  ModelRef,
} from '../../engines/types.ts';
import { HttpError, invalidRequest, subscriptionRequired } from '../../http/errors.ts';
import type { PublicUser } from '../../repositories/users.ts';
import { recordFlowImage } from '../../repositories/flow-images.ts';
import type { JobDeps } from '../deps.ts';
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
export function parse<K extends RequestKind>(kind: K, body: unknown): NormalizedRequest<K> {
  const result = parseRequest(kind, body ?? {}, { random: Math.random });
  if (!result.ok) throw invalidRequest(result.errors.map((e) => e.message).join('; '));
  return result.value;
}

/** Parses a server-side schema the same way. */
export function parseSchema<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success)
    throw invalidRequest(
      toFieldErrors(result.error)
        .map((e) => e.message)
        .join('; '),
    );
  return result.data;
}

/** 400 prompt_rejected when moderation refuses a prompt; else the request with nsfw terms stripped. */
export function moderate<K extends RequestKind>(kind: K, request: NormalizedRequest<K>): NormalizedRequest<K> {
  const verdict = moderateRequest(kind, request);
  if (verdict.allowed) return verdict.request;
  const reasons = verdict.verdicts.flatMap((v) =>
    v.verdict.allowed ? [] : v.verdict.reasons.map((r) => ({ field: v.field, code: r.code, message: r.message })),
  );
  throw new HttpError(400, 'prompt_rejected', reasons.map((r) => `${r.field}: ${r.message}`).join(' '), { reasons });
}

export function moderateText(field: string, prompt: string): string {
  if (prompt.trim() === '') return prompt;
  const verdict = moderatePrompt(prompt);
  if (verdict.allowed) return verdict.sanitizedPrompt;
  const reasons = verdict.reasons.map((r) => ({ field, code: r.code, message: r.message }));
  throw new HttpError(400, 'prompt_rejected', reasons.map((r) => `${field}: ${r.message}`).join(' '), { reasons });
}

export function requireAccess(user: PublicUser, modelId: string): void {
  if (checkModelAccess(modelId, user.plan === 'subscriber') !== null) throw subscriptionRequired();
}

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
    try {
      return await deps.images.putImage(userId, Buffer.from(ref.slice(comma + 1), 'base64'));
    } catch (err) {
      if (err instanceof HttpError)
        throw new HttpError(err.statusCode, err.code, err.message.replace(/^encoded/, field));
      throw err;
    }
  }
  if (!(await deps.images.exists(userId, ref))) throw invalidRequest(`${field}: image ${ref} not found`);
  return ref;
}

export async function storeOptional(deps: JobDeps, userId: string, ref: string | null, field: string) {
  return ref === null ? null : storeRef(deps, userId, ref, field);
}

export async function loadImage(deps: JobDeps, userId: string, id: string): Promise<Buffer> {
  const image = await deps.images.getImage(userId, id);
  if (!image) throw new EngineError('validation', `Image ${id} no longer exists`);
  return image.bytes;
}

/** The engine a task routes to (400 when no configured engine can run it). */
export function route(deps: JobDeps, task: EngineTask): { engine: string; lane: string } {
  try {
    const engine = deps.router.engineFor(task);
    return { engine: engine.id, lane: engine.id === 'builtin' ? 'builtin' : 'remote' };
  } catch (err) {
    throw invalidRequest(err instanceof Error ? err.message : String(err));
  }
}

export async function runEngine(
  deps: JobDeps,
  task: EngineTask,
  report: Report,
  signal: AbortSignal,
): Promise<EngineResult> {
  return deps.router.engineFor(task).run(task, { onProgress: report }, signal);
}

export function modelRef(model: ModelCatalogueEntry): ModelRef {
  return { id: model.id, path: model.path, modelType: model.modelType };
}

export function loraRefs(loras: readonly { name: string; url: string; strength: number }[]): LoraRef[] {
  return loras.map((l) => ({ name: l.name, url: l.url, strength: l.strength }));
}

/** What a flow image records about the generation behind it (editor.md §3). */
export interface GenerationData {
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
export async function storeResult(
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

export function dataOf(
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

export const EMPTY = Buffer.alloc(0);
export const PIPELINE_MODEL: ModelCatalogueEntry =
  MODEL_CATALOGUE.find((m) => m.modelType === 'sdxl' && m.recommended) ??
  MODEL_CATALOGUE.find((m) => m.modelType === 'sdxl') ??
  resolveModel('sdxl');
